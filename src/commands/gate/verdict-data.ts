/** The gate's verdict as data: what `-o json` prints and `--json-report` writes (a later --baseline reads it back). */
import type { GateIssue, IssueList } from '../../gate/verdict.js';
import type { GateVerdict } from './decision.js';
import { LazyList } from '../../output/json-stream.js';

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
    totalCount: v.totalCount,
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
