/**
 * What stands between the listing and the count: the issues `--new-since` / `--commit` leave out,
 * those the policy file accepts (suppressed, with their reason), and those already in the baseline.
 * Every other open issue goes on to the tally. Issues stream through one at a time; only issues that
 * may match the baseline by fingerprint wait for the end of the listing (see baseline.ts).
 *
 * Fail closed: an issue without a creation date or a scan commit cannot be shown to be old or of
 * another commit, so it counts (and the summary says how many were such).
 */
import { baselineMatcher, type Baseline } from './baseline.js';
import type { GateIssue, GateTally, IssueInput } from './tally.js';
import { fingerprintOf } from './fingerprint.js';
import { entryMatches, isExpired, type IgnoreEntry, type Policy } from './policy-file.js';
import { commitOf, createdAtOf, mayBeNew, sameCommit, scanIdOf } from './since.js';
import { placeOf, type DiffFilter, type DiffScope } from './diff-match.js';
import { DEFAULT_CUTOFFS, levelOf, type Cutoffs } from '../operations/levels.js';

interface Suppression {
  reason: string;
  expires: string;
  /** `file:line` of the policy entry. */
  source: string;
}

type SuppressedIssue = GateIssue & { suppression: Suppression };

export interface SieveOptions {
  /** Count only issues created after this instant (ms). */
  since?: number;
  /** Count only issues found by scans of this commit (a sha or its prefix, lower case). */
  commit?: string;
  policy?: Policy;
  /** Today, YYYY-MM-DD (UTC): policy entries that expired before it no longer apply. */
  today: string;
  baseline?: Baseline;
  /** --diff: count only issues in the change (diff-match.ts). */
  diff?: DiffFilter & { about: DiffAbout };
  cutoffs?: Cutoffs;
  /** Keep the suppressed and baseline issues (reports list them); else only count them. */
  keep: boolean;
  slim?: (issue: IssueInput) => IssueInput;
}

/** What --diff compared, for the summary and the JSON verdict. */
export interface DiffAbout {
  base: string;
  mergeBase: string;
  scope: DiffScope;
  workTree: boolean;
  /** Files the change touches (new paths). */
  files: number;
}

export interface Sifted {
  /** Issues left out by --new-since / --commit. */
  outOfScope: number;
  /** Counted although --new-since / --commit could not judge them (no createdAt / no scan commit). */
  undated: number;
  uncommitted: number;
  /**
   * With --commit: the scans (`codeScan.id`) of the open issues found by scans of that commit, however
   * the other filters judged them (evidence that the service has scanned it; the gate checks them),
   * and how many such issues named no scan.
   */
  commitScans?: { ids: string[]; unnamed: number; issues: string[] };
  /** With a baseline: the open issues found in it (not counted). */
  unchangedCount: number;
  unchanged: GateIssue[];
  /** Open issues the policy accepts (not counted). */
  suppressedCount: number;
  suppressed: SuppressedIssue[];
  /** Policy entries past their expiry (they match nothing any more). */
  expired: IgnoreEntry[];
  baseline?: { file: string; kind: 'sarif' | 'json'; entries: number };
  /** --diff: open issues in the change, those elsewhere (not counted), and those counted because they cannot be placed. */
  diff?: DiffAbout & { inChange: number; elsewhereCount: number; unlocated: number; unknownFile: number };
  /** --diff: the open issues outside the change (kept for the reports when `keep`). */
  elsewhere: GateIssue[];
  policy?: { file: string; entries: number };
}

interface Sieve {
  add(issue: IssueInput): void;
  /** Issues given to add(), open or not. */
  readonly seen: number;
  /** Ends the listing: settles the baseline, hands the last issues to the tally. */
  finish(): Sifted;
}

