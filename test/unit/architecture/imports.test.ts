/**
 * The shape of src/, from its imports (static, dynamic and type-only alike): no import circles, and
 * the arrows run one way, down the layers of LAYERS (each folder's place; docs/development.md draws
 * them): a unit imports only units of lower layers, never one of its own layer or above it.
 * Run alone: npx vitest run test/unit/architecture
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.c?ts$/.test(n) && !n.endsWith('.d.cts') ? [p] : [];
  });
}

/** src-relative file -> the src-relative files it imports. */
export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const targets = new Set<string>();
    for (const m of text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"](\.\.?\/[^'"]+)['"]/g)) {
      targets.add(relative(SRC, resolve(dirname(file), m[1])).replace(/\.js$/, '.ts').replace(/\.cjs$/, '.cts'));
    }
    graph.set(relative(SRC, file), [...targets]);
  }
  return graph;
}

/** Every import circle, each as the path that closes it (a -> b -> ... -> a). */
export function circles(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    path.push(f);
    for (const t of graph.get(f) ?? []) {
      if (!graph.has(t)) continue;
      if (state.get(t) === 'open') found.push([...path.slice(path.indexOf(t)), t].join(' -> '));
      else if (!state.has(t)) visit(t);
    }
    path.pop();
    state.set(f, 'done');
  };
  for (const f of [...graph.keys()].sort()) if (!state.has(f)) visit(f);
  return found;
}

/**
 * The layers of src/, top to bottom: a unit (a folder, or a file at the root of src/) imports only
 * units of layers below its own (core/, the ground floor: what every layer uses, the text cleaning of
 * every printer, the error classes, the exit codes; it imports nothing of svc). The gate's command is part of commands/. A new folder needs its line here (the test says so) and in docs/development.md.
 */
export const LAYERS: readonly (readonly string[])[] = [
  ['entry.ts'], //                              the process: builds the Host, calls main()
  ['cli.ts', 'docs/'], //                       main(argv, host); build-time generation of docs and completions
  ['commands/'], //                             commander wiring, operation commands, built-ins, the gate command
  ['runtime.ts'], //                            createContext: the Context a run step gets
  ['listing/', 'scans/', 'sandbox/'], //        --all engine, --wait, the local emulator
  ['request/', 'gate/', 'repos/'], //           the request kit (row -> body); the gate's pure domain; repositories by URL
  ['context.ts'], //                            the Context type
  ['terminal/', 'completion/'], //              spinner and prompts; completion scripts
  ['ci/', 'git/'], //                           CI detection (the providers table), step summaries, repository URLs, pull requests; git as a child process
  ['output/'], //                               renderers, printing a response, report files
  ['config/'], //                               profiles, credentials, base URL
  ['http/'], //                                 the undici client, errors, retries
  ['answers/'], //                              what svc checks in an answer: the one table of checks, the run's doubts
  ['operations/'], //                           the operation table
  ['core/'], //                                 the ground floor: Host/IO/Env, the global flags, error classes, exit codes, text cleaning, the one "did you mean" distance; imports nothing of svc
];

/**
 * Arrows that run against the layers today, each with the reason; the test fails on any other, and
 * on one of these that is gone (so the list only shrinks).
 */
const AGAINST: ReadonlyMap<string, string> = new Map<string, string>([]);

/** The unit of a src-relative file: its top folder, else the file. */
export function unitOf(file: string): string {
  const slash = file.indexOf('/');
  return slash < 0 ? file : file.slice(0, slash + 1);
}

function layerOf(unit: string): number {
  return LAYERS.findIndex((l) => l.includes(unit));
}

/** File-level arrows that do not run down the layers: `file -> target (unit layer -> unit layer)`. */
export function againstLayers(graph: Map<string, string[]>): string[] {
  const out: string[] = [];
  for (const [f, ts] of graph) {
    for (const t of ts) {
      const [a, b] = [unitOf(f), unitOf(t)];
      if (a === b) continue;
      if (layerOf(b) <= layerOf(a)) out.push(`${f} -> ${t}`);
    }
  }
  return out.sort();
}

