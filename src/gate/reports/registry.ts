/**
 * The gate's report formats, one row each: the flag, the text of a decided gate, the text of an
 * undecided one, whether the report lists every counted issue (the tally then keeps them all) and
 * the issues the baseline and the policy took out, and its CI variant (the step summary). The command's
 * options (commands/gate/command.ts, options.ts), the checks of the paths (report-paths.ts), the
 * writing, decided or not (commands/gate/write-reports.ts), and what the tally keeps all come from
 * this table: a new format is one row here plus its pure writer beside it in src/gate/reports/.
 */
import { doubtNotes, organizationText, type GateVerdict } from '../verdict.js';
import { siftedLines } from '../sifted-text.js';
import { toSarif, type SarifResult } from './sarif.js';
import { junitChunks, toJunit, toJunitError } from './junit.js';
import { STEP_SUMMARY_BYTES, toMarkdown, toMarkdownError } from './markdown.js';
import { toHostBSast } from './hostb-sast.js';
import { toCodeQuality } from './code-quality.js';
import { verdictData } from '../verdict.js';
import { LazyList, jsonChunks } from '../../core/json-stream.js';
import { sarifCapLine, type SarifCap } from '../caps.js';
import { OUTSIDE_FORMATS } from '../../ci/providers.js';

/** What a writer may use beyond the verdict. */
export interface ReportInputs {
  version: string;
  /** Wall-clock ms when the gate started and when its reports are written. */
  startedAt: number;
  endedAt: number;
  /** Link to an issue from its id (--issue-url / SVC_ISSUE_URL). */
  issueUrl?: (id: string) => string;
  /** The SARIF report within the code-scanning limits (sarif-cap.ts); none: every result. */
  sarif?: SarifCap;
  /** Where every counted issue and expired policy entry is, for what the step summary leaves out (the --json-report file). */
  fullAt?: string;
}

export interface ReportKind {
  /** The option's flag; the row's key is its attribute (commands/gate/command.ts). */
  flag: string;
  /** The flag's earlier spelling: a hidden alias for one release (commands/gate/command.ts, options.ts). */
  oldFlag?: string;
  /** The option's help. */
  description: string;
  /** The text of the report of a decided gate. */
  text(v: GateVerdict, o: ReportInputs): string;
  /**
   * The same text in pieces, made as they are written (output/json-stream.ts), so that a report of
   * tens of thousands of issues is never whole in memory; what the gate writes when there is one.
   */
  chunks?(v: GateVerdict, o: ReportInputs): Iterable<string>;
  /** What is said on stderr once it is written. */
  wrote(v: GateVerdict, path: string, o?: ReportInputs): string;
  /** The text when the gate cannot decide; none: not written (an empty report would read as "no issues"). */
  undecided?(message: string, exitCode: number): string;
  /** It lists every counted issue (not only the breaking ones): the tally keeps them all. */
  everyIssue: boolean;
  /** It lists the issues the baseline and the policy took out of the count: the sieve keeps them. */
  siftedIssues: boolean;
  /**
   * It stands for every open issue found: host A's code scanning closes an alert an upload of its
   * category lacks, host B's merge request widgets and vulnerability report take an issue it lacks as
   * fixed. Not written from an incomplete listing (a FAIL proven on the pages read, run.ts), whose
   * list lacks the pages that could not be read (commands/gate/write-reports.ts).
   */
  wholeList?: true;
  /** Its CI variant: 'step-summary', also appended to the step summary of the CI the gate runs in (commands/gate/ci-reports.ts). */
  ciVariant?: 'step-summary';
  /** The text of its CI variant, when not `text`: the step summary's is capped (host A shows none of one past 1 MiB). */
  ciText?(v: GateVerdict, o: ReportInputs): string;
}