export function createSieve(tally: GateTally, o: SieveOptions): Sieve {
  const cutoffs = o.cutoffs ?? DEFAULT_CUTOFFS;
  const active = (o.policy?.ignore ?? []).filter((e) => !isExpired(e, o.today));
  const expired = (o.policy?.ignore ?? []).filter((e) => isExpired(e, o.today));
  const matcher = o.baseline ? baselineMatcher(o.baseline) : undefined;
  const pending: Array<{ issue: IssueInput; fingerprint: string }> = [];
  // Issues --new-since, --commit or --diff leave out still hold their baseline entries: a finding
  // the baseline holds, on a line the change does not touch, is not a new copy of it in the change
  // (it was: the copy in the change took its entry by fingerprint, and a new vulnerability passed).
  const othersPending: string[] = [];
  const leftOut = (input: IssueInput) => {
    sifted.outOfScope++;
    claim(input);
  };
  const claim = (input: IssueInput) => {
    if (matcher === undefined) return;
    const fingerprint = fingerprintOf(input);
    if (matcher.add(input, fingerprint) === 'pending') othersPending.push(fingerprint);
  };
  const sifted: Sifted = { outOfScope: 0, undated: 0, uncommitted: 0, unchangedCount: 0, unchanged: [], suppressedCount: 0, suppressed: [], expired, elsewhere: [] };
  if (o.diff) sifted.diff = { ...o.diff.about, inChange: 0, elsewhereCount: 0, unlocated: 0, unknownFile: 0 };
  if (o.baseline) sifted.baseline = { file: o.baseline.file, kind: o.baseline.kind, entries: o.baseline.entries.length };
  if (o.policy) sifted.policy = { file: o.policy.file, entries: o.policy.ignore.length };
  const commitScans = new Set<string>();
  if (o.commit !== undefined) sifted.commitScans = { ids: [], unnamed: 0, issues: [] };
  let seen = 0;

  const kept = (issue: IssueInput): GateIssue => ({ ...(o.slim ? o.slim(issue) : issue), level: levelOf(issue.score, cutoffs), breaking: false });
  const unchanged = (issue: IssueInput) => {
    sifted.unchangedCount++;
    if (o.keep) sifted.unchanged.push(kept(issue));
  };

  return {
    get seen() { return seen; },
    add(input) {
      seen++;
      const sha = o.commit !== undefined ? commitOf(input) : undefined;
      if (sha !== undefined && sameCommit(sha, o.commit!)) {
        sifted.commitScans!.issues.push(String(input.id));
        const scan = scanIdOf(input);
        if (scan === undefined) sifted.commitScans!.unnamed++;
        else commitScans.add(scan);
      }
      if (o.since !== undefined) {
        const created = createdAtOf(input);
        if (created === undefined) sifted.undated++;
        else if (!mayBeNew(input, o.since)) { leftOut(input); return; }
      }
      if (o.commit !== undefined) {
        if (sha === undefined) sifted.uncommitted++;
        else if (!sameCommit(sha, o.commit)) { leftOut(input); return; }
      }
      if (o.diff) {
        const d = sifted.diff!;
        const place = placeOf(input, o.diff);
        if (place === 'elsewhere') {
          d.elsewhereCount++;
          if (o.keep) sifted.elsewhere.push(kept(input));
          claim(input);
          return;
        }
        if (place === 'change') d.inChange++;
        else if (place === 'unlocated') d.unlocated++;
        else d.unknownFile++;
      }
      // The fingerprint is needed here only to match a policy or a baseline; kept issues get theirs
      // when the tally keeps them (the gate's slim step). The input is the sieve's to extend.
      if (active.length === 0 && matcher === undefined) {
        tally.add(input);
        return;
      }
      const fingerprint = fingerprintOf(input);
      const issue = input;
      issue.fingerprint = fingerprint;
      const entry = active.find((e) => entryMatches(e, issue, fingerprint));
      if (entry !== undefined) {
        sifted.suppressedCount++;
        if (o.keep) {
          const suppression = { reason: entry.reason, expires: entry.expires, source: `${o.policy!.file}:${entry.line}` };
          sifted.suppressed.push({ ...kept(issue), suppression });
        }
        return;
      }
      const state = matcher ? matcher.add(issue, fingerprint) : 'new';
      if (state === 'unchanged') unchanged(issue);
      else if (state === 'pending') pending.push({ issue: o.slim ? o.slim(issue) : issue, fingerprint });
      else tally.add(issue);
    },
    finish() {
      if (matcher) {
        for (const { issue, state } of matcher.settle(pending.splice(0), othersPending.splice(0))) {
          if (state === 'unchanged') unchanged(issue);
          else tally.add(issue);
        }
      }
      if (sifted.commitScans) sifted.commitScans.ids = [...commitScans].sort();
      return sifted;
    },
  };
}
