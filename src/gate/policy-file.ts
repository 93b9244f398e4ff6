/**
 * The gate's policy file (`--policy FILE`, or `.svc-policy.yml` in the current directory): the
 * thresholds and the accepted risks of a repository, reviewed with its code. YAML (JSON is YAML):
 *
 *   version: 1
 *   fail-on: high
 *   max: { critical: 0, high: 5, total: 100 }
 *   levels: { critical: 90, high: 70, medium: 40, low: 10 }
 *   counts: wide                    # this service's categoryCounts count a wider scope (answers/checks.ts)
 *   ignore:
 *     - id: iss_123                 # or fingerprint: svcfp1:..., or rule: <class> and/or path: <glob>
 *       reason: "accepted risk, see SEC-42"    # required
 *       expires: 2027-03-01                    # required; the entry applies up to and including this day (UTC)
 *
 * Every mistake (unknown key, wrong type, missing reason or expiry, bad date, bad glob) is a
 * PolicyError whose message names the file and the line. Pure: the caller reads the file.
 */
import { LineCounter, isMap, isScalar, isSeq, parseDocument, type Node, type Pair, type YAMLMap } from 'yaml';
import type { IssueInput } from './tally.js';
import { EMPTY_FINGERPRINT, FINGERPRINT_FORMAT, fileKeyOf, ruleKeyOf } from './fingerprint.js';
import { slugOf } from './reports/rule-help.js';
import { GlobError, globMatches, globToRegExp, repoPath } from './glob.js';
import { GateUsageError, parseLevel, parseLevels, type MaxThresholds } from './policy.js';
import { LEVELS, type Cutoffs, type Level } from '../operations/levels.js';

export const DEFAULT_POLICY_FILE = '.svc-policy.yml';

export class PolicyError extends Error {
  override readonly name = 'PolicyError';
}

export interface IgnoreEntry {
  id?: string;
  fingerprint?: string;
  /** A vulnerability class (as in the issue's vulnClass, any case) or `cwe-N`. */
  rule?: string;
  path?: string;
  reason: string;
  /** YYYY-MM-DD. */
  expires: string;
  /** Line of the entry in the file (1-based). */
  line: number;
  /** Compiled `path`. */
  pathRe?: RegExp;
}

export interface Policy {
  file: string;
  failOn?: Level;
  max?: MaxThresholds;
  cutoffs?: Cutoffs;
  /** `counts: wide`: the service's categoryCounts count a wider scope than the search's filters (`--counts`). */
  counts?: CountsScope;
  ignore: IgnoreEntry[];
}

/**
 * What the service's `categoryCounts` count over (the gate's `--counts`, the policy's `counts:`):
 * `narrow` (svc's inference, the default: the search's scope, so counts above `totalCount` say issues
 * are missing from the listing), or `wide` (a wider scope, the organization's: they say nothing).
 */
export type CountsScope = 'narrow' | 'wide';

const TOP_KEYS = ['version', 'fail-on', 'max', 'levels', 'counts', 'ignore'];
const MAX_KEYS = [...LEVELS, 'total'];
const CUTOFF_KEYS = ['critical', 'high', 'medium', 'low'];
const ENTRY_KEYS = ['id', 'fingerprint', 'rule', 'path', 'reason', 'expires'];

/** A calendar date YYYY-MM-DD that exists (2027-02-30 does not). */
function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

