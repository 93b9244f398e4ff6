/**
 * Start-up regression guard (not a timed test): what a command loads must stay what it needs.
 *
 * - Statically, from esbuild's import graph of src/: the code every invocation evaluates (the static
 *   closure of src/entry.ts) and the code an API call evaluates (plus the modules it imports on the
 *   way: the operation command, the group, the run step, the HTTP client) must not contain the
 *   heavy parts only some commands use. In dist/svc.cjs a module outside that closure is compiled
 *   and run only when imported.
 * - At run time, with a preload that records what the process did: an API call with JSON output
 *   compiles the CLI from its V8 code cache (V8 accepts it) and loads none of the node built-ins it
 *   does not need; `--version` does not load the CLI at all.
 */
import { build, type Metafile } from 'esbuild';
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../../helpers/run-svc.js';
import { startFakeServer, type FakeServer } from '../../helpers/fake-server.js';
import { tempDir } from '../../helpers/temp.js';

const ROOT = resolve(__dirname, '../../..');

async function importGraph(): Promise<Metafile> {
  const r = await build({
    entryPoints: [join(ROOT, 'src/entry.ts')], absWorkingDir: ROOT, bundle: true, write: false, metafile: true,
    platform: 'node', format: 'esm', splitting: true, outdir: 'out', logLevel: 'silent',
  });
  return r.metafile;
}

/** Every input reachable from `from` through static imports and require() calls. */
function closure(meta: Metafile, from: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path) || !meta.inputs[path]) return;
    seen.add(path);
    for (const i of meta.inputs[path].imports) if (!i.external && i.kind !== 'dynamic-import') visit(i.path);
  };
  for (const f of from) visit(f);
  return seen;
}

