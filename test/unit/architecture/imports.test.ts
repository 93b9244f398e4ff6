/**
 * The shape of src/, from its imports (static, dynamic and type-only alike): no import circles, and
 * the arrows run one way, from the commands down to the table, the HTTP layer and the renderers.
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

/** Folders (or files) below the commands, with what none of them may import. */
const LOWER = ['operations/', 'http/', 'output/', 'config/', 'terminal/', 'completion/', 'host.ts', 'context.ts', 'errors.ts', 'exit-codes.ts'];
const UPPER = ['commands/', 'gate/', 'listing/', 'request/', 'scans/', 'sandbox/', 'docs/', 'cli.ts', 'entry.ts', 'runtime.ts'];
/** Lower parts that do reach up, and why. */
const ALLOWED_UP = new Set<string>([]);
/** Who may import src/commands/: the program above it and the build-time room (docs/). */
const ABOVE_COMMANDS = ['commands/', 'cli.ts', 'docs/'];

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

  it('the operation table imports nothing but itself', () => {
    const out = [...graph].filter(([f]) => f.startsWith('operations/')).flatMap(([f, ts]) => ts.filter((t) => !t.startsWith('operations/')).map((t) => `${f} -> ${t}`));
    expect(out).toEqual([]);
  });

  it('arrows run one way: the table, HTTP, output, config, terminal and completion import no command, gate, listing or sandbox', () => {
    const up = [...graph]
      .filter(([f]) => LOWER.some((l) => f.startsWith(l)) && !ALLOWED_UP.has(f))
      .flatMap(([f, ts]) => ts.filter((t) => UPPER.some((u) => t.startsWith(u))).map((t) => `${f} -> ${t}`));
    expect(up).toEqual([]);
  });

  it("the gate's domain (src/gate/) imports only itself, the operation table and output/sanitize", () => {
    const out = [...graph].filter(([f]) => f.startsWith('gate/'))
      .flatMap(([f, ts]) => ts.filter((t) => !t.startsWith('gate/') && !t.startsWith('operations/') && t !== 'output/sanitize.ts').map((t) => `${f} -> ${t}`));
    expect(out).toEqual([]);
  });

  it('nothing below the commands imports them (the request kit, listing, scans, output, ... stand below)', () => {
    const up = [...graph]
      .filter(([f]) => !ABOVE_COMMANDS.some((a) => f.startsWith(a)))
      .flatMap(([f, ts]) => ts.filter((t) => t.startsWith('commands/')).map((t) => `${f} -> ${t}`));
    expect(up).toEqual([]);
  });
});
