/**
 * Table columns for people: a human, unique header for each dot path (`issueCounts.open` -> OPEN),
 * and what kind of value it holds, which decides how it is shown and how it gives way when the
 * terminal is narrow: keys (ids, names) are never cut, titles shrink first.
 *
 * The one `--columns` parser lives here too (parseColumns), used by every command that takes it.
 */
import { UsageError } from '../core/errors.js';
import { editDistance } from '../core/edit-distance.js';
import { cellText } from '../core/sanitize.js';
import { DERIVED } from './field-paths.js';

export type ColumnKind = 'key' | 'title' | 'path' | 'text' | 'time' | 'score' | 'severity' | 'level' | 'status' | 'number' | 'flag';

export interface Column {
  path: string;
  header: string;
  kind: ColumnKind;
}

/**
 * Headers people read, for the fields the service returns (the last path segment when unlisted).
 * Made when a header is first needed: a JSON call has none, and a table of many keys costs
 * instructions to make the first time (~0.3 M, docs/performance.md).
 */
let headers: Record<string, string> | undefined;
const HEADERS = (): Record<string, string> => (headers ??= {
  id: 'ID', name: 'NAME', fullName: 'FULL NAME', url: 'URL', role: 'ROLE',
  defaultScanTargetBranch: 'BRANCH', scanTargetBranch: 'BRANCH', prTargetBranch: 'PR BRANCH',
  isPrScanningEnabled: 'PR SCANS', isPrScanSummaryEnabled: 'PR SUMMARY', showCheckStatus: 'CHECK STATUS',
  'issueCounts.open': 'OPEN', 'issueCounts.patched': 'PATCHED', 'issueCounts.falsePositive': 'FALSE POS.',
  'issueCounts.archived': 'ARCHIVED', 'issueCounts.processing': 'PROCESSING',
  generatedTitle: 'TITLE', title: 'TITLE', vulnClass: 'CLASS', vulnCategory: 'CATEGORY', cwes: 'CWE',
  repositoryName: 'REPOSITORY', repositoryId: 'REPOSITORY', repoId: 'REPOSITORY',
  affectedFile: 'FILE', startLine: 'LINE', codeScanType: 'TYPE', scanId: 'SCAN', patchId: 'PATCH',
  executionCriteriaCrontab: 'SCHEDULE', isEnabled: 'ENABLED', createdAt: 'CREATED', updatedAt: 'UPDATED',
  prAuthor: 'PR AUTHOR', prLink: 'PR', pullRequestStatus: 'PR STATUS', errorMessage: 'ERROR',
  criticalIssues: 'CRITICAL', highIssues: 'HIGH', mediumIssues: 'MEDIUM', lowIssues: 'LOW',
});

/** Fields that name a thing the user copies into the next command: never cut. */
const KEYS = new Set(['id', 'name', 'scanId', 'repositoryId', 'repoId', 'issueId', 'patchId', 'organizationId', 'projectId', 'repositoryName', 'fullName', 'value', 'prAuthor',
  // svc policy list: what an entry matches (`id iss_123`, `fingerprint svcfp1:...`), copied into `svc policy unignore`.
  'match']);
const TITLES = new Set(['generatedTitle', 'title', 'prTitle', 'description', 'generatedDescription', 'errorMessage', 'searchQuery', 'reason']);
/** File paths: cut from the left (`…/handler.ts`), so the file's name stays. */
const PATHS = new Set(['affectedFile', 'filePath', 'file', 'path']);
/** Columns that mean nothing without another (a line without its file): its path. */
const COMPANIONS: Record<string, string> = { startLine: 'affectedFile', endLine: 'affectedFile' };

/** The column a column needs beside it to mean anything (`startLine` -> `affectedFile`), if any. */
export function companionOf(path: string): string | undefined {
  return COMPANIONS[path];
}

/** `isPrScanningEnabled` -> `PR SCANNING ENABLED`: camel case to words. */
function words(segment: string): string {
  return segment.replace(/^is(?=[A-Z])/, '').replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').replace(/[_-]+/g, ' ').toUpperCase();
}