export function parsePolicy(text: string, file: string): Policy {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false, strict: true });
  const lineOf = (node: Node | Pair | null | undefined): number => {
    const range = node && 'range' in node ? node.range : node && 'key' in node ? (node.key as Node | null)?.range : undefined;
    return range ? lines.linePos(range[0]).line : 1;
  };
  const fail = (line: number, message: string): never => {
    throw new PolicyError(`${file}:${line}: ${message}`);
  };
  if (doc.errors.length > 0) {
    const err = doc.errors[0];
    fail(lines.linePos(err.pos[0]).line, `not valid YAML: ${err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`);
  }
  const root = doc.contents;
  if (root === null || root === undefined) fail(1, 'the file is empty (expected at least "version: 1")');
  if (!isMap(root)) fail(lineOf(root as Node), 'expected a mapping of settings (version, fail-on, max, levels, counts, ignore)');
  const map = root as YAMLMap;
  const policy: Policy = { file, ignore: [] };

  const keyName = (pair: Pair, where: string, allowed: string[]): string => {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    if (typeof key !== 'string' || !allowed.includes(key)) {
      fail(lineOf(pair.key as Node), `unknown key '${String(key)}'${where} (expected ${allowed.join(', ')})`);
    }
    return key as string;
  };
  const scalar = (node: unknown): unknown => (isScalar(node) ? node.value : undefined);

  let version: unknown;
  for (const pair of map.items) {
    const key = keyName(pair, '', TOP_KEYS);
    const value = pair.value as Node | null;
    const line = lineOf(value ?? (pair.key as Node));
    switch (key) {
      case 'version':
        version = scalar(value);
        if (version !== 1) fail(line, `version must be 1, got ${JSON.stringify(version ?? null)}`);
        break;
      case 'counts': {
        const v = scalar(value);
        if (v !== 'narrow' && v !== 'wide') fail(line, `counts must be wide (the service's categoryCounts count a wider scope than the search's filters) or narrow (the default), got ${JSON.stringify(v ?? null)}`);
        policy.counts = v as CountsScope;
        break;
      }
      case 'fail-on': {
        const v = scalar(value);
        if (typeof v !== 'string') fail(line, `fail-on must be a level (${LEVELS.join(', ')})`);
        try {
          policy.failOn = parseLevel(v as string);
        } catch (err) {
          fail(line, `fail-on: ${(err as Error).message}`);
        }
        break;
      }
      case 'max': {
        if (!isMap(value)) fail(line, `max must be a mapping, e.g. { critical: 0, high: 5, total: 100 }`);
        const max: MaxThresholds = {};
        for (const p of (value as YAMLMap).items) {
          const k = keyName(p, ' in max', MAX_KEYS) as keyof MaxThresholds;
          const n = scalar(p.value);
          if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) {
            fail(lineOf((p.value as Node) ?? (p.key as Node)), `max.${k} must be a whole number, 0 or more, got ${JSON.stringify(n ?? null)}`);
          }
          max[k] = n as number;
        }
        policy.max = max;
        break;
      }
      case 'levels': {
        if (!isMap(value)) fail(line, `levels must be a mapping, e.g. { critical: 90, high: 70, medium: 40, low: 10 }`);
        const parts: string[] = [];
        for (const p of (value as YAMLMap).items) {
          const k = keyName(p, ' in levels', CUTOFF_KEYS);
          const n = scalar(p.value);
          if (typeof n !== 'number' || !Number.isFinite(n)) fail(lineOf((p.value as Node) ?? (p.key as Node)), `levels.${k} must be a number from 0 to 100`);
          parts.push(`${k}=${n as number}`);
        }
        try {
          policy.cutoffs = parseLevels(parts.join(','));
        } catch (err) {
          if (!(err instanceof GateUsageError)) throw err;
          fail(line, err.message);
        }
        break;
      }
      case 'ignore': {
        if (value === null || (isScalar(value) && value.value === null)) break;
        if (!isSeq(value)) fail(line, 'ignore must be a list of entries (- id: ..., reason: ..., expires: ...)');
        for (const item of (value as unknown as { items: Node[] }).items) policy.ignore.push(ignoreEntry(item));
        break;
      }
    }
  }
  if (version === undefined) fail(1, 'version is missing (add "version: 1")');
  return policy;

  function ignoreEntry(item: Node): IgnoreEntry {
    const line = lineOf(item);
    if (!isMap(item)) fail(line, 'an ignore entry must be a mapping (id or fingerprint or rule/path, reason, expires)');
    const entry: Partial<IgnoreEntry> = { line };
    for (const p of (item as YAMLMap).items) {
      const k = keyName(p, ' in an ignore entry', ENTRY_KEYS) as keyof IgnoreEntry;
      const v = scalar(p.value);
      const at = lineOf((p.value as Node) ?? (p.key as Node));
      if (typeof v !== 'string' || v.trim() === '') fail(at, `${k} must be a non-empty string`);
      (entry as Record<string, unknown>)[k] = (v as string).trim();
      if (k === 'expires' && !isCalendarDate(entry.expires!)) fail(at, `expires must be a date YYYY-MM-DD, got '${v as string}'`);
      // Entries never act as wildcards: a rule or fingerprint names one exact thing.
      if (k === 'rule') {
        const why = ruleProblem(entry.rule!);
        if (why) fail(at, `rule '${v as string}' ${why}`);
      }
      if (k === 'fingerprint') {
        const fp = entry.fingerprint!.toLowerCase();
        if (!FINGERPRINT_FORMAT.test(fp)) fail(at, `fingerprint '${v as string}' is not one svc writes (svcfp1: and 32 hex digits)`);
        if (fp === EMPTY_FINGERPRINT) fail(at, `fingerprint '${v as string}' is that of an issue with no rule, file or title: it names nothing (and would match every such issue); use id: instead`);
        entry.fingerprint = fp;
      }
      if (k === 'path') {
        try {
          entry.pathRe = globToRegExp(entry.path!);
        } catch (err) {
          if (!(err instanceof GlobError)) throw err;
          fail(at, `path: ${err.message}`);
        }
      }
    }
    const kinds = [entry.id !== undefined, entry.fingerprint !== undefined, entry.rule !== undefined || entry.path !== undefined].filter(Boolean).length;
    if (kinds === 0) fail(line, 'an ignore entry needs what it matches: id, fingerprint, or rule and/or path');
    if (kinds > 1) fail(line, 'an ignore entry matches by one of: id, fingerprint, or rule and/or path (not several)');
    if (entry.reason === undefined) fail(line, 'an ignore entry needs a reason (why the risk is accepted)');
    if (entry.expires === undefined) fail(line, 'an ignore entry needs an expiry date (expires: YYYY-MM-DD)');
    return entry as IgnoreEntry;
  }
}

