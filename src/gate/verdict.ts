/**
 * The gate's verdict: the decision (the tally's result, tally.ts) with what it was made on (the scope,
 * what was verified and sifted, the issues read and the total the service gave), and the same as data:
 * what `-o json` prints and `--json-report` writes (a later --baseline reads it back).
 */
import type { GateIssue, GateResult, IssueList } from './tally.js';
import type { Sifted } from './sieve.js';
import { cellText } from '../core/sanitize.js';
import { LazyList } from '../core/json-stream.js';
import type { CountsScope } from './policy-file.js';

/** --commit: the finished scans of that commit the issues name (commands/gate/commit-scan.ts). */
export interface VerifiedCommit {
  sha: string;
  scans: Array<{ id: string; status: string }>;
}

/** What was verified, for the verdict (`-o json` `verified`) and the summary (commands/gate/scope.ts). */
export interface VerifiedScope {
  organization?: string;
  repositories?: string[];
  project?: string;
  scan?: { id: string; status: string; repositoryId?: string };
  rule?: string;
  /** --commit: the finished scans of that commit the issues name (commit-scan.ts). */
  commit?: VerifiedCommit;
  /** Scope flags that filter but name nothing that can be looked up. */
  unverifiedFilters: string[];
}

export interface GateVerdict {
  result: GateResult;
  /** What the baseline, the policy and --new-since/--commit took out of the count. */
  sifted?: Sifted;
  scope: Record<string, unknown>;
  /** The ids of the scope that were looked up and found (see scope.ts). */
  verified: VerifiedScope;
  fetched: number;
  /** The listing's totalCount; undefined when the service gave none (then there is no PASS). */
  totalCount?: number;
  /**
   * The listing could not be read to its end (a page refused, the network): why. Only with a FAIL
   * proven on the issues read, which stands (more pages could only add issues).
   */
  incomplete?: string;
  /** What the answers left in doubt (answers/doubts.ts): one entry per kind, said in the summary. */
  doubts?: DoubtData[];
  /** What the service's categoryCounts are taken to count (--counts; the policy's counts:), and where that came from. */
  categoryCounts?: { scope: CountsScope; from: string };
  /**
   * The organization the gate acted on and where it came from (`--org`, `SVC_ORGANIZATION_ID`,
   * `profile`, `--organization-id`), or no id: the token's default.
   */
  organization?: { id?: string; from: string };
}

/** A kind of doubt as the verdict lists it (-o json `doubts`, the summary). */
export interface DoubtData {
  /** The row of answers/checks.ts. */
  check: string;
  /** What svc did: counted, stops a PASS, a warning. */
  action: string;
  /** The one line the summary and stderr say. */
  line: string;
  times: number;
  details: string[];
}

/**
 * What the verdict says of the answers it was made on, one line each (the summary, the step summary):
 * a listing that could not be read to its end (a FAIL proven on what was read stands), categoryCounts
 * taken to count a wider scope (--counts wide), and each kind of doubt with what svc did with it.
 */
export function doubtNotes(v: Pick<GateVerdict, 'incomplete' | 'categoryCounts' | 'doubts'>): string[] {
  const out: string[] = [];
  if (v.incomplete !== undefined) out.push(`The listing was incomplete (${v.incomplete}): the FAIL stands on the issues read; more pages could only add issues.`);
  if (v.categoryCounts?.scope === 'wide') out.push(`Counts: categoryCounts taken to count a wider scope than the search's (counts: wide, from ${v.categoryCounts.from}): not compared with totalCount.`);
  const doubts = v.doubts ?? [];
  if (doubts.length > 0) {
    out.push(`Doubts about the service's answers (${doubts.length} kind${doubts.length === 1 ? '' : 's'}; docs/security.md):`);
    for (const d of doubts) out.push(`  - ${d.line.replace(/^gate: /, '')}`);
  }
  return out;
}

/** "Organization: org_1 (from --org)", or the token's default when none is set. */
export function organizationText(o: { id?: string; from: string }): string {
  return o.id === undefined
    ? "Organization: the token's default (none set: --org, SVC_ORGANIZATION_ID or svc config set organization picks one; svc auth status lists them)."
    : `Organization: ${cellText(o.id)} (from ${o.from}).`;
}

/**
 * The verdict as data (`-o json`). With `lazy` its issue lists are LazyLists, made as they are
 * written (the JSON report of tens of thousands of issues, see output/json-stream.ts): the same JSON.
 */
export function verdictData(v: GateVerdict, lazy = false): Record<string, unknown> {
  const r = v.result;
  return {
    passed: r.passed,
    decided: true,
    counts: r.counts,
    thresholds: r.thresholds,
    violations: r.violations,
    breaking: r.breaking,
    scope: v.scope,
    verified: v.verified,
    ...(v.organization ? { organization: v.organization } : {}),
    fetched: v.fetched,
    ...(v.totalCount !== undefined ? { totalCount: v.totalCount } : {}),
    ...(v.incomplete !== undefined ? { incomplete: v.incomplete } : {}),
    ...(v.categoryCounts ? { categoryCounts: v.categoryCounts } : {}),
    doubts: v.doubts ?? [],
    ignored: r.ignored,
    ...siftedData(v, lazy ? (list) => new LazyList(() => mapped(list)) : (list) => Array.from(list, issueData)),
  };
}

/** Slim issue records for JSON: what a reader (or a later --baseline) needs, no heavy fields. */
function issueData(i: GateIssue): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['id', 'level', 'score', 'breaking', 'fingerprint', 'vulnClass', 'cwes', 'repositoryId', 'repositoryName', 'affectedFile', 'startLine', 'generatedTitle', 'createdAt', 'suppression']) {
    if (i[key] !== undefined) out[key] = i[key];
  }
  return out;
}

/**
 * `issues` (every counted issue: with a baseline, the new ones), and with a baseline `unchanged`
 * (those found in it), with a policy `suppressed` (with the reason): the lists a later run reads
 * back with --baseline.
 */
function siftedData(v: GateVerdict, list: (issues: IssueList) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = { issues: list(v.result.issues) };
  const sf = v.sifted;
  if (!sf) return out;
  if (sf.baseline) {
    out.baseline = { file: sf.baseline.file, new: v.result.counts.total, unchanged: sf.unchangedCount };
    out.unchanged = list(sf.unchanged);
  }
  if (sf.policy) {
    out.policy = { file: sf.policy.file, suppressed: sf.suppressedCount, expired: sf.expired.map((e) => ({ line: e.line, expires: e.expires, id: e.id, fingerprint: e.fingerprint, rule: e.rule, path: e.path })) };
    out.suppressed = list(sf.suppressed);
  }
  if (sf.diff) {
    out.diff = sf.diff;
    out.elsewhere = list(sf.elsewhere);
  }
  if (sf.outOfScope > 0 || sf.undated > 0 || sf.uncommitted > 0) out.narrowed = { leftOut: sf.outOfScope, countedWithoutDate: sf.undated, countedWithoutCommit: sf.uncommitted };
  return out;
}

function* mapped(issues: IssueList): Generator<Record<string, unknown>> {
  for (const i of issues) yield issueData(i);
}
