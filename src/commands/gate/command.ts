/**
 * `svc gate`: pass or fail a build on the open issues in a scope. The scope flags are the issue
 * search's own (taken from its row, so they stay in sync); the run step is in run.ts.
 */
import { Command, Option } from 'commander';
import { scans } from '../../operations/scans.js';
import { addFlagOptions } from '../operation/command.js';
import { stringParser } from '../../request/values.js';
import type { Runner } from '../runner.js';
import { MAX_FLAGS, scopeSpecs } from './scope-flags.js';
import { hint } from '../../completion/hints.js';
import { REPORT_KEYS, REPORT_KINDS, oldFlagAttribute, type ReportKind } from '../../gate/reports/registry.js';
import { LEVELS } from '../../operations/levels.js';
import { ciRows, OUTSIDE_FORMATS, PROVIDERS } from '../../ci/providers.js';

/** The CIs and providers as their users know them (the providers table). */
const ciName = (kind: 'hosta' | 'hostb') => ciRows().find((r) => r.kind === kind)!.name;
const SAST = OUTSIDE_FORMATS.sast.flag;

/** An option whose value is stored under `attribute` (a report row's key), whatever its flag's words. */
function stored(option: Option, attribute: string): Option {
  option.attributeName = () => attribute;
  return option;
}

/**
 * The gate's help after its flags: one paragraph, row or example a line, never wrapped by hand (the
 * fitter, help-layout.ts, wraps them to the terminal; a row's description hangs under itself).
 */