/**
 * Why a policy `rule:` does not name one exact rule, or undefined when it does: a vulnerability
 * class (any case), `cwe-N`, or `svc/<class-slug>` as svc's reports name rules. No globs, nothing empty.
 */
function ruleProblem(rule: string): string | undefined {
  const r = rule.trim().toLowerCase();
  if (/[*?[\]{}]/.test(r)) return 'is a pattern: rules match exactly (use path: for globs)';
  if (r.startsWith('svc/')) {
    if (/^svc\/[a-z0-9-]+\/(critical|high|medium|low|info)$/.test(r)) return `is a SARIF rule id with a level: write ${r.slice(0, r.lastIndexOf('/'))}`;
    if (r === 'svc/unknown') return 'names no rule (svc/unknown is every issue without a class or CWE)';
    return /^svc\/[a-z0-9]+(?:-[a-z0-9]+)*$/.test(r) ? undefined : 'does not name a rule after svc/ (e.g. svc/sql-injection)';
  }
  if (!/[\p{L}\p{N}]/u.test(r)) return 'does not name a rule (e.g. a vulnerability class, or cwe-89)';
  return undefined;
}

/** Today in UTC, YYYY-MM-DD. */
export function utcDay(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 10);
}

/** An entry applies up to and including its expiry day; from the next day (UTC) it is expired. */
export function isExpired(entry: IgnoreEntry, today: string): boolean {
  return entry.expires < today;
}

export function entryMatches(entry: IgnoreEntry, issue: IssueInput, fingerprint: string): boolean {
  if (entry.id !== undefined) return String(issue.id) === entry.id;
  if (entry.fingerprint !== undefined) return fingerprint !== EMPTY_FINGERPRINT && fingerprint === entry.fingerprint;
  if (entry.rule !== undefined) {
    const rule = entry.rule.toLowerCase();
    const cls = ruleKeyOf(issue);
    if (cls === '' || (cls !== rule && `svc/${slugOf(cls)}` !== rule)) return false;
  }
  if (entry.pathRe !== undefined) {
    // Normalised first (./, .., //, backslashes); a path that leaves the repository matches no path: entry.
    const file = repoPath(fileKeyOf(issue.affectedFile));
    if (file === undefined || file === '' || !globMatches(entry.pathRe, file)) return false;
  }
  return true;
}