const json = (value: unknown, indent?: number) => JSON.stringify(value, null, indent) + '\n';
/** json(value, indent) in pieces: the same bytes. */
function* jsonPieces(value: unknown, indent?: number): Generator<string> {
  yield* jsonChunks(value, indent);
  yield '\n';
}
/** A list made as it is written (json-stream.ts), where a writer takes one as an array. */
const lazyList = <T>(make: () => Iterable<T>) => new LazyList(make) as unknown as T[];
const sarifOptions = (v: GateVerdict, o: ReportInputs, omitted?: { results: number; reason: string }) => ({ toolName: 'svc', toolVersion: o.version, baseline: !!v.sifted?.baseline, unchanged: v.sifted?.unchanged, suppressed: v.sifted?.suppressed, omitted });
/** The SARIF report's pieces for a verdict and what it leaves out (sarif-cap.ts measures them). */
export const sarifChunks = (v: GateVerdict, o: ReportInputs, omitted?: { results: number; reason: string }) =>
  jsonPieces(toSarif(v.result, { ...sarifOptions(v, o, omitted), lazyList: lazyList<SarifResult> }));
const sarifResults = (v: GateVerdict) => counted(v) + (v.sifted?.unchanged.length ?? 0) + (v.sifted?.suppressed.length ?? 0);
const capped = (o: ReportInputs) => (o.sarif && o.sarif.omitted > 0 ? { results: o.sarif.omitted, reason: o.sarif.reason } : undefined);
const counted = (v: GateVerdict) => v.result.issues.length;

/** The markdown summary's notes; `expired`: the most expired policy entries named (the step summary's). */
const summaryNotes = (v: GateVerdict, o: ReportInputs, expired?: number) => [
  ...(v.organization ? [organizationText(v.organization)] : []),
  ...siftedLines(v.sifted, v.result.counts.total, { expired, fullAt: o.fullAt }),
  ...sarifCapLine(o.sarif),
  ...doubtNotes(v),
];
/** Expired policy entries the step summary names one by one. */
const STEP_SUMMARY_EXPIRED = 20;

/**
 * Every open issue found in the scope: the counted ones, and those the baseline and --diff left out of
 * the count (not those the policy suppresses: an accepted risk is out of every report's list). Host B's
 * merge request widgets compare a pipeline's SAST and Code Quality reports with the target branch's:
 * an issue missing from the merge request's would read as fixed, and one only counted in it as new.
 */
function everythingFound(v: GateVerdict): GateVerdict['result'] {
  const sf = v.sifted;
  if (!sf || (sf.unchanged.length === 0 && sf.elsewhere.length === 0)) return v.result;
  const parts = [v.result.issues, sf.unchanged, sf.elsewhere];
  const issues = { length: parts.reduce((n, p) => n + p.length, 0), *[Symbol.iterator]() { for (const p of parts) yield* p; } };
  return { ...v.result, issues };
}