const HELP = `
Exit codes (fail closed: never 0 unless every id of the scope exists, its scan (and with --commit a scan of that commit) has finished, every open issue was fetched, no answer left a doubt that could hide a breaking issue, and every threshold held):
    0  passed
    1  a threshold was broken, or the scan failed
    2  bad flags (nothing sent)
    3  not authenticated
    4  an id of the scope does not exist, or no scan of the --commit commit
    5  the service rejected a request as wrong (400, 409, 422...): fix what it names
    6  network, 5xx, 429: retry later
    7  incomplete or unreadable listing, or no PASS (below)
    8  the scan is still queued or running, or none of the --commit commit yet (add --wait)
    9  a report or stdout could not be written
   70  an internal error (--debug shows the stack)
  130  interrupted
  143  terminated (SIGTERM: a cancelled CI job)

What the gate does not trust (docs/security.md, the table of checks): a doubt blocks only what it could make wrong. A breaking issue read in scope FAILs (exit 1), even when a later page could not be read (the summary says the listing was incomplete).
    7  no PASS: a doubt that could hide a breaking issue: counts above the listing (categoryCounts of open > totalCount; --counts wide, or counts: wide in the policy file, when the service counts a wider scope), an issue or a scan outside the scope asked for (by its repository too: not counted), a status word svc does not know, several pages without counts, no totalCount, an error beside the data; and no verdict at all on an answer svc cannot read (a 2xx other than 200, not JSON, a key given twice with two values) or a listing that changed while it was read
    -  counted, fail closed, and named: an issue of another status than open (or none), a score that is missing or not 0-100 (as critical), a createdAt that is no date-time (with --new-since: as new)
    8  a scan whose status and finished-flags disagree (a status word svc does not know is done when its flags say so; with none it is exit 7)
    2  a policy that is there but cannot be read; a policy rule or fingerprint that names no one thing; --commit under 7 hex digits; a report file that is one of the inputs (--baseline, --policy, the config file): before anything is sent

Scope: every id is looked up before counting: the organization (orgs list), --repository-ids and --project-id (repositories list), --scan-id (scans list: it must have finished), --rule-id (it must have found an issue of some status: the API has no rule lookup). Filters (--vulnerability-classes, --languages, --code-scan-types, --search-query) name nothing to look up and are not checked.

Levels come from each issue's score (0-100): critical >= 90, high >= 70, medium >= 40, low >= 10, info below (the service dashboard's cut-offs; change them with --levels). An issue without a score (or with one that is not a number from 0 to 100) counts as critical, and is named.

Output: a summary on stdout (counts per level, thresholds, verdict, the issues that break the gate), also in CI logs; -o json gives the verdict as data: {passed, counts, thresholds, violations, breaking, scope, fetched, totalCount, categoryCounts (what they are taken to count), doubts, issues, with a baseline unchanged, with a policy suppressed}. -o csv lists the breaking issues. --annotations adds workflow-command lines (::error file=...,line=...::; ##vso[task.logissue ...] where the CI uses logging commands) after the summary: the most severe within the runner's limits (10 errors, 10 warnings and 10 notices per step, 50 per job, counted across the job's steps), then one note of how many are left out and where the full list is.

--sarif keeps within code scanning's limits (25,000 results per run, 10 MB gzip-compressed): above either, the most severe results, the number left out and why said on stderr, in the summary and in the run's properties.svc. Reports are written whole or not at all; when the gate cannot be decided, JUnit, markdown and --json-report files say so ({"passed": false, "decided": false, "exitCode", "error"}) and no SARIF, ${SAST} or --code-quality file is written: one an earlier run left at that path is removed (said in one line). A report that cannot be written (a full disk) is said on stderr, the others are still written, and a failing verdict keeps exit 1 with its summary; a passing one is exit 9 (2 for a wrong path), without a PASSED summary.

Gating on what a change adds:
  --baseline FILE     issues present in an earlier run's --sarif or --json-report file do not count (matched by id, else by rule + file + title); the summary says "N new, M already in the baseline"; SARIF marks baselineState, JSON lists issues and unchanged.
  --new-since WHEN    only issues created after WHEN (an issue without a date counts: fail closed).
  --commit SHA|auto   what the service's scan of SHA found (auto: the commit the CI built; in a pull request build its head, so the pull request's own scan is judged). The scan is the finished one scans list gives with that commit (its commit field is an inference: scanTargetBranchCommitSha or commitSha); the gate counts its open issues, so a clean scan of the head passes. --wait waits for it (a pull request's scan starts when the head is pushed), up to --wait-timeout: exit 8 after. Without --wait: exit 8 while it runs, exit 4 when there is none yet. PR scanning off for the repository (isPrScanningEnabled false): exit 4, naming svc repos set-pr-scanning. A service whose scans name no commit: the issues that name SHA (codeScan.scanTargetBranchCommitSha) and their scans decide instead.

Gating a pull request on the lines it touches:
  --diff BASE         only issues on lines the change adds or modifies: git diff of the merge base of BASE and HEAD (--diff-work-tree: and the work tree; with --commit: up to that commit, the pull request's head where HEAD is a merge the CI made); auto: the pull request's base (origin/<base branch>, or the CI's base commit). --diff-scope files: the whole of every changed file. The summary says "N in this change, M elsewhere (not counted)"; JSON lists issues and elsewhere; SARIF leaves the others out. An issue without a file or line counts; a base git cannot resolve (shallow clone) or no repository is exit 2 with the fix (fetch-depth: 0, git fetch origin <branch>).
  --comment           the summary as one comment on the pull (or merge) request, edited on every later run; tokens: ${PROVIDERS.hosta.tokenVariable} (or the runner's token), ${PROVIDERS.hostb.tokenVariable}, ${PROVIDERS.hostc.tokenVariable}. A comment that cannot be posted is a warning; the exit code is the verdict's.

Policy file (.svc-policy.yml in the current directory, or --policy FILE; YAML or JSON):
  version: 1
  fail-on: high                    # as --fail-on
  max: { critical: 0, high: 5 }    # as --max-*, total too
  levels: { critical: 90, high: 70, medium: 40, low: 10 }
  counts: wide                     # as --counts (a service counting wider)
  ignore:
    - id: iss_123                  # or fingerprint, or rule and/or path
      reason: "accepted, SEC-42"   # required
      expires: 2027-03-01          # required; through that day (UTC)
  A flag replaces only its own setting of the file. Ignored issues are not counted and are listed as suppressed (SARIF suppressions with the reason); an expired entry is reported and counts again. A mistake in the file is exit 2 naming the line. svc policy ignore|unignore|list|prune edits the ignore list from the command line (its other lines and comments kept).

In CI (detected from its variables, which svc help environment lists; --no-ci turns it off):
  ${ciName('hosta').padEnd(17)}the markdown summary is appended to the job's step summary (earlier content kept), annotations are printed without --annotations, the list of breaking issues folds in a group.
  ${ciName('hostb').padEnd(17)}the list folds in a collapsible section; ${SAST} and --code-quality write the report formats its merge requests show.
  any CI           a progress line every 5 seconds, no spinner. --repository auto and --commit auto read the repository and commit the CI builds; in a pull request build whose commit is a merge the CI made, --commit auto is the pull request's head (${PROVIDERS.hosta.name}: the event file's head sha; ${PROVIDERS.hostb.name}'s merged results pipelines: its head variable).

Examples:
  # A pull request on the lines it touches, by the service's scan of its head, with one comment on it
  $ svc gate --repository auto --commit auto --wait --fail-on high --diff auto --comment
  # A pull request on what it adds: issues not in the main branch's last report
  $ svc gate --repository auto --fail-on high --baseline main.sarif --sarif svc.sarif
  # ${PROVIDERS.hostb.name}'s merge request widgets
  $ svc gate --repository auto --fail-on high ${SAST} sast-report.json --code-quality code-quality-report.json
  # Fail on any open high or critical issue; a SARIF report for code scanning
  $ svc gate --fail-on high --sarif svc.sarif
  # The issues of one scan: at most 0 critical and 5 high
  $ svc gate --scan-id "$SCAN_ID" --max-critical 0 --max-high 5 --junit svc-junit.xml
  # Summary into the CI's step-summary file, annotations on the changed lines
  $ svc gate --repository-ids repo_1 --fail-on critical --markdown "$STEP_SUMMARY_FILE" --annotations
`;

