/**
 * The baseline of `svc gate --baseline FILE`: the report of an earlier run (its `--sarif` file or
 * its `--json-report` file). Issues present in it are not counted. An issue matches a baseline
 * entry by id; failing that, by fingerprint (rule, file, title: see fingerprint.ts), each baseline
 * entry matching at most one issue (two copies of a finding where the baseline had one: one is new).
 *
 * Anything that is not a svc report of either kind is a BaselineError (exit 2): a baseline that
 * silently reads as empty would make every issue "new", and one that silently reads as "everything"
 * would pass every gate.
 */
import { EMPTY_FINGERPRINT, fingerprintParts, fileKeyOf, fingerprintOf, titleKey } from './fingerprint.js';
import type { IssueInput } from './tally.js';

export class BaselineError extends Error {
  override readonly name = 'BaselineError';
}

interface BaselineEntry {
  id?: string;
  fingerprint?: string;
}

export interface Baseline {
  file: string;
  kind: 'sarif' | 'json';
  entries: BaselineEntry[];
}

/** Key of the partial fingerprint that carries the issue's fingerprint in svc's SARIF. */
export const FINGERPRINT_SARIF_KEY = 'svcFingerprint/v1';
const ID_SARIF_KEY = 'svcIssueId/v1';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : typeof v === 'number' ? String(v) : undefined);

export function parseBaseline(text: string, file: string): Baseline {
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw new BaselineError(`${file} is not JSON (${(err as Error).message}); expected the --sarif or --json-report file of an earlier svc gate`);
  }
  if (isObject(data) && Array.isArray(data.runs)) return { file, kind: 'sarif', entries: fromSarif(data, file) };
  if (isObject(data) && typeof data.passed === 'boolean' && isObject(data.counts)) return { file, kind: 'json', entries: fromJson(data, file) };
  if (isObject(data) && data.decided === false) {
    throw new BaselineError(`${file} is the report of a gate that could not decide (${typeof data.error === 'string' ? data.error : 'no verdict'}): it lists no issues to compare with`);
  }
  throw new BaselineError(`${file} is not a svc gate report; expected the --sarif or --json-report file of an earlier svc gate`);
}

function fromSarif(log: Json, file: string): BaselineEntry[] {
  const runs = log.runs as unknown[];
  const entries: BaselineEntry[] = [];
  const svcRuns = runs.filter((run) => isObject(run) && isObject(run.tool) && isObject(run.tool.driver) && run.tool.driver.name === 'svc');
  if (svcRuns.length === 0) throw new BaselineError(`${file} is a SARIF log but not one svc wrote (no run of the tool 'svc')`);
  for (const run of svcRuns as Json[]) {
    if (!Array.isArray(run.results)) throw new BaselineError(`${file}: a svc run without a results list`);
    const rules = ((run.tool as Json).driver as Json).rules;
    for (const [n, result] of (run.results as unknown[]).entries()) {
      if (!isObject(result)) throw new BaselineError(`${file}: result ${n + 1} is not an object`);
      // Issues an earlier run suppressed (policy) were present too; they stay out of the count either way.
      const props = isObject(result.properties) ? result.properties : {};
      const partial = isObject(result.partialFingerprints) ? result.partialFingerprints : {};
      const id = str(partial[ID_SARIF_KEY]) ?? str(props.issueId);
      let fingerprint = str(partial[FINGERPRINT_SARIF_KEY]) ?? str(props.fingerprint);
      if (fingerprint === undefined) fingerprint = sarifFingerprint(result, props, rules);
      if (id === undefined && fingerprint === undefined) throw new BaselineError(`${file}: result ${n + 1} carries neither an issue id nor a fingerprint`);
      entries.push(dropUndefined({ id, fingerprint }));
    }
  }
  return entries;
}

/** A fingerprint for a SARIF result of an svc version that did not write one: class, file and title. */
function sarifFingerprint(result: Json, props: Json, rules: unknown): string | undefined {
  const loc = Array.isArray(result.locations) && isObject(result.locations[0]) ? result.locations[0] : undefined;
  const physical = loc && isObject(loc.physicalLocation) ? loc.physicalLocation : undefined;
  const artifact = physical && isObject(physical.artifactLocation) ? physical.artifactLocation : undefined;
  const uri = artifact ? str(artifact.uri) : undefined;
  const message = isObject(result.message) ? str(result.message.text) : undefined;
  let rule = str(props.vulnClass);
  if (rule === undefined && typeof result.ruleIndex === 'number' && Array.isArray(rules)) {
    const r = rules[result.ruleIndex];
    if (isObject(r)) rule = str(r.name) ?? str(r.id);
  }
  rule ??= str(result.ruleId);
  if (uri === undefined || message === undefined || rule === undefined) return undefined;
  let path = uri;
  try { path = decodeURIComponent(uri); } catch { /* keep as is */ }
  return fingerprintParts(rule.toLowerCase().replace(/\s+/g, ' '), fileKeyOf(path), titleKey(message.split('\n')[0]));
}