/** The report formats, in the order of `svc gate --help` and of writing. */
export const REPORT_KINDS = {
  sarif: {
    flag: '--sarif',
    description: 'Write a SARIF 2.1.0 report of every counted issue (the most severe 25,000 within code scanning limits)',
    // Within the code-scanning limits: the capped verdict (o.sarif, sarif-cap.ts) when there is one.
    text: (v, o) => json(toSarif((o.sarif?.verdict ?? v).result, sarifOptions(o.sarif?.verdict ?? v, o, capped(o)))),
    chunks: (v, o) => sarifChunks(o.sarif?.verdict ?? v, o, capped(o)),
    wrote: (v, path, o) => `wrote the SARIF report ${path} (${sarifResults(o?.sarif?.verdict ?? v)} results${o?.sarif?.omitted ? `, ${o.sarif.omitted} left out` : ''})`,
    everyIssue: true,
    siftedIssues: true,
    wholeList: true,
  },
  junit: {
    flag: '--junit',
    description: 'Write a JUnit XML report (a test case per issue, failures for breaking ones)',
    text: (v) => toJunit(v.result),
    chunks: (v) => junitChunks(v.result),
    wrote: (_v, path) => `wrote the JUnit report ${path}`,
    undecided: (message) => toJunitError(message),
    everyIssue: true,
    siftedIssues: false,
  },
  markdown: {
    flag: '--markdown',
    description: "Write a markdown summary (e.g. the CI's step-summary file)",
    // The file is whole (it is svc's own); the step summary's variant is capped.
    text: (v, o) => toMarkdown(v.result, summaryNotes(v, o)),
    wrote: (_v, path) => `wrote the markdown summary ${path}`,
    undecided: (message, exitCode) => toMarkdownError(message, exitCode),
    everyIssue: false,
    siftedIssues: false,
    ciVariant: 'step-summary',
    ciText: (v, o) => toMarkdown(v.result, summaryNotes(v, o, STEP_SUMMARY_EXPIRED), { cap: { bytes: STEP_SUMMARY_BYTES, fullAt: o.fullAt ?? '-o json or --json-report FILE' } }),
  },
  jsonReport: {
    flag: '--json-report',
    description: 'Write the verdict as JSON (what -o json prints) to a file, beside the summary',
    text: (v) => json(verdictData(v), 2),
    chunks: (v) => jsonPieces(verdictData(v, true), 2),
    wrote: (_v, path) => `wrote the JSON verdict ${path}`,
    undecided: (message, exitCode) => json({ passed: false, decided: false, exitCode, error: message }, 2),
    // -o json and --json-report list every counted issue (a later --baseline reads them back).
    everyIssue: true,
    siftedIssues: true,
  },
  sast: {
    flag: OUTSIDE_FORMATS.sast.flag,
    oldFlag: OUTSIDE_FORMATS.sast.oldFlag,
    description: `Write ${OUTSIDE_FORMATS.sast.name} (security report schema 15.x) of every open issue found (also those the baseline or --diff leave out of the count: the merge request widget compares it with the target branch's)`,
    text: (v, o) => json(toHostBSast(everythingFound(v), { toolVersion: o.version, startedAt: o.startedAt, endedAt: o.endedAt, issueUrl: o.issueUrl })),
    chunks: (v, o) => jsonPieces(toHostBSast(everythingFound(v), { toolVersion: o.version, startedAt: o.startedAt, endedAt: o.endedAt, issueUrl: o.issueUrl, lazyList })),
    wrote: (v, path) => `wrote ${OUTSIDE_FORMATS.sast.name} ${path} (${everythingFound(v).issues.length} vulnerabilities)`,
    everyIssue: true,
    siftedIssues: true,
    wholeList: true,
  },
  codeQuality: {
    flag: '--code-quality',
    description: `Write ${OUTSIDE_FORMATS.codeQuality.name} (JSON) of every open issue found (as the SAST report)`,
    text: (v) => json(toCodeQuality(everythingFound(v))),
    chunks: (v) => jsonPieces(toCodeQuality(everythingFound(v), { lazyList })),
    wrote: (v, path) => `wrote the Code Quality report ${path} (${everythingFound(v).issues.length} entries)`,
    everyIssue: true,
    siftedIssues: true,
    wholeList: true,
  },
} as const satisfies Record<string, ReportKind>;

export type ReportKey = keyof typeof REPORT_KINDS;
/** A file per report format given: as typed (GateOptions.reports), then resolved (commands/gate/report-paths.ts). */
export type ReportPaths = Partial<Record<ReportKey, string>>;

export const REPORT_KEYS = Object.keys(REPORT_KINDS) as ReportKey[];

export const kindOf = (key: ReportKey): ReportKind => REPORT_KINDS[key];

/** Where commander keeps the value of a report's flag given by its old spelling (commands/gate/command.ts, options.ts). */
export const oldFlagAttribute = (key: ReportKey) => `${key}ByOldFlag`;

/** What the tally and the sieve keep for the reports asked for. */
export function reportsKeep(paths: ReportPaths): { everyIssue: boolean; siftedIssues: boolean } {
  const given = REPORT_KEYS.filter((k) => paths[k] !== undefined).map(kindOf);
  return { everyIssue: given.some((k) => k.everyIssue), siftedIssues: given.some((k) => k.siftedIssues) };
}