/** Last segments that say nothing of whose they are: nested, they keep their parent's words. */
const GENERIC = new Set(['id', 'name']);

/** A path's header: `hostARepository.id` is HOST A REPOSITORY ID (ID alone read as the row's own id). */
function headerOf(path: string): string {
  const segments = path.split('.');
  const last = segments.at(-1)!;
  if (HEADERS()[path] !== undefined) return HEADERS()[path];
  if (segments.length > 1 && GENERIC.has(last)) return segments.slice(-2).map(words).join(' ');
  return HEADERS()[last] ?? words(last);
}

export function kindOf(path: string): ColumnKind {
  const last = path.split('.').pop()!;
  if (KEYS.has(last) || /Id$/.test(last)) return 'key';
  if (TITLES.has(last)) return 'title';
  if (PATHS.has(last)) return 'path';
  if (/At$/.test(last)) return 'time';
  if (last === 'score') return 'score';
  if (last === 'severity') return 'severity';
  if (last === 'level') return 'level';
  if (last === 'status' || last === 'pullRequestStatus') return 'status';
  if (/^(is|has)[A-Z]/.test(last) || /Enabled$/.test(last) || last === 'finished' || last === 'ok') return 'flag';
  if (/^(startLine|endLine|total|count)$/i.test(last) || /Count(s)?$|Issues$/.test(last) || path.includes('Counts.')) return 'number';
  return 'text';
}

/** Columns for dot paths, each header unique: where two would read alike, the parent's words are added. */
export function columnsOf(paths: readonly string[]): Column[] {
  const cols = paths.map((path) => ({ path, header: headerOf(cellText(path)), kind: kindOf(path) }));
  for (let depth = 2; depth <= 8; depth++) {
    const seen = new Map<string, number>();
    for (const c of cols) seen.set(c.header, (seen.get(c.header) ?? 0) + 1);
    const clashing = cols.filter((c) => seen.get(c.header)! > 1);
    if (clashing.length === 0) break;
    for (const c of clashing) c.header = cellText(c.path).split('.').slice(-depth).map(words).join(' ');
  }
  // Still alike (the same path twice): number them.
  const count = new Map<string, number>();
  for (const c of cols) {
    const n = (count.get(c.header) ?? 0) + 1;
    count.set(c.header, n);
    if (n > 1) c.header = `${c.header} (${n})`;
  }
  return cols;
}

/**
 * `--columns id,issueCounts.open`: dot paths, comma-separated, spaces around them ignored. An empty
 * list or an empty name (`a,,b`) is a mistake, not "no columns".
 */
export function parseColumns(raw: string): string[] {
  const paths = raw.split(',').map((c) => c.trim());
  if (paths.every((p) => p === '')) throw new UsageError('--columns is empty', 'name the columns, e.g. --columns id,name');
  // A header as the table shows it may hold a space (`PR SCANS`); no part of a dot path may be blank
  // or start or end with one.
  const bad = paths.find((p) => p === '' || !/^[^.\s](?:[^.]*[^.\s])?(?:\.[^.\s](?:[^.]*[^.\s])?)*$/.test(p));
  if (bad !== undefined) throw new UsageError(`--columns has an invalid column '${bad}' in '${raw}'`, 'give comma-separated field paths or table headers, e.g. --columns id,issueCounts.open or --columns "name,pr scans"');
  return paths;
}

/** `PR SCANS`, `pr-scans`, `prScans` -> `prscans`: how a name given to --columns is compared. */
const squash = (name: string) => name.toLowerCase().replace(/[\s_-]+/g, '');

/**
 * The fields a row offers to --columns: the declared (or seen) paths, plus what svc derives from
 * them (`level` where there is a `score`).
 */
function offeredPaths(valid: readonly string[]): string[] {
  const derived = Object.entries(DERIVED).filter(([name, d]) => valid.includes(d.from) && !valid.includes(name)).map(([name]) => name);
  return [...valid, ...derived];
}