function fromJson(report: Json, file: string): BaselineEntry[] {
  const lists = ['issues', 'unchanged', 'suppressed', 'breaking'].filter((k) => report[k] !== undefined);
  if (!lists.includes('issues')) {
    throw new BaselineError(`${file} is a svc gate verdict without its list of issues; use the --json-report (or --sarif) file of svc gate`);
  }
  const entries: BaselineEntry[] = [];
  const seen = new Set<string>();
  for (const key of lists) {
    const list = report[key];
    if (!Array.isArray(list)) throw new BaselineError(`${file}: '${key}' is not a list`);
    for (const [n, item] of list.entries()) {
      if (!isObject(item)) throw new BaselineError(`${file}: ${key}[${n}] is not an issue record`);
      const id = str(item.id);
      if (id === undefined) throw new BaselineError(`${file}: ${key}[${n}] has no id`);
      if (seen.has(id)) continue;
      seen.add(id);
      entries.push({ id, fingerprint: str(item.fingerprint) ?? fingerprintOf(item as IssueInput) });
    }
  }
  return entries;
}

function dropUndefined(e: BaselineEntry): BaselineEntry {
  const out: BaselineEntry = {};
  if (e.id !== undefined) out.id = e.id;
  if (e.fingerprint !== undefined) out.fingerprint = e.fingerprint;
  return out;
}

/**
 * Matches issues against a baseline as they stream in. `add` answers at once for an id match
 * ('unchanged') and for an issue the baseline cannot hold ('new'); an issue that may match only by
 * fingerprint is 'pending' until `settle`, because an issue later in the listing may claim that
 * baseline entry by its id.
 */
interface BaselineMatcher {
  add(issue: IssueInput, fingerprint: string): 'unchanged' | 'new' | 'pending';
  /**
   * Decides the pending issues, in the order they were added, after `others` (the fingerprints of
   * issues read but not counted, pending too) have claimed the entries they match: where a copy of a
   * finding is outside the count and another inside it, the one counted is the new one (fail closed).
   */
  settle<T extends IssueInput>(pending: Array<{ issue: T; fingerprint: string }>, others?: readonly string[]): Array<{ issue: T; state: 'unchanged' | 'new' }>;
}

export function baselineMatcher(baseline: Baseline): BaselineMatcher {
  const byId = new Map<string, BaselineEntry>();
  const byFingerprint = new Map<string, BaselineEntry[]>();
  for (const e of baseline.entries) {
    if (e.id !== undefined) byId.set(e.id, e);
    // An entry with no rule, file or title names nothing: it matches by id only, never as a wildcard.
    if (e.fingerprint !== undefined && e.fingerprint !== EMPTY_FINGERPRINT) {
      const list = byFingerprint.get(e.fingerprint);
      if (list) list.push(e);
      else byFingerprint.set(e.fingerprint, [e]);
    }
  }
  const claimed = new Set<BaselineEntry>();
  return {
    add(issue, fingerprint) {
      const entry = byId.get(String(issue.id));
      if (entry !== undefined) {
        claimed.add(entry);
        return 'unchanged';
      }
      return fingerprint !== EMPTY_FINGERPRINT && byFingerprint.has(fingerprint) ? 'pending' : 'new';
    },
    settle(pending, others = []) {
      for (const fingerprint of others) {
        const free = (byFingerprint.get(fingerprint) ?? []).find((e) => !claimed.has(e));
        if (free !== undefined) claimed.add(free);
      }
      return pending.map(({ issue, fingerprint }) => {
        const free = (byFingerprint.get(fingerprint) ?? []).find((e) => !claimed.has(e));
        if (free === undefined) return { issue, state: 'new' as const };
        claimed.add(free);
        return { issue, state: 'unchanged' as const };
      });
    },
  };
}

/** Entries that match by id only: their rule, file and title are all empty (EMPTY_FINGERPRINT). */
export function nameless(baseline: Baseline): number {
  return baseline.entries.filter((e) => e.fingerprint === EMPTY_FINGERPRINT).length;
}
