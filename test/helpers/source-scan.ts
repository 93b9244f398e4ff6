/**
 * src/ and test/ read once per test run for the three architecture tests that read code by its syntax
 * (test/unit/architecture/exports.test.ts, lazy-imports.test.ts, api-paths.test.ts), with
 * TypeScript's parser (no type check). Each file is parsed once, and what each test checks is
 * gathered from that parse: the exports and their uses, the dynamic `import()` calls, the API paths
 * and HTTP client calls. The first file to ask does it, in whichever worker, and writes the facts to
 * the run's shared folder (once-per-run.ts); the others read them. (Each of the three parsed the
 * trees in its own worker before: the parser's first pass over ~500 files costs ~2 s of CPU in a
 * worker, mostly compiling the parser, a second pass ~0.5 s.)
 *
 * The facts are keyed by the files' paths, sizes and modification times, so a changed file (vitest's
 * watch mode) is read again.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import type * as TS from 'typescript';
import { oncePerRun } from './once-per-run.js';

// TypeScript's parser, required as CommonJS: through node's ES module loader, its 9 MB script is
// also scanned for its exports first (~0.3 s more per worker).
const ts: typeof TS = createRequire(import.meta.url)('typescript');

const ROOT = resolve(__dirname, '../..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.(c?ts|d\.cts)$/.test(n) ? [p] : [];
  });
}

interface Source {
  abs: string;
  /** root-relative */
  file: string;
  text: string;
  sf: TS.SourceFile;
}

/** A relative specifier from `file`, as the root-relative source file it names (undefined for packages). */
function target(file: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const abs = resolve(dirname(file), spec);
  for (const cand of [abs.replace(/\.js$/, '.ts'), abs.replace(/\.cjs$/, '.cts'), abs.replace(/\.cjs$/, '.d.cts'), `${abs}.ts`, join(abs, 'index.ts')]) {
    try { if (statSync(cand).isFile()) return relative(ROOT, cand); } catch { /* next */ }
  }
  return undefined;
}

export interface ExportUse {
  /** root-relative file -> its exported names */
  exports: Map<string, Set<string>>;
  /** `file name` keys imported by some other file */
  used: Set<string>;
  /** dynamic imports the reader could not follow */
  unreadable: string[];
}

const hasExport = (n: TS.Node) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** Names a binding pattern destructures (`{ a, b: c }` -> a, b). */
function patternNames(p: TS.BindingName): string[] | undefined {
  if (!ts.isObjectBindingPattern(p)) return undefined;
  const out: string[] = [];
  for (const e of p.elements) {
    if (e.dotDotDotToken) return undefined;
    const key = e.propertyName ?? e.name;
    if (!ts.isIdentifier(key)) return undefined;
    out.push(key.text);
  }
  return out;
}

/** The names read from the module a dynamic `import(...)` call yields, or undefined when unreadable. */
function dynamicNames(call: TS.CallExpression): string[] | undefined {
  let n: TS.Node = call;
  if (ts.isAwaitExpression(n.parent)) {
    n = n.parent;
    while (ts.isParenthesizedExpression(n.parent)) n = n.parent;
    if (ts.isPropertyAccessExpression(n.parent) && n.parent.expression === n) return [n.parent.name.text];
    if (ts.isVariableDeclaration(n.parent) && n.parent.initializer === n) {
      const names = patternNames(n.parent.name);
      if (names) return names;
      // const ns = await import('x'): the ns.x read in the rest of the file
      if (ts.isIdentifier(n.parent.name)) return namespaceReads(n.parent.name.text, n.getSourceFile());
    }
    return undefined;
  }
  // import('x').then((m) => m.a ...)
  if (ts.isPropertyAccessExpression(n.parent) && n.parent.name.text === 'then' && ts.isCallExpression(n.parent.parent)) {
    const cb = n.parent.parent.arguments[0];
    if (cb && (ts.isArrowFunction(cb) || ts.isFunctionExpression(cb)) && cb.parameters[0]) {
      const p = cb.parameters[0].name;
      const names = patternNames(p);
      if (names) return names;
      if (ts.isIdentifier(p)) {
        const reads: string[] = [];
        const visit = (x: TS.Node) => {
          if (ts.isPropertyAccessExpression(x) && ts.isIdentifier(x.expression) && x.expression.text === p.text) reads.push(x.name.text);
          ts.forEachChild(x, visit);
        };
        visit(cb.body);
        return reads;
      }
    }
  }
  return undefined;
}

/** Every `ns.name` read in a file. */
function namespaceReads(ns: string, sf: TS.SourceFile): string[] {
  const reads: string[] = [];
  const visit = (x: TS.Node) => {
    if ((ts.isPropertyAccessExpression(x) && ts.isIdentifier(x.expression) && x.expression.text === ns)) reads.push(x.name.text);
    if (ts.isQualifiedName(x) && ts.isIdentifier(x.left) && x.left.text === ns) reads.push(x.right.text);
    ts.forEachChild(x, visit);
  };
  visit(sf);
  return reads;
}

