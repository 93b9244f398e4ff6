/**
 * What a flag's or argument's value is, for completion, when commander cannot tell by itself.
 * Commander knows enum choices (`.choices()`); lists of choices, file paths and profile names are
 * marked here. The mark is a global symbol on the commander object, so any module can set it
 * without importing the completion code.
 */
export type ValueHint =
  /** A free value: nothing to offer. */
  | { kind: 'any' }
  /** A path on disk. */
  | { kind: 'file' }
  /** A profile name from the config file, read when TAB is pressed. */
  | { kind: 'profile' }
  /** A value where `@path` reads a file: `-F key=@body.json`, `--repos @repos.json`. */
  | { kind: 'at-file' }
  /** One of `values`; with `list`, a comma-separated list of them. */
  | { kind: 'choice'; values: readonly string[]; list?: boolean }
  /** `svc help`: a help topic or a command path. */
  | { kind: 'help'; topics: ReadonlyArray<{ name: string; summary: string }> };

const HINT = Symbol.for('svc.completion.hint');

/** Mark a commander Option or Argument with what its value is. Returns the target. */
export function hint<T extends object>(target: T, value: ValueHint): T {
  (target as Record<symbol, unknown>)[HINT] = value;
  return target;
}

export function hintOf(target: object): ValueHint | undefined {
  return (target as Record<symbol, unknown>)[HINT] as ValueHint | undefined;
}

const ALIASES = Symbol.for('svc.completion.aliases');

/** Mark a commander Option with the other long names it answers to (hidden alias options). */
export function markAliases<T extends object>(target: T, names: readonly string[]): T {
  (target as Record<symbol, unknown>)[ALIASES] = names;
  return target;
}

export function aliasesOf(target: object): readonly string[] {
  return ((target as Record<symbol, unknown>)[ALIASES] as readonly string[] | undefined) ?? [];
}
