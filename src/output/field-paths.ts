/** Dot paths into records (`issueCounts.open`), used by columns and row selection. */
import { levelOf, numericScore } from '../operations/levels.js';

/**
 * Fields svc computes for a record that has what they come from: `level`, the level of `score`
 * (the gate's default cut-offs). A field the record itself has always wins.
 */
export const DERIVED: Readonly<Record<string, { from: string; value: (record: Record<string, unknown>) => unknown }>> = {
  level: { from: 'score', value: (r) => (numericScore(r.score) === undefined ? undefined : levelOf(r.score)) },
};

export function getPath(value: unknown, path: string): unknown {
  const derived = DERIVED[path];
  if (derived && value !== null && typeof value === 'object' && !Array.isArray(value) && !(path in value)) return derived.value(value as Record<string, unknown>);
  let cur: unknown = value;
  for (const key of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/**
 * The value a table cell, a key/value line or a CSV cell shows at a path of leafPaths: getPath, else
 * through keys that hold a dot themselves (`{ "web.app": 4 }`, a map keyed by repository or file
 * name in an answer the spec does not show), which leafPaths joins with dots like any other; the
 * longest key first. Only for showing: what svc decides on (filters, scope, the gate) reads getPath,
 * so `{ "codeScan.id": ... }` never passes for a `codeScan.id`.
 */
export function shownAt(value: unknown, path: string): unknown {
  const found = getPath(value, path);
  return found === undefined && path.includes('.') ? dottedKeys(value, path.split('.')) : found;
}

/**
 * The keys a path of leafPaths stands for in `value` (`acme/web.app.hours` -> `acme/web.app`,
 * `hours`), each with the record that holds it; undefined where the path is not there.
 */
export function keysAt(value: unknown, path: string): Array<{ key: string; holder: Record<string, unknown> }> | undefined {
  const walk = (at: unknown, keys: readonly string[]): Array<{ key: string; holder: Record<string, unknown> }> | undefined => {
    if (keys.length === 0) return [];
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return undefined;
    for (let n = 1; n <= keys.length; n++) {
      const key = keys.slice(0, n).join('.');
      if (!Object.hasOwn(at, key)) continue;
      const rest = walk((at as Record<string, unknown>)[key], keys.slice(n));
      if (rest) return [{ key, holder: at as Record<string, unknown> }, ...rest];
    }
    return undefined;
  };
  return walk(value, path.split('.'));
}

function dottedKeys(value: unknown, keys: readonly string[]): unknown {
  if (keys.length === 0) return value;
  if (value === null || typeof value !== 'object') return undefined;
  for (let n = keys.length; n >= 1; n--) {
    const key = keys.slice(0, n).join('.');
    if (!Object.hasOwn(value, key)) continue;
    const found = dottedKeys((value as Record<string, unknown>)[key], keys.slice(n));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Leaf paths of an object's scalar values (arrays count as leaves), depth first. */
export function leafPaths(value: unknown, prefix = ''): string[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return prefix ? [prefix] : [];
  const out: string[] = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const p = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) out.push(...leafPaths(v, p));
    else out.push(p);
  }
  return out;
}

export function scalarText(v: unknown): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null)) return v.join(',');
  return JSON.stringify(v);
}

/** A row cut down to the given dot paths, nesting kept (`issueCounts.open` -> `{issueCounts: {open}}`); a missing value is null. */
export function projectRow(row: unknown, paths: readonly string[]): unknown {
  if (row === null || typeof row !== 'object' || Array.isArray(row)) return row;
  const out: Record<string, unknown> = {};
  for (const path of paths) {
    const keys = path.split('.');
    let at = out;
    for (const k of keys.slice(0, -1)) {
      const next = at[k];
      at = (at[k] = next !== null && typeof next === 'object' ? next : {}) as Record<string, unknown>;
    }
    at[keys[keys.length - 1]] = getPath(row, path) ?? null;
  }
  return out;
}