export function gateCommand(run: Runner, cmd = new Command('gate')): Command {
  cmd
    .description('Pass or fail a build on the open issues in a scope (for CI)')
    .helpCommand(false);
  const specs = scopeSpecs();
  const attribute = addFlagOptions(cmd, specs);
  // Completed as a choice; parsed by options.ts (gate/policy.ts parseLevel) (case-insensitive, with its own message).
  cmd.addOption(hint(new Option('--fail-on <level>', `Fail when any open issue is at this level or above: ${LEVELS.join(', ')}`), { kind: 'choice', values: LEVELS }));
  for (const key of MAX_FLAGS) {
    cmd.addOption(new Option(`--max-${key} <n>`, key === 'total' ? 'Fail when there are more than n open issues in all' : `Fail when there are more than n open ${key} issues`));
  }
  cmd.option('--levels <cutoffs>', 'Score cut-offs, e.g. critical=90,high=70,medium=40,low=10 (default: those)');
  for (const key of REPORT_KEYS) {
    const kind = REPORT_KINDS[key] as ReportKind;
    cmd.addOption(stored(new Option(`${kind.flag} <file>`, kind.description), key));
    // A flag's earlier spelling: still read, for one release, and not shown (options.ts says it is renamed).
    if (kind.oldFlag !== undefined) cmd.addOption(stored(new Option(`${kind.oldFlag} <file>`).hideHelp(), oldFlagAttribute(key)));
  }
  cmd.option('--annotations', `Print annotations (::error file=...,line=...::, or ##vso[task.logissue] with logging commands) on stdout, the most severe within the runner's limits (default on ${ciName('hosta')} and with logging commands)`);
  cmd.option('--comment', "Post the summary as one comment on the CI's pull request, edited on every run (never changes the exit code)");
  cmd.option('--no-annotations', `No annotations, also on ${ciName('hosta')}`);
  cmd.option('--baseline <file>', 'Count only issues not in this earlier report (the --sarif or --json-report file of a previous run)');
  cmd.option('--new-since <when>', 'Count only issues created after a date (2026-11-01), a date-time or a duration back from now (7d, 12h)');
  // Ids, like the scope flags: no control character (a `\r` from CRLF output would be sent).
  cmd.addOption(new Option('--commit <sha>', "Judge the service's scan of this commit (a sha or prefix; auto: the commit the CI built for review, a pull request's head); with --wait, wait for it; none yet: exit 4").argParser(stringParser('--commit')));
  cmd.option('--diff <base>', "Count only issues on lines the change adds or modifies: git diff of the merge base of <base> and HEAD (auto: the pull request's base)");
  cmd.addOption(hint(new Option('--diff-scope <scope>', 'With --diff: lines (an issue meets a changed line; default) or files (its file changed)'), { kind: 'choice', values: ['lines', 'files'] }));
  cmd.option('--diff-work-tree', 'With --diff: the work tree too (uncommitted and untracked files)');
  cmd.option('--policy <file>', 'Policy file: thresholds and accepted risks (default: .svc-policy.yml in the current directory, when present)');
  cmd.addOption(new Option('--repository <id|url|auto>', "Scope to one repository: its id, its URL, or auto (the CI's own repository), resolved with repos resolve-by-url").argParser(stringParser('--repository')));
  cmd.option('--issue-url <template>', 'Link of an issue in reports, {id} replaced by its id (default: SVC_ISSUE_URL)');
  // --wait, --poll-interval, --wait-timeout: the very options of `scans start --wait` (its row).
  for (const extra of scans.find((op) => op.name === 'start')!.followUp!.options) {
    const description = extra.flags === '--wait' ? 'With --scan-id or --commit: wait until the scan (of that commit: once it appears) finishes instead of exit 8; exit 1 if it fails' : extra.description.replace(/, exit 6/, ', exit 8');
    cmd.addOption(new Option(extra.flags, description));
  }
  cmd.addOption(hint(new Option('--counts <scope>', "What the service's categoryCounts count: narrow (the search's scope, svc's inference; default) or wide (a wider scope, e.g. the organization's: then counts above totalCount are no sign of a listing that left issues out); policy file: counts: wide"), { kind: 'choice', values: ['narrow', 'wide'] }));
  cmd.option('--page-size <n>', 'Issues per request, 1 to 5000 (default 500)');
  cmd.option('--concurrency <n>', 'Requests in flight, 1 to 16 (default 4)');
  cmd.addHelpText('after', HELP);
  cmd.action(async (_opts: unknown, command: Command) => {
    await run(async (ctx) => {
      // The gate's run (yaml policies, baseline, reports) is evaluated when the gate runs, not for its help.
      const { parseGateOptions } = await import('./options.js');
      const { runGate } = await import('./run.js');
      await runGate(ctx, parseGateOptions(command.opts(), { specs, attribute }));
    });
  });
  return cmd;
}
