/**
 * `svc gate`'s options, parsed once from what commander read into one typed value: the run step
 * (`runGate`) takes it, and tests build it with `parseGateOptions` (or by hand) and call the run step
 * directly. Values that need the world (files, the clock, the CI's variables, the policy file's
 * settings) are checked by the run step and `setup.ts`; everything else is checked here.
 */
import { UsageError } from '../../core/errors.js';
import type { OperationOptions } from '../../request/flags.js';
import { numberFlag, parseNumberFlag } from '../../request/number-flag.js';
import { parseConcurrency } from '../../listing/all-pages.js';
import { prepareWait, type WaitSettings } from '../../scans/wait.js';
import { parseLevel, type MaxThresholds } from '../../gate/policy.js';
import type { GateFlags } from './scope-flags.js';
import { REPORT_KEYS, kindOf, oldFlagAttribute, type ReportKey, type ReportPaths } from '../../gate/reports/registry.js';
import { parseDiffScope, type DiffScope } from '../../gate/diff-match.js';
import { type Level } from '../../operations/levels.js';
import type { CountsScope } from '../../gate/policy-file.js';

export interface GateOptions {
  /** The scope flags (the issue search's own, see scope-flags.ts) and the values commander read for them. */
  scope: { flags: GateFlags; values: OperationOptions };
  failOn?: Level;
  /** --max-critical ... --max-total. */
  max: MaxThresholds;
  /** --levels as given: cut-offs applied over the policy file's (parsed when the policy is read). */
  levels?: string;
  /** The report files, as given (resolved and checked against the current directory by the run step). */
  reports: ReportPaths;
  /** --annotations (true), --no-annotations (false), neither (undefined: on in host A's runner). */
  annotations?: boolean;
  policy?: string;
  baseline?: string;
  newSince?: string;
  commit?: string;
  repository?: string;
  issueUrl?: string;
  /** --diff BASE|auto, as given (read from git by diff-setup.ts). */
  diff?: string;
  /** --diff-scope (default lines); --diff-work-tree. */
  diffScope: DiffScope;
  diffWorkTree: boolean;
  /** --comment: the summary as one comment on the CI's pull request. */
  comment: boolean;
  /** --wait with --poll-interval and --wait-timeout, when any of them is given. */
  wait?: WaitSettings;
  pageSize: number;
  concurrency: number;
  /** --counts: what the service's categoryCounts count over (policy-file.ts CountsScope); undefined: the policy's, else narrow. */
  counts?: CountsScope;
  /** Where the kept issues go past how many (src/commands/gate/spill.ts; not a flag: tests set it). */
  spill?: { after?: number; dir?: string };
  /** Flags given by their earlier spelling (said once on stderr by the run step). */
  renamed?: string[];
}

/** What commander read for `svc gate` (command.opts()): the gate's own options by attribute name. */
export interface GateCommandOptions extends Partial<Record<ReportKey, string>> {
  failOn?: string;
  maxCritical?: string;
  maxHigh?: string;
  maxMedium?: string;
  maxLow?: string;
  maxInfo?: string;
  maxTotal?: string;
  levels?: string;
  annotations?: boolean;
  policy?: string;
  baseline?: string;
  newSince?: string;
  commit?: string;
  repository?: string;
  issueUrl?: string;
  diff?: string;
  diffScope?: string;
  diffWorkTree?: boolean;
  comment?: boolean;
  wait?: boolean;
  pollInterval?: string;
  waitTimeout?: string;
  pageSize?: string;
  concurrency?: string;
  counts?: string;
}

function maxFlag(raw: string | undefined, flag: string): number | undefined {
  return raw === undefined ? undefined : parseNumberFlag(raw, { flag, whole: true, min: 0 });
}

/** `--counts narrow|wide`. */
function parseCounts(raw: string): CountsScope {
  const v = raw.trim().toLowerCase();
  if (v !== 'narrow' && v !== 'wide') throw new UsageError(`--counts expects wide or narrow, got '${raw}'`, "wide: this service's categoryCounts count a wider scope than the search's filters (the organization's); narrow: the search's (the default)");
  return v;
}

/** Parses what commander read into GateOptions; a bad value is a UsageError (exit 2) naming its flag. */
export function parseGateOptions(raw: GateCommandOptions, flags: GateFlags): GateOptions {
  const max: MaxThresholds = {
    critical: maxFlag(raw.maxCritical, '--max-critical'),
    high: maxFlag(raw.maxHigh, '--max-high'),
    medium: maxFlag(raw.maxMedium, '--max-medium'),
    low: maxFlag(raw.maxLow, '--max-low'),
    info: maxFlag(raw.maxInfo, '--max-info'),
    total: maxFlag(raw.maxTotal, '--max-total'),
  };
  for (const key of Object.keys(max) as Array<keyof MaxThresholds>) if (max[key] === undefined) delete max[key];
  const reports: ReportPaths = {};
  const renamed: string[] = [];
  const read = raw as Record<string, unknown>;
  for (const key of REPORT_KEYS) {
    if (raw[key] !== undefined) reports[key] = raw[key];
    // The old spelling of a flag, a hidden option of its own (command.ts): its value, said to be renamed.
    const { flag, oldFlag } = kindOf(key);
    const old = oldFlag === undefined ? undefined : read[oldFlagAttribute(key)];
    if (typeof old !== 'string') continue;
    if (raw[key] !== undefined) throw new UsageError(`${flag} and ${oldFlag} (its old name) are both given`, `give ${flag} once`);
    reports[key] = old;
    renamed.push(`${oldFlag} is now ${flag} (the old name is read until the next release)`);
  }
  if (raw.diff === undefined && raw.diffScope !== undefined) throw new UsageError('--diff-scope narrows --diff, and none is given', 'add --diff BASE (or --diff auto in a pull request build)');
  if (raw.diff === undefined && raw.diffWorkTree) throw new UsageError('--diff-work-tree adds the work tree to --diff, and none is given', 'add --diff BASE');
  if (raw.diff !== undefined && raw.diff.trim() === '') throw new UsageError('--diff needs a base: a branch, a tag, a commit, or auto');
  const waitGiven = raw.wait !== undefined || raw.pollInterval !== undefined || raw.waitTimeout !== undefined;
  const values: OperationOptions = {};
  // The scope flags are the search row's (named by its schema), so they are read by their attribute names.
  for (const attribute of flags.attribute.values()) if (read[attribute] !== undefined) values[attribute] = read[attribute];
  return {
    scope: { flags, values },
    ...(raw.failOn !== undefined ? { failOn: parseLevel(raw.failOn) } : {}),
    max,
    levels: raw.levels,
    reports,
    annotations: raw.annotations,
    policy: raw.policy,
    baseline: raw.baseline,
    newSince: raw.newSince,
    commit: raw.commit,
    repository: raw.repository,
    issueUrl: raw.issueUrl,
    diff: raw.diff,
    diffScope: parseDiffScope(raw.diffScope),
    diffWorkTree: raw.diffWorkTree === true,
    comment: raw.comment === true,
    wait: waitGiven ? prepareWait({ wait: raw.wait, pollInterval: raw.pollInterval, waitTimeout: raw.waitTimeout }) : undefined,
    pageSize: numberFlag(raw.pageSize, { flag: '--page-size', whole: true, min: 1, max: 5000 }, 500),
    concurrency: parseConcurrency(raw.concurrency),
    ...(raw.counts !== undefined ? { counts: parseCounts(raw.counts) } : {}),
    ...(renamed.length ? { renamed } : {}),
  };
}