/** The name a person types for a column: its one-word header in lower case (`file`), else its path. */
export function nameOf(path: string, valid?: readonly string[]): string {
  const header = headerOf(path);
  if (/\s/.test(header) || header.toLowerCase() === path) return path;
  const name = header.toLowerCase();
  return !valid || resolveName(name, valid) === path ? name : path;
}

/**
 * One --columns name -> the dot path it means: the path itself, the path in any case, or a table
 * header (`file` -> affectedFile, `pr scans` -> isPrScanningEnabled); a header shared by several
 * fields means the least nested. Undefined when it names nothing.
 */
function resolveName(name: string, valid: readonly string[]): string | undefined {
  if (valid.includes(name)) return name;
  const open = valid.filter(isOpen).map((v) => v.slice(0, -1));
  if (open.some((o) => name.startsWith(o))) return name;
  const plain = valid.filter((v) => !isOpen(v));
  const byPath = plain.find((v) => v.toLowerCase() === name.toLowerCase());
  if (byPath) return byPath;
  const key = squash(name);
  // Several fields share the header (REPOSITORY: repositoryName, repositoryId): the least nested,
  // then the one people read (a name) over an id.
  const rank = (v: string) => v.split('.').length * 2 + (/Id$/.test(v) ? 1 : 0);
  const byHeader = plain.filter((v) => squash(headerOf(v)) === key).sort((a, b) => rank(a) - rank(b));
  return byHeader[0];
}

/**
 * Chosen columns -> the dot paths they mean, checked against the fields a row schema declares and
 * the fields the answer has (undefined: not known yet, taken as given). An unknown name is exit 2
 * with the nearest names and a short list of what exists; with `unknownOk` (before a read's answer
 * is known: any field it brings may be named) it is kept as given, to be checked on the answer.
 * `defaults`: the command's default columns, named first in that list.
 */
export function resolveColumns(names: readonly string[], valid: readonly string[] | undefined, what: string, defaults: readonly string[] = [], unknownOk = false): string[] {
  if (!valid || valid.length === 0) return [...names];
  const offered = offeredPaths(valid);
  const out: string[] = [];
  const unknown: string[] = [];
  for (const n of names) {
    const path = resolveName(n, offered);
    if (path === undefined) unknown.push(n);
    out.push(path ?? n);
  }
  if (unknown.length === 0 || unknownOk) return out;
  const plain = offered.filter((v) => !isOpen(v));
  const words = [...new Set(plain.flatMap((p) => [p, nameOf(p, offered)]))];
  const near = [...new Set(unknown.map((u) => closest(u, words)).filter((x): x is string => !!x))];
  // A short list (it must be read at 80 columns): the defaults and the derived fields first, by name.
  const derived = offered.filter((p) => !valid.includes(p));
  const top = [...defaults.filter((d) => plain.includes(d)), ...derived, ...plain.filter((p) => !p.includes('.') && !defaults.includes(p))];
  const names10 = [...new Set(top.map((p) => nameOf(p, offered)))];
  const shown = names10.slice(0, 10);
  throw new UsageError(
    `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((u) => `'${u}'`).join(', ')} for ${what}${near.length ? ` (did you mean ${near.map((n) => `'${n}'`).join(', ')}?)` : ''}`,
    `columns: ${shown.join(', ')}${names10.length > shown.length || plain.length > names10.length ? ', ... (any field of -o json, nested with dots)' : ''}`,
  );
}

/** A path marked `x.*` is an object whose keys the schema does not list: anything below it goes. */
function isOpen(path: string): boolean {
  return path.endsWith('.*');
}

function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const c of candidates) {
    const d = editDistance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) { bestD = d; best = c; }
  }
  return best;
}

/**
 * `--columns` on a command whose output is not a list of records (`config list`, `auth status`): exit 2
 * before anything runs, rather than a flag that silently does nothing.
 */
export function refuseColumns(columns: string | undefined, command: string): void {
  if (columns === undefined) return;
  throw new UsageError(`--columns does not apply to 'svc ${command}': its output is not a list of records`, 'drop --columns; to pick fields, use -o json with --jq');
}
