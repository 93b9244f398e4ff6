// The two scripts of svc's bundle (scripts/build.mjs): dist/svc.cjs holds what an API call runs,
// dist/svc-more.cjs what it never runs (the built-in commands, the gate, triage, tables, charts,
// listings, prompts, ora, conf). V8 deserializes a script's whole code cache when it compiles it,
// and creates a closure for every function at the bundle's top level when it runs it: code a call
// never runs made every call slower (docs/performance.md, "Ninth round").
//
// How the two share modules: a dynamic import() in the call's code of a module outside the call's
// folders (CALL below) starts the second script. Each module is in exactly one script: the second
// takes what it imports of the first's modules from the first (`__svcMain(path)`, the live
// namespace of that module), and the first loads a module of the second through `__svcMore(path)`,
// which bin/svc.js answers by compiling dist/svc-more.cjs once. So classes, zod and commander exist
// once per process (an `instanceof` works across the two), and neither script has a copy of the
// other's modules.
import { build } from 'esbuild';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

/**
 * The folders whose modules an API call may import() and keep in dist/svc.cjs: the operation table
 * (a group's rows), the operation command, the HTTP client. Any other import() starts
 * dist/svc-more.cjs, unless its module is in dist/svc.cjs anyway (imported statically by the call's code).
 */
export const CALL = [/^src\/operations\//, /^src\/commands\/operation\//, /^src\/http\//];

const rel = (root, path) => relative(root, path).split('\\').join('/');

/**
 * A plugin of the first script's build: every import() of a module outside CALL (and not in
 * `keep`) becomes `__svcMore(path)`; the modules found so go to `found`.
 */
function toMore(root, keep, found) {
  return {
    name: 'svc-more stubs',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (a) => {
        if (a.kind !== 'dynamic-import' || a.pluginData?.svcInner || a.path.startsWith('node:')) return undefined;
        const r = await b.resolve(a.path, { resolveDir: a.resolveDir, kind: a.kind, importer: a.importer, pluginData: { svcInner: true } });
        if (r.errors.length || r.external) return undefined;
        const path = rel(root, r.path);
        if (CALL.some((re) => re.test(path)) || keep.has(path)) return undefined;
        // The stand-in hands over a module's namespace, which esbuild's import() of it (node mode)
        // turns into { default: namespace }: a package's default export would be lost. svc's own
        // modules export by name; a package is loaded through one of them (src/config/conf-class.ts).
        if (path.startsWith('node_modules/')) throw new Error(`${rel(root, a.importer)}: import('${a.path}') would reach dist/svc-more.cjs without its default export: import it through a module of src/ that re-exports it by name`);
        found.add(path);
        // (A path of its own: one ending in .mjs would make esbuild read the stand-in as an ES module.)
        return { path: `${path}:svc-more`, namespace: 'svc-more' };
      });
      b.onLoad({ filter: /.*/, namespace: 'svc-more' }, (a) => ({ contents: `module.exports = __svcMore(${JSON.stringify(a.path.replace(/:svc-more$/, ''))})`, loader: 'js' }));
    },
  };
}

/** A plugin of the second script's build: every module of the first script becomes `__svcMain(path)`; those used go to `used`. */
function toMain(root, main, used) {
  return {
    name: 'svc-main stubs',
    setup(b) {
      b.onResolve({ filter: /.*/ }, async (a) => {
        if (a.kind === 'entry-point' || a.pluginData?.svcInner || a.namespace === 'svc-main' || a.path.startsWith('node:')) return undefined;
        const r = await b.resolve(a.path, { resolveDir: a.resolveDir, kind: a.kind, importer: a.importer, pluginData: { svcInner: true } });
        if (r.errors.length || r.external) return undefined;
        const path = rel(root, r.path);
        if (!main.has(path)) return undefined;
        used.add(path);
        return { path: `${path}:svc-main`, namespace: 'svc-main' };
      });
      b.onLoad({ filter: /.*/, namespace: 'svc-main' }, (a) => ({ contents: `module.exports = __svcMain(${JSON.stringify(a.path.replace(/:svc-main$/, ''))})`, loader: 'js' }));
    },
  };
}

/** An entry module given as text (resolved from the project's root). */
function virtualEntry(name, contents, root) {
  return {
    name: `entry ${name}`,
    setup(b) {
      b.onResolve({ filter: new RegExp(`^${name}$`) }, () => ({ path: name, namespace: `svc-${name}` }));
      b.onLoad({ filter: /.*/, namespace: `svc-${name}` }, () => ({ contents, loader: 'js', resolveDir: root }));
    },
  };
}

/** Modules reachable from `from` through static imports and require() calls (not import()). */
function staticClosure(meta, from) {
  const seen = new Set();
  const visit = (p) => {
    if (seen.has(p) || !meta.inputs[p]) return;
    seen.add(p);
    for (const i of meta.inputs[p].imports) if (!i.external && i.kind !== 'dynamic-import') visit(i.path);
  };
  visit(from);
  return seen;
}

/** The names each module exports (esbuild's metafile of each alone, everything it imports left out). */
async function exportNames(root, paths, common) {
  if (paths.length === 0) return new Map();
  const alone = {
    name: 'each module alone',
    setup(b) { b.onResolve({ filter: /.*/ }, (a) => (a.kind === 'entry-point' ? undefined : { path: a.path, external: true })); },
  };
  const r = await build({ absWorkingDir: root, entryPoints: paths, bundle: true, write: false, metafile: true, format: 'esm', platform: 'node', outdir: 'exports', logLevel: 'silent', plugins: [alone], target: common.target });
  const names = new Map();
  for (const o of Object.values(r.metafile.outputs)) if (o.entryPoint) names.set(o.entryPoint, o.exports);
  for (const p of paths) if (!names.has(p)) throw new Error(`no exports found for ${p}`);
  return names;
}

