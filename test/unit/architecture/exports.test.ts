/**
 * Dead exports do not come back: every export of a file in src/ is imported by another file (in
 * src/ or test/), or it is on the short list below with the reason. An export used only inside its
 * own file loses its `export`; one used nowhere is deleted.
 * Read from the syntax alone (TypeScript's parser, no type check): static imports, re-exports,
 * `import * as ns` (the `ns.name`s read), `import('...')` read by destructuring, `.then((m) => m.x)`
 * or `(await import(...)).x`, and `import('...').Type` in types. A dynamic import it cannot read
 * fails the test, naming the place, rather than counting as a use of everything.
 * Run alone: npx vitest run test/unit/architecture/exports.test.ts
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type * as TS from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

// TypeScript's parser, required as CommonJS: through node's ES module loader, its 9 MB script is
// also scanned for its exports first (~0.3 s more per worker).
const ts: typeof TS = createRequire(import.meta.url)('typescript');

const ROOT = resolve(__dirname, '../../..');

/** Exports used only outside src/ and test/, and why. */
const ALLOWED = new Map<string, string>([
  ['src/entry.ts runProcess', 'bin/svc.js runs it (the bundle\'s one entry)'],
  ['src/entry.ts builtVersion', 'bin/svc.js passes it to runProcess (the version the build read from package.json)'],
]);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.(c?ts|d\.cts)$/.test(n) ? [p] : [];
  });
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

interface ExportUse {
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

function exportUse(roots = ['src', 'test']): ExportUse {
  const exports = new Map<string, Set<string>>();
  const used = new Set<string>();
  const unreadable: string[] = [];
  const all = roots.flatMap((r) => files(join(ROOT, r)));
  for (const abs of all) {
    const file = relative(ROOT, abs);
    const text = readFileSync(abs, 'utf8');
    const sf = ts.createSourceFile(abs, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
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

/** `file name` of every export in src/ that no other file imports. */
function unusedExports(u: ExportUse): string[] {
  return [...u.exports]
    .filter(([f]) => f.startsWith('src/'))
    .flatMap(([f, names]) => [...names].map((n) => `${f} ${n}`))
    .filter((k) => !u.used.has(k))
    .sort();
}

describe('exports of src/', () => {
  // Read in a hook, not while vitest collects the file: a hook's time counts in the file's duration,
  // by which the next run orders the files (longest first), so this file no longer comes last.
  let u: ExportUse;
  beforeAll(() => { u = exportUse(); });

  it('reads every dynamic import', () => {
    expect(u.unreadable).toEqual([]);
  });

  it('reads the uses it checks', () => {
    expect(u.used).toContain('src/cli.ts main');
    expect(u.used).toContain('src/commands/program.ts buildProgram');
  });

  it('every export of src/ is imported by another file (or listed, with its reason)', () => {
    const unused = unusedExports(u).filter((k) => !ALLOWED.has(k));
    expect(unused, 'remove `export` (used only in its own file) or delete it (used nowhere)').toEqual([]);
  });

  it('the allow-list holds only exports that exist and are otherwise unused', () => {
    const unused = new Set(unusedExports(u));
    expect([...ALLOWED.keys()].filter((k) => !unused.has(k))).toEqual([]);
  });

  it('finds an export nobody imports (the check can fail)', () => {
    const fake: ExportUse = { exports: new Map([['src/a.ts', new Set(['x', 'y'])]]), used: new Set(['src/a.ts x']), unreadable: [] };
    expect(unusedExports(fake)).toEqual(['src/a.ts y']);
  });
});
