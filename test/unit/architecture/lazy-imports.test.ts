/**
 * Lazy loading stays at the edges. dist/svc.cjs is one script compiled from a V8 code cache, so a
 * dynamic `import()` saves start-up time only where the module it loads is costly to evaluate (zod
 * schemas built at load, heavy libraries, node built-ins) or is a command the call does not name.
 * Only the files below may contain `import(`, each for the reason given; anywhere else, import
 * statically. A new edge needs a line here and a measurement (npm run bench).
 * Run alone: npx vitest run test/unit/architecture/lazy-imports.test.ts
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sourceScan } from '../../helpers/source-scan.js';

/** The lazy edges of src/: file -> what its `import()` keeps out of a call that does not need it. */
const EDGES = new Map<string, string>([
  ['src/commands/program.ts', 'groups, built-ins and operation commands: a call evaluates only the one it names'],
  ['src/cli.ts', "svc's wording of commander's errors with its suggestions (commands/suggest.ts), only when commander reports one"],
  ['src/operations/index.ts', "one module per group: its zod schemas are built only when a command of the group runs"],
  ['src/commands/operation/run.ts', 'the --all engine, the --wait step and the local filters (with the gate levels and dates), only when their flags are given'],
  ['src/commands/gate/command.ts', "the gate's run (yaml policies, baseline, reports), not for `svc gate --help`"],
  ['src/commands/triage/command.ts', "the triage loop with its pager (node:child_process), only when svc issues triage runs (every issues command lists its stand-in)"],
  ['src/runtime.ts', 'undici and the HTTP client, on the first request (not for help, --dry-run, config)'],
  ['src/http/connect.ts', 'node:dns, only for a plain-http host name such as localhost'],
  ['src/http/client.ts', "the patterns of a token secret's JSON forms (core/json-escapes.ts), only for an answer that may echo it escaped"],
  ['src/config/store.ts', 'conf (with ajv) and zod/mini (through operations/profile-schema.ts), only when a config file is read or written'],
  ['src/output/render.ts', 'cli-table3, chalk and detail views, only for the table format; the charts, only for the stats views that draw them'],
  ['src/output/jq.ts', 'jq-wasm (WebAssembly), only for --jq'],
  ['src/terminal/progress.ts', 'ora, only when a spinner is shown on a terminal'],
  ['src/terminal/confirm.ts', 'node:readline, only when there is a question to ask'],
]);

describe('lazy import() only at the edges', () => {
  // The dynamic `import()` calls of each file of src/ (code only: not comments, strings or `typeof
  // import()` types), read by test/helpers/source-scan.ts (TypeScript's parser, once per run).
  let found: Map<string, string[]>;
  beforeAll(async () => { found = new Map((await sourceScan()).lazyImports); });

  it('reads the import() calls it checks', () => {
    expect(found.get('src/operations/index.ts')?.length).toBeGreaterThan(0);
  });

  it('no file outside the edges has an import()', () => {
    const outside = [...found].filter(([f]) => !EDGES.has(f)).map(([f, calls]) => `${f} (${calls.join('; ')})`);
    expect(outside, 'import statically, or add the file to EDGES with what it saves (and measure it)').toEqual([]);
  });

  it('every edge listed still loads something lazily', () => {
    expect([...EDGES.keys()].filter((f) => !found.has(f))).toEqual([]);
  });

  it('an import() in a type position or a comment is not one', () => {
    const jq = found.get('src/output/jq.ts') ?? [];
    expect(jq.every((c) => !c.includes('typeof import'))).toBe(true);
  });
});
