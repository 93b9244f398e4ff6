/**
 * `svc gate`: pass or fail a build on the open issues in a scope. The scope flags are the issue
 * search's own (taken from its row, so they stay in sync); the run step is in run.ts.
 */
import { Command, Option } from 'commander';
import { issues } from '../operations/issues.js';
import { scans } from '../operations/scans.js';
import type { Operation } from '../operations/types.js';
import { flagSpecs, type FlagSpec } from '../commands/operation/flags.js';
import { addFlagOptions } from '../commands/operation/command.js';
import type { Runner } from '../commands/runner.js';

/** Request fields of the issue search that scope the gate (it always searches `types: ["open"]`). */
export const SCOPE_FIELDS = [
  'organizationId', 'repositoryIds', 'scanId', 'projectId', 'codeScanTypes',
  'vulnerabilityClasses', 'languages', 'ruleId', 'searchQuery',
] as const;

export const MAX_FLAGS = ['critical', 'high', 'medium', 'low', 'info', 'total'] as const;

export function searchOperation(): Operation {
  return issues.find((op) => op.name === 'search')!;
}

export function scopeSpecs(): FlagSpec[] {
  const shape = searchOperation().request.shape;
  return flagSpecs(Object.fromEntries(SCOPE_FIELDS.map((k) => [k, shape[k]])));
}

export interface GateFlags {
  specs: FlagSpec[];
  attribute: Map<FlagSpec, string>;
}

const HELP = `
Exit codes (fail closed: never 0 unless every id of the scope exists, its scan has finished, every
open issue was fetched and every threshold held):
  0  passed                1  a threshold was broken, or the scan failed    2  bad flags (nothing sent)
  3  not authenticated     4  an id of the scope does not exist             6  network, 5xx, 429: retry later
  7  incomplete or unreadable listing          8  the scan is still queued or running (add --wait)
  130  interrupted

Scope: every id is looked up before counting: the organization (orgs list), --repository-ids and
--project-id (repositories list), --scan-id (scans list: it must have finished), --rule-id (it must
have found an issue of some status: the API has no rule lookup). Filters (--vulnerability-classes,
--languages, --code-scan-types, --search-query) name nothing to look up and are not checked.

Levels come from each issue's score (0-100): critical >= 90, high >= 70, medium >= 40, low >= 10,
info below (the service dashboard's cut-offs; change them with --levels). An issue without a score
counts as critical.

Output: a summary on stdout (counts per level, thresholds, verdict, the issues that break the gate),
also in CI logs; -o json gives the verdict as data: {passed, counts, thresholds, violations, breaking,
scope, fetched, totalCount}. -o csv lists the breaking issues. --annotations adds workflow-command lines
(::error file=...,line=...::) after the summary, at most 50. Reports are written whole or not at all;
when the gate cannot be decided, JUnit, markdown and --json-report files say so ({"passed": false,
"decided": false, "exitCode", "error"}) and no SARIF file is written.

Examples:
  # Fail when any open issue is high or critical; a SARIF report for the code-scanning view
  $ svc gate --fail-on high --sarif svc.sarif
  # The issues of one scan: at most 0 critical and 5 high
  $ svc gate --scan-id "$SCAN_ID" --max-critical 0 --max-high 5 --junit svc-junit.xml
  # Summary into the CI's step-summary file, annotations on the changed lines
  $ svc gate --repository-ids repo_1 --fail-on critical --markdown "$STEP_SUMMARY_FILE" --annotations
`;

export function gateCommand(run: Runner): Command {
  const cmd = new Command('gate')
    .description('Pass or fail a build on the open issues in a scope (for CI)')
    .helpCommand(false);
  const specs = scopeSpecs();
  const attribute = addFlagOptions(cmd, specs);
  cmd.option('--fail-on <level>', 'Fail when any open issue is at this level or above: critical, high, medium, low, info');
  for (const key of MAX_FLAGS) {
    cmd.addOption(new Option(`--max-${key} <n>`, key === 'total' ? 'Fail when there are more than n open issues in all' : `Fail when there are more than n open ${key} issues`));
  }
  cmd.option('--levels <cutoffs>', 'Score cut-offs, e.g. critical=90,high=70,medium=40,low=10 (default: those)');
  cmd.option('--sarif <file>', 'Write a SARIF 2.1.0 report of every counted issue');
  cmd.option('--junit <file>', 'Write a JUnit XML report (a test case per issue, failures for breaking ones)');
  cmd.option('--markdown <file>', "Write a markdown summary (e.g. the CI's step-summary file)");
  cmd.option('--json-report <file>', 'Write the verdict as JSON (what -o json prints) to a file, beside the summary');
  cmd.option('--annotations', 'Print workflow-command annotations (::error file=...,line=...::) on stdout, at most 50');
  // --wait, --poll-interval, --wait-timeout: the very options of `scans start --wait` (its row).
  for (const extra of scans.find((op) => op.name === 'start')!.followUp!.options) {
    const description = extra.flags === '--wait' ? 'With --scan-id: wait until the scan finishes instead of exit 8 while it is queued or running; exit 1 if it fails' : extra.description.replace(/, exit 6/, ', exit 8');
    cmd.addOption(new Option(extra.flags, description));
  }
  cmd.option('--page-size <n>', 'Issues per request, 1 to 5000 (default 500)');
  cmd.option('--concurrency <n>', 'Requests in flight, 1 to 16 (default 4)');
  cmd.addHelpText('after', HELP);
  cmd.action(async (_opts: unknown, command: Command) => {
    await run(async (ctx) => {
      const { runGate } = await import('./run.js');
      await runGate(ctx, { specs, attribute }, command.opts());
    });
  });
  return cmd;
}