const IMPORT_CALL = /\bimport\s*\(/;

function exportUse(sources: Source[]): ExportUse {
  const exports = new Map<string, Set<string>>();
  const used = new Set<string>();
  const unreadable: string[] = [];
  for (const { abs, file, text, sf } of sources) {
    const mine = new Set<string>();
    exports.set(file, mine);
    const use = (spec: string, names: Iterable<string>) => {
      const t = target(abs, spec);
      if (t && t !== file) for (const n of names) used.add(`${t} ${n}`);
    };
    for (const st of sf.statements) {
      if (ts.isExportDeclaration(st)) {
        const spec = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? st.moduleSpecifier.text : undefined;
        if (st.exportClause && ts.isNamedExports(st.exportClause)) {
          for (const e of st.exportClause.elements) {
            mine.add(e.name.text);
            if (spec) use(spec, [(e.propertyName ?? e.name).text]);
          }
        } else if (spec) unreadable.push(`${file}: export * from '${spec}'`);
      } else if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
        const spec = st.moduleSpecifier.text;
        const c = st.importClause;
        if (!c) continue;
        if (c.name) use(spec, ['default']);
        const b = c.namedBindings;
        if (b && ts.isNamedImports(b)) use(spec, b.elements.map((e) => (e.propertyName ?? e.name).text));
        if (b && ts.isNamespaceImport(b)) use(spec, namespaceReads(b.name.text, sf));
      } else if (hasExport(st)) {
        if (ts.isVariableStatement(st)) {
          for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) mine.add(d.name.text);
        } else if ((ts.isFunctionDeclaration(st) || ts.isClassDeclaration(st) || ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st) || ts.isEnumDeclaration(st)) && st.name) {
          mine.add(st.name.text);
        }
      }
    }
    const visit = (x: TS.Node) => {
      if (ts.isCallExpression(x) && x.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const arg = x.arguments[0];
        if (arg && ts.isStringLiteral(arg) && arg.text.startsWith('.')) {
          const names = dynamicNames(x);
          if (names) use(arg.text, names);
          else unreadable.push(`${file}:${sf.getLineAndCharacterOfPosition(x.getStart()).line + 1}: import('${arg.text}')`);
        }
      } else if (ts.isImportTypeNode(x) && ts.isLiteralTypeNode(x.argument) && ts.isStringLiteral(x.argument.literal) && x.qualifier) {
        const q = x.qualifier;
        use(x.argument.literal.text, [ts.isIdentifier(q) ? q.text : ts.isIdentifier(q.left) ? q.left.text : '']);
      }
      ts.forEachChild(x, visit);
    };
    // import() calls and import('...') types: only where the text has one (the walk is most of the time).
    if (IMPORT_CALL.test(text)) visit(sf);
  }
  return { exports, used, unreadable };
}


/** The dynamic `import()` calls of each file of src/ (code only: not comments, strings or `typeof import()` types). */
function lazyImports(sources: Source[]): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const { file, text, sf } of sources) {
    if (!file.startsWith('src/')) continue;
    // Walked only where the text has one (comments and strings included: the parse tells them apart).
    if (!/\bimport\s*\(/.test(text)) continue;
    const calls: string[] = [];
    const visit = (n: TS.Node) => {
      if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
        calls.push(`${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}: ${n.getText()}`);
      }
      ts.forEachChild(n, visit);
    };
    visit(sf);
    if (calls.length) found.set(file, calls);
  }
  return found;
}

/** A literal's text that is an API path or its bare prefix: `/api/v1/...`, `/api/v1`. */
const PATH = /\/api\/v1(\/|$)/;

export interface Found {
  paths: string[];
  clientCalls: string[];
}

/** The string and template literals of a source that name an API path, and its calls of Client.call. */
export function scan(file: string, text: string, sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)): Found {
  const at = (n: TS.Node) => `${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  const found: Found = { paths: [], clientCalls: [] };
  const visit = (n: TS.Node) => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) {
      if (PATH.test(n.text)) found.paths.push(`${at(n)}: ${n.getText()}`);
    }
    // client.call(path, body, { safe }): the client's signature; Function.prototype.call is not one.
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'call') {
      const opts = n.arguments[2];
      const byName = /client/i.test(n.expression.expression.getText());
      const bySignature = opts !== undefined && ts.isObjectLiteralExpression(opts) && opts.properties.some((p) => p.name !== undefined && p.name.getText() === 'safe');
      if (byName || bySignature) found.clientCalls.push(`${at(n)}: ${n.getText().split('\n')[0]}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

/** What the three tests check, as JSON. */
export interface SourceScan {
  /** exports.test.ts: root-relative file -> its exported names; `file name` keys imported by another file; dynamic imports not followed. */
  exports: Record<string, string[]>;
  used: string[];
  unreadable: string[];
  /** lazy-imports.test.ts: the `import()` calls of each file of src/ that has one. */
  lazyImports: Array<[string, string[]]>;
  /** api-paths.test.ts: each file of src/ (not .d.cts) with the API paths it names and its client calls. */
  api: Array<{ file: string } & Found>;
}

function scanAll(): SourceScan {
  const sources: Source[] = ['src', 'test'].flatMap((r) => files(join(ROOT, r))).map((abs) => {
    const text = readFileSync(abs, 'utf8');
    return { abs, file: relative(ROOT, abs), text, sf: ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS) };
  });
  const u = exportUse(sources);
  const api = sources.filter((s) => s.file.startsWith('src/') && !s.file.endsWith('.d.cts')).map((s) => ({ file: s.file, ...scan(s.file, s.text, s.sf) }));
  return {
    exports: Object.fromEntries([...u.exports].map(([f, names]) => [f, [...names]])),
    used: [...u.used],
    unreadable: u.unreadable,
    lazyImports: [...lazyImports(sources)],
    api,
  };
}

/** The facts of src/ and test/ as they are now: read once per run (and again after a file changed). */
export function sourceScan(): Promise<SourceScan> {
  const key = createHash('sha256');
  for (const abs of ['src', 'test'].flatMap((r) => files(join(ROOT, r)))) {
    const s = statSync(abs);
    key.update(`${relative(ROOT, abs)} ${s.size} ${s.mtimeMs}\n`);
  }
  return oncePerRun(`source-scan-${key.digest('hex').slice(0, 16)}`, async () => scanAll(), () => '');
}