/** The graph between units (folders), for the circles check. */
export function unitGraph(graph: Map<string, string[]>, skip: ReadonlyMap<string, string> = new Map()): Map<string, string[]> {
  const units = new Map<string, Set<string>>();
  for (const [f, ts] of graph) {
    const a = unitOf(f);
    if (!units.has(a)) units.set(a, new Set());
    for (const t of ts) if (unitOf(t) !== a && !skip.has(`${f} -> ${t}`)) units.get(a)!.add(unitOf(t));
  }
  return new Map([...units].map(([u, ts]) => [u, [...ts]]));
}

describe('import structure of src/', () => {
  const graph = importGraph();

  it('reads the imports it checks', () => {
    expect(graph.get('cli.ts')).toContain('commands/program.ts');
    expect(graph.get('commands/operation/run.ts')).toContain('listing/paginate.ts');
  });

  it('has no import circle', () => {
    expect(circles(graph)).toEqual([]);
  });

  it('finds a circle when there is one (the check can fail)', () => {
    const g = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']], ['d.ts', ['a.ts']]]);
    expect(circles(g)).toEqual(['a.ts -> b.ts -> c.ts -> a.ts']);
  });

  it('has no circle between folders (but for the arrows of AGAINST)', () => {
    expect(circles(unitGraph(graph, AGAINST))).toEqual([]);
  });

  it('places every folder and root file of src/ in a layer', () => {
    const units = new Set([...graph.keys()].map(unitOf));
    expect([...units].filter((u) => layerOf(u) < 0), 'add it to LAYERS (and docs/development.md)').toEqual([]);
    expect(LAYERS.flat().filter((u) => !units.has(u)), 'a unit LAYERS names that src/ no longer has').toEqual([]);
  });

  it('arrows run down the layers: commands -> request/gate/listing -> ... -> operations, http, output, ...', () => {
    const found = againstLayers(graph);
    expect(found.filter((a) => !AGAINST.has(a)), 'an import against the layers of LAYERS').toEqual([]);
    expect([...AGAINST.keys()].filter((a) => !found.includes(a)), 'gone: remove it from AGAINST').toEqual([]);
  });

  it('http, output, terminal, config and ci do not import the whole Context (each takes the narrow one it uses)', () => {
    const out = [...graph].filter(([f]) => ['http/', 'output/', 'terminal/', 'config/', 'ci/'].includes(unitOf(f)))
      .flatMap(([f, ts]) => ts.filter((t) => t === 'context.ts').map((t) => `${f} -> ${t}`));
    expect(out).toEqual([]);
  });

  it('finds an arrow against the layers, and a circle between folders (the checks can fail)', () => {
    const g = new Map([['http/client.ts', ['commands/program.ts']], ['commands/program.ts', ['http/client.ts']], ['gate/verdict.ts', ['request/build.ts']]]);
    expect(againstLayers(g)).toEqual(['gate/verdict.ts -> request/build.ts', 'http/client.ts -> commands/program.ts']);
    expect(circles(unitGraph(g))).toEqual(['commands/ -> http/ -> commands/']);
  });

  it('the operation table imports nothing but itself (and the one edit distance, a leaf of its own)', () => {
    const out = [...graph].filter(([f]) => f.startsWith('operations/')).flatMap(([f, ts]) => ts.filter((t) => !t.startsWith('operations/') && t !== 'core/edit-distance.ts').map((t) => `${f} -> ${t}`));
    expect(out).toEqual([]);
  });

  it("the gate's domain (src/gate/) imports only itself, the operation table and the ground floor (core/)", () => {
    const out = [...graph].filter(([f]) => f.startsWith('gate/'))
      .flatMap(([f, ts]) => ts.filter((t) => !t.startsWith('gate/') && !t.startsWith('operations/') && !t.startsWith('core/')).map((t) => `${f} -> ${t}`));
    expect(out).toEqual([]);
  });

  it('nothing below the commands imports them (the request kit, listing, scans, output, ... stand below)', () => {
    const up = [...graph]
      .filter(([f]) => !['commands/', 'cli.ts', 'docs/'].some((a) => f.startsWith(a)))
      .flatMap(([f, ts]) => ts.filter((t) => t.startsWith('commands/')).map((t) => `${f} -> ${t}`));
    expect(up).toEqual([]);
  });
});