/**
 * Builds dist/svc.cjs and dist/svc-more.cjs with esbuild's `options` (entry: src/entry.ts; the
 * plugins run after the split's). Returns each script's metafile and the modules of each.
 */
export async function buildChunks(root, options, { write = true } = {}) {
  const { plugins = [], ...rest } = options;
  const common = { absWorkingDir: root, ...rest };
  const entry = 'src/entry.ts';
  // 1. The first script's modules: the entry, what it imports, and what the call's folders import().
  //    A module the second script would start but that the first holds anyway stays in the first.
  const keep = new Set();
  let more;
  let mainMeta;
  for (;;) {
    more = new Set();
    const r = await build({ ...common, entryPoints: [entry], outfile: 'out.cjs', write: false, metafile: true, plugins: [toMore(root, keep, more), ...plugins] });
    mainMeta = r.metafile;
    const inMain = [...more].filter((p) => mainMeta.inputs[p]);
    if (inMain.length === 0) break;
    for (const p of inMain) keep.add(p);
  }
  const main = new Set(Object.keys(mainMeta.inputs).filter((p) => !p.startsWith('svc-more:')));
  // 2. What the second script takes from the first.
  const used = new Set();
  const moreEntry = `module.exports = function (path) {\n  switch (path) {\n${[...more].sort().map((p) => `    case ${JSON.stringify(p)}: return require(${JSON.stringify(`./${p}`)});\n`).join('')}  }\n  throw new Error('svc-more.cjs has no module ' + path);\n};\n`;
  const moreOptions = { ...common, entryPoints: ['svc-more-entry'], outfile: common.outfile.replace(/svc\.cjs$/, 'svc-more.cjs'), metafile: true, banner: { js: common.banner.js.replace('__svcMore)', '__svcMain)') } };
  // Built once: what it takes from the first script (`used`) is known only after it is built, and the
  // script itself does not depend on it (the first script's module list does), so this build is the
  // second script as written (step 3), not a trial (a second build of it cost ~1.2 s of esbuild).
  const moreBuilt = await build({ ...moreOptions, write: false, plugins: [virtualEntry('svc-more-entry', moreEntry, root), toMain(root, main, used), ...plugins] });
  // 3. The first script, with the namespaces the second uses: those it evaluates at start-up by
  //    `import * as` (already evaluated), the others by require() (evaluated when first asked for).
  // Each ES module by name, read through getters made when first asked for: `import * as` or
  // require() would make each a namespace object with a getter per export at start-up, in every
  // call, ~50 of them (~2.4 M instructions). Those it evaluates at start-up anyway (its static
  // imports) from the entry; its lazy ones from a module of their own, which the entry requires when
  // the second script first asks for one (evaluating them then). CommonJS modules by require().
  const atStart = staticClosure(mainMeta, entry);
  const list = [...used].sort();
  const esm = list.filter((p) => mainMeta.inputs[p].format === 'esm');
  const names = await exportNames(root, esm, common);
  const getters = (p, prefix) => `{ __esModule: true, ${names.get(p).map((n, j) => `get ${n}() { return ${prefix}_${j}; }`).join(', ')} }`;
  const importAs = (p, prefix) => `import { ${names.get(p).map((n, j) => `${n} as ${prefix}_${j}`).join(', ')} } from ${JSON.stringify(`./${p}`)};`;
  const early = esm.filter((p) => atStart.has(p));
  const late = esm.filter((p) => !atStart.has(p));
  const lateModule = [
    ...late.map((p, i) => importAs(p, `l${i}`)),
    'export function lateModule(path) {',
    '  switch (path) {',
    ...late.map((p, i) => `    case ${JSON.stringify(p)}: return ${getters(p, `l${i}`)};`),
    '  }',
    '}',
    '',
  ].join('\n');
  const mainEntry = [
    `export * from './${entry}';`,
    ...early.map((p, i) => importAs(p, `m${i}`)),
    'const given = new Map();',
    'export function __svcModule(path) {',
    '  let m = given.get(path);',
    '  if (m) return m;',
    '  switch (path) {',
    ...list.map((p) => {
      const i = early.indexOf(p);
      if (i >= 0) return `    case ${JSON.stringify(p)}: m = ${getters(p, `m${i}`)}; break;`;
      if (late.includes(p)) return `    case ${JSON.stringify(p)}: m = require('svc-late-modules').lateModule(path); break;`;
      return `    case ${JSON.stringify(p)}: m = require(${JSON.stringify(`./${p}`)}); break;`;
    }),
    "    default: throw new Error('svc.cjs has no module ' + path);",
    '  }',
    '  given.set(path, m);',
    '  return m;',
    '}',
    '',
  ].join('\n');
  const first = await build({ ...common, entryPoints: ['svc-main-entry'], write, metafile: true, plugins: [virtualEntry('svc-main-entry', mainEntry, root), virtualEntry('svc-late-modules', lateModule, root), toMore(root, keep, new Set()), ...plugins] });
  if (write) {
    for (const f of moreBuilt.outputFiles) {
      mkdirSync(dirname(f.path), { recursive: true });
      writeFileSync(f.path, f.contents);
    }
  }
  return { main: first.metafile, more: moreBuilt.metafile, moreEntries: [...more].sort(), shared: list };
}