/** Only some commands use these. */
const HEAVY = [/node_modules\/ora\//, /node_modules\/cli-table3\//, /node_modules\/conf\//, /node_modules\/ajv\//, /^src\/sandbox\//, /^src\/completion\/(generate|bash|zsh|fish)\.ts$/, /^src\/docs\//, /^src\/commands\/gate\/(command|run|summary)\.ts$/, /^src\/gate\/reports\//, /^src\/output\/table\.ts$/, /^src\/output\/chart\.ts$/, /^src\/listing\/(paginate|pager)\.ts$/, /^src\/commands\/builtin\//, /^src\/scans\/wait\.ts$/];

describe('what a command evaluates, from the import graph', () => {
  let meta: Metafile;
  beforeAll(async () => { meta = await importGraph(); });

  it('every invocation: no zod, undici or any of the heavy parts', () => {
    const files = [...closure(meta, ['src/entry.ts'])];
    expect(files).toContain('src/cli.ts');
    for (const f of files) {
      expect(f, `${f} is evaluated by every invocation`).not.toMatch(/node_modules\/(zod|undici)\//);
      for (const h of HEAVY) expect(f, `${f} is evaluated by every invocation`).not.toMatch(h);
    }
  });

  it("`svc gate --help`: the gate's options (and its report table), not its run: no yaml policies, no picomatch", () => {
    const files = [...closure(meta, ['src/entry.ts', 'src/commands/gate/command.ts'])];
    expect(files).toContain('src/gate/reports/registry.ts');
    for (const f of files) expect(f, `${f} is evaluated by svc gate --help`).not.toMatch(/node_modules\/(yaml|picomatch)\/|^src\/gate\/policy-file\.ts$|^src\/commands\/gate\/run\.ts$/);
  });

  it('an API call with JSON output: zod and undici, but none of the heavy parts', () => {
    const files = [...closure(meta, ['src/entry.ts', 'src/commands/operation/command.ts', 'src/operations/issues.ts', 'src/commands/operation/run.ts', 'src/http/client.ts'])];
    expect(files.some((f) => f.includes('node_modules/undici/lib/dispatcher/agent.js'))).toBe(true);
    expect(files.some((f) => f.includes('node_modules/zod/'))).toBe(true);
    for (const f of files) for (const h of HEAVY) expect(f, `${f} is evaluated by an API call`).not.toMatch(h);
    // undici's index (fetch, WebSocket, caches, mocks) is not; its parts are required one by one.
    expect(files).not.toContain('node_modules/undici/index.js');
  });

  it('a table of any command: its renderers, but the charts only for the stats views that draw them', () => {
    const files = [...closure(meta, ['src/entry.ts', 'src/output/table.ts', 'src/output/detail.ts', 'src/operations/issues.ts'])];
    expect(files).toContain('src/output/detail.ts');
    expect(files).not.toContain('src/output/chart.ts');
    const importers = Object.entries(meta.inputs).filter(([, i]) => i.imports.some((d) => d.path === 'src/output/chart.ts'));
    expect(importers.map(([f, i]) => [f, i.imports.find((d) => d.path === 'src/output/chart.ts')!.kind])).toEqual([['src/output/render.ts', 'dynamic-import']]);
  });

  it('zod only by name, through src/operations/zod.ts: none of its message locales in the bundle', () => {
    // A namespace of zod that escapes (`import('zod/mini')`) keeps all of it, ~260 KB of locales too.
    const kept = Object.values(meta.outputs).flatMap((o) => Object.entries(o.inputs))
      .filter(([f, { bytesInOutput }]) => f.includes('node_modules/zod/') && f.includes('/locales/') && bytesInOutput > 0);
    expect(kept.map(([f]) => f)).toEqual([]);
    const importers = Object.entries(meta.inputs).filter(([f, i]) => f.startsWith('src/') && i.imports.some((d) => /node_modules\/zod\//.test(d.path))).map(([f]) => f);
    expect(importers).toEqual(['src/operations/zod.ts']);
  });
});

describe('imports that cost every call', () => {
  it("node's built-ins by name: `import * as fs from 'node:fs'` copies every export, getter by getter, at start-up", () => {
    // (esbuild's __toESM of a module outside the bundle: ~100 getters for node:fs, in each module that
    // imports it so; by name, esbuild reads the export where it is used.)
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const n of readdirSync(dir, { withFileTypes: true })) {
        const p = join(dir, n.name);
        if (n.isDirectory()) walk(p);
        else if (/\.ts$/.test(n.name) && /^import (\* as \w+|\w+)(, \{[^}]*\})? from 'node:/m.test(readFileSync(p, 'utf8'))) offenders.push(p.slice(ROOT.length + 1));
      }
    };
    walk(join(ROOT, 'src'));
    expect(offenders, 'import what they use by name').toEqual([]);
  });
});

describe('what dist/svc.cjs holds: the code an API call runs (scripts/bundle-chunks.mjs)', () => {
  /** Never run by a plain call: the built-ins (sandbox, completion, auth, config, api), the gate, triage, tables, charts, the --all and bulk engines. */
  const NOT_IN_A_CALL = [/^src\/sandbox\//, /^src\/gate\//, /^src\/commands\/gate\//, /^src\/commands\/triage\//, /^src\/commands\/builtin\//, /^src\/completion\/(generate|bash|zsh|fish)\.ts$/,
    /^src\/output\/(table|chart|detail)\.ts$/, /^src\/listing\/(paginate|pager|bulk)/, /node_modules\/(ora|cli-table3|conf|ajv|yaml|picomatch)\//];
  let split: { main: Metafile; more: Metafile };
  beforeAll(async () => {
    // (By path: the build's scripts are JavaScript, outside the type check.)
    const { buildChunks } = await import(join(ROOT, 'scripts/bundle-chunks.mjs')) as { buildChunks: (root: string, options: object, o: { write: boolean }) => Promise<{ main: Metafile; more: Metafile }> };
    const { plugins } = await import(join(ROOT, 'scripts/bundle-plugins.mjs')) as { plugins: unknown[] };
    split = await buildChunks(ROOT, {
      outfile: 'dist/svc.cjs', bundle: true, format: 'cjs', platform: 'node', target: 'node20', plugins, external: ['jq-wasm'],
      banner: { js: '(function (module, exports, require, __svcMore) {' }, footer: { js: '})' }, logLevel: 'silent',
    }, { write: false });
  });
  const inputs = (m: Metafile) => Object.keys(m.inputs).filter((p) => !/^svc-(main|more|entry):/.test(p) && !p.startsWith('svc-'));

  it('none of the code a plain call never runs: that is in dist/svc-more.cjs', () => {
    const main = inputs(split.main);
    expect(main).toContain('src/http/client.ts');
    expect(main).toContain('src/operations/issues.ts');
    for (const f of main) for (const n of NOT_IN_A_CALL) expect(f, `${f} is in dist/svc.cjs`).not.toMatch(n);
    const more = inputs(split.more);
    for (const n of NOT_IN_A_CALL.slice(0, 7)) expect(more.some((f) => n.test(f)), `nothing of ${n} in dist/svc-more.cjs`).toBe(true);
  });

  it('each module in one script only: the second takes the first\'s from it', () => {
    const main = new Set(inputs(split.main));
    expect(inputs(split.more).filter((f) => main.has(f))).toEqual([]);
    // commander and zod exist once: the second script's commands are of the first's classes.
    expect(inputs(split.more).filter((f) => /node_modules\/(commander|zod|undici)\//.test(f))).toEqual([]);
  });
});

describe('what a command loads, at run time', () => {
  let server: FakeServer;
  let dir: string;
  beforeAll(async () => {
    server = await startFakeServer({ fallback: { json: { issues: [{ id: 'iss_1', score: 9 }], totalCount: 1 } } });
    dir = tempDir('svc-guard-');
    // Records which node built-ins the process loaded after start-up and what V8 did with the code cache.
    writeFileSync(join(dir, 'record.cjs'), `
      const fs = require('node:fs');
      const vm = require('node:vm');
      const before = new Set(process.moduleLoadList);
      const seen = { scripts: [] };
      const Script = vm.Script;
      vm.Script = class extends Script {
        constructor(source, options) {
          super(source, options);
          seen.scripts.push({ file: options && options.filename, cache: !options || !options.cachedData ? 'none' : this.cachedDataRejected ? 'rejected' : 'accepted' });
        }
      };
      // V8 flags set at run time, each with the built-ins loaded before it.
      // (node:v8 wrapped when the CLI requires it: this preload must not load it for --version.)
      seen.flags = [];
      const Module = require('node:module');
      const load = Module.prototype.require;
      Module.prototype.require = function (id) {
        const m = load.apply(this, arguments);
        if ((id === 'node:v8' || id === 'v8') && !m.setFlagsFromString.wrapped) {
          const setFlags = m.setFlagsFromString;
          m.setFlagsFromString = Object.assign((flag) => { seen.flags.push({ flag, loaded: process.moduleLoadList.length }); return setFlags(flag); }, { wrapped: true });
        }
        return m;
      };
      process.on('exit', () => {
        const native = (list) => list.filter((m) => !before.has(m) && m.startsWith('NativeModule ')).map((m) => m.slice(13));
        seen.builtins = native(process.moduleLoadList);
        for (const f of seen.flags) f.after = native(process.moduleLoadList.slice(f.loaded));
        fs.writeFileSync(${JSON.stringify(join(dir, 'seen.json'))}, JSON.stringify(seen));
      });
    `);
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function run(args: string[], nodeArgs: string[] = []): Promise<{ stdout: string; seen: { scripts: { file: string; cache: string }[]; builtins: string[]; flags: { flag: string; after: string[] }[] } }> {
    const { stdout } = await promisify(execFile)(process.execPath, [...nodeArgs, BIN, ...args], {
      // (A cache for other V8 flags goes to this test's folder, not the user's.)
      env: cleanEnv({ NODE_OPTIONS: `--require ${join(dir, 'record.cjs')}`, XDG_CACHE_HOME: join(dir, 'cache'), SVC_BASE_URL: server.url, SVC_API_TOKEN_ID: 'id-1', SVC_API_TOKEN_SECRET: 'secret-1' }),
      encoding: 'utf8',
    });
    return { stdout, seen: JSON.parse(readFileSync(join(dir, 'seen.json'), 'utf8')) };
  }

  it('an API call compiles the CLI from its code cache and loads no built-in it does not use', async () => {
    const r = await run(['issues', 'search', '-o', 'json']);
    expect(JSON.parse(r.stdout).totalCount).toBe(1);
    // dist/svc.cjs only: the rest of the CLI (dist/svc-more.cjs) is neither read nor compiled.
    expect(r.seen.scripts).toEqual([{ file: join(ROOT, 'dist/svc.cjs'), cache: 'accepted' }]);
    expect(r.seen.builtins).toContain('net');
    for (const unused of ['http', 'http2', 'assert', 'tls', 'crypto', 'child_process', 'readline', 'fs/promises', 'perf_hooks', 'zlib', 'worker_threads', 'dns', 'os', 'tty']) {
      expect(r.seen.builtins, `node:${unused} was loaded`).not.toContain(unused);
    }
  });

  it('a table compiles the second script from its own code cache too', async () => {
    const r = await run(['issues', 'search', '-o', 'table']);
    expect(r.stdout).toMatch(/^ID +[A-Z]/);
    expect(r.seen.scripts).toEqual([{ file: join(ROOT, 'dist/svc.cjs'), cache: 'accepted' }, { file: join(ROOT, 'dist/svc-more.cjs'), cache: 'accepted' }]);
  });

  it('undici still takes the header limit from --max-http-header-size without loading node:http up front', async () => {
    server.stub('/api/v1/orgs/list', { json: [], headers: { 'x-padding': 'p'.repeat(3000) } });
    const args = [BIN, 'orgs', 'list', '-o', 'json', '--retries', '0'];
    const env = (nodeOptions?: string) => cleanEnv({ NODE_OPTIONS: nodeOptions, SVC_BASE_URL: server.url, SVC_API_TOKEN_ID: 'id-1', SVC_API_TOKEN_SECRET: 'secret-1' });
    const ok = await promisify(execFile)(process.execPath, args, { env: env(), encoding: 'utf8' });
    expect(JSON.parse(ok.stdout)).toEqual([]);
    const small = await promisify(execFile)(process.execPath, args, { env: env('--max-http-header-size=1024'), encoding: 'utf8' }).then(() => undefined, (e: { code: number; stderr: string }) => e);
    expect(small?.code).toBe(6);
  });

  it("node's built-ins come from node's own code cache: --liftoff-only is set only when undici compiles its parser, after them", async () => {
    // V8 stamps what it compiles with a hash of its flags: a built-in loaded after a flag is set is
    // compiled from source instead of from the cache node carries for it (~15 M more instructions of a ~240 M call).
    const r = await run(['issues', 'search', '-o', 'json']);
    expect(JSON.parse(r.stdout).totalCount).toBe(1);
    expect(r.seen.flags.map((f) => f.flag)).toEqual(['--liftoff-only']);
    expect(r.seen.flags[0].after, 'built-ins loaded after --liftoff-only was set').toEqual([]);
    expect(r.seen.builtins).toContain('net');
    // A call that sends nothing compiles no parser and sets no flag.
    expect((await run(['issues', 'search', '-o', 'json', '--dry-run'])).seen.flags).toEqual([]);
  });

  it("sets no wasm flag where the user gave one on node's command line: theirs win", async () => {
    // (node refuses these in NODE_OPTIONS.)
    // (V8 reads `_` for `-`: a flag spelt either way is the user's.)
    for (const flag of ['--liftoff-only', '--no-wasm-tier-up', '--liftoff_only', '--no_wasm_dynamic_tiering']) {
      const r = await run(['issues', 'search', '-o', 'json'], [flag]);
      expect(JSON.parse(r.stdout).totalCount).toBe(1);
      expect(r.seen.flags, `with ${flag}`).toEqual([]);
    }
  });

  it('--version and top-level help do not load the CLI', async () => {
    for (const args of [['--version'], ['--help']]) {
      const r = await run(args);
      expect(r.stdout.length).toBeGreaterThan(0);
      expect(r.seen.scripts).toEqual([]);
      for (const unused of ['http', 'v8']) expect(r.seen.builtins, `${args[0]} loaded node:${unused}`).not.toContain(unused);
    }
  });
});
