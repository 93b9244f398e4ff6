/**
 * The completion model flattened into the lookup tables every shell script carries: children of a
 * command path, its flags, what each flag's value is, what its arguments are. Paths are the canonical
 * command names joined by spaces ('' is the root).
 */
import type { ValueHint } from './hints.js';
import { allCommands, type CompletionModel, type FlagModel } from './tree.js';

export interface Candidate { word: string; description: string }

export interface Tables {
  /** Paths in tree order. */
  paths: string[];
  /** path -> subcommand names and aliases. */
  commands: Map<string, Candidate[]>;
  /** `${path}\0${word}` -> child path (names and aliases). */
  children: Array<{ path: string; word: string; child: string }>;
  /** path -> its own flags (not the globals). */
  flags: Map<string, Candidate[]>;
  globals: Candidate[];
  /** Value spec of each global flag that takes a value. */
  globalValues: Array<{ flag: string; spec: string }>;
  /**
   * Value spec of each command flag that takes a value. A flag whose value is the same wherever it
   * appears (and that never appears without a value) has one row with path '*'; those rows come last.
   */
  values: Array<{ path: string; flag: string; spec: string }>;
  /** Value spec of positional arguments; `index` -1 is "any further" (variadic). */
  args: Array<{ path: string; index: number; spec: string }>;
  /** Path of the command whose argument is a help topic or command path (`help`). */
  helpPath?: string;
  topics: Candidate[];
}

/** Words a shell can offer as they are: no white space, no quotes. */
const plain = (w: string) => /^[^\s'"\\`$]+$/.test(w);

/** `choice:a b c`, `list:a b c`, `file`, `profile`, `at-file`, `any`, `help`. */
function valueSpec(v: ValueHint): string {
  if (v.kind === 'choice') return `${v.list ? 'list' : 'choice'}:${v.values.filter(plain).join(' ')}`;
  return v.kind;
}

function flagCandidates(flags: FlagModel[]): Candidate[] {
  return flags.flatMap((f) => f.names.map((n) => ({ word: n, description: f.description })));
}

export function buildTables(model: CompletionModel): Tables {
  const t: Tables = {
    paths: [], commands: new Map(), children: [], flags: new Map(), values: [], args: [],
    globals: flagCandidates(model.globals),
    globalValues: model.globals.flatMap((f) => (f.value ? f.names.map((flag) => ({ flag, spec: valueSpec(f.value!) })) : [])),
    topics: model.topics.map((x) => ({ word: x.name, description: x.summary })),
  };
  const globalNames = new Set(model.globals.flatMap((f) => f.names));
  const valueless = new Set<string>();
  for (const cmd of allCommands(model)) {
    const path = cmd.path.join(' ');
    t.paths.push(path);
    t.commands.set(path, cmd.commands.flatMap((c) => [c.name, ...c.aliases].map((word) => ({ word, description: c.description }))));
    for (const c of cmd.commands) {
      for (const word of [c.name, ...c.aliases]) t.children.push({ path, word, child: c.path.join(' ') });
    }
    const own = path === '' ? cmd.flags.filter((f) => !f.names.some((n) => globalNames.has(n))) : cmd.flags;
    t.flags.set(path, flagCandidates(own));
    for (const f of own) {
      for (const flag of [...f.names, ...(f.aliases ?? [])]) {
        if (f.value) t.values.push({ path, flag, spec: valueSpec(f.value) });
        else valueless.add(flag);
      }
    }
    cmd.args.forEach((a, index) => {
      if (a.kind === 'help') t.helpPath = path;
      else if (a.kind !== 'any') t.args.push({ path, index, spec: valueSpec(a) });
    });
    const last = cmd.args.at(-1);
    if (cmd.variadic && last && last.kind !== 'any' && last.kind !== 'help') t.args.push({ path, index: -1, spec: valueSpec(last) });
  }
  t.values = shareUniform(t.values, valueless);
  return t;
}

function shareUniform(rows: Tables['values'], valueless: Set<string>): Tables['values'] {
  const specs = new Map<string, Set<string>>();
  for (const r of rows) specs.set(r.flag, (specs.get(r.flag) ?? new Set()).add(r.spec));
  const shared = (flag: string) => specs.get(flag)!.size === 1 && !valueless.has(flag);
  const own = rows.filter((r) => !shared(r.flag));
  const common = [...specs.keys()].filter(shared).map((flag) => ({ path: '*', flag, spec: [...specs.get(flag)!][0] }));
  return [...own, ...common];
}

/** A case pattern for `<path>/<word>` keys: quoted, except a leading `*` path or a trailing `*` word. */
export function casePattern(key: string): string {
  if (key.startsWith('*/')) return `*${sq(key.slice(1))}`;
  if (key.endsWith('/*')) return `${sq(key.slice(0, -1))}*`;
  return sq(key);
}

/** A single-quoted word that bash, zsh and fish all read back unchanged. */
export function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** Rows with the same body folded into one case with several patterns. */
export function groupBy(rows: Array<[string, string]>): Array<[string[], string]> {
  const byBody = new Map<string, string[]>();
  for (const [pattern, body] of rows) byBody.set(body, [...(byBody.get(body) ?? []), pattern]);
  return [...byBody].map(([body, patterns]) => [patterns, body]);
}
