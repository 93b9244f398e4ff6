/** `svc issues triage`: the command (flags, help); the loop is run.ts, the screens screen.ts. */
import { Command, Option } from 'commander';
import type { Runner } from '../runner.js';
import { listParser, stringParser } from '../../request/values.js';
import { resolveRepositoryFields } from '../../request/repository-names.js';

const TRIAGE_SUMMARY = 'Walk the open issues on a terminal, highest score first, and act with single keys';

/** The stand-in the issues group lists (name and summary); completeTriage gives it flags and its run step. */
export function triageStandIn(): Command {
  return new Command('triage').description(TRIAGE_SUMMARY);
}

export function completeTriage(cmd: Command, run: Runner): Command {
  cmd.addOption(new Option('-R, --repository-ids <ids>', 'Only these repositories (ids, names, owner/name or URLs)').argParser(listParser('--repository-ids')));
  cmd.addOption(new Option('--search-query <text>', 'Only issues matching this text').argParser(stringParser('--search-query', true)));
  cmd.addHelpText('after', [
    '',
    'Keys:',
    '  f  false positive (asks the reason: required)',
    '  t  true positive',
    '  a  archive (asks the reason: optional)',
    '  p  generate a patch',
    '  s  skip',
    '  o  the issue as svc issues get shows it, in a pager',
    '  u  undo the last action; again for the one before',
    '  q  quit; Ctrl-C ends it too (exit 130)',
    '',
    'u goes back as many steps as were taken: a false positive is undone by mark-true-positive and an archive by unarchive (the undo each bulk action names in its help); a skip, a confirmation or a patch request goes back to that issue and says what stays (the API cannot withdraw a confirmation or a patch request).',
    '',
    "o pages with $SVC_PAGER, else $PAGER, else less when it is installed, else svc's own pager (space/b a page, j/k a line, g/G top/end, q back); an empty SVC_PAGER picks svc's own.",
    '',
    'Each action is sent at once; a summary is printed at the end. On a terminal only: scripts use the bulk commands (svc issues archive, mark-false-positive or mark-true-positive with --ids-from FILE or --where ... --yes).',
    '',
    'Example:',
    '  # Triage the open issues of one repository',
    '  $ svc issues triage -R payments-api',
  ].join('\n') + '\n');
  cmd.action(async (opts: { repositoryIds?: string[]; searchQuery?: string }) => {
    await run(async (ctx) => {
      // The loop (with the pager's node:child_process) only when triage runs: every issues command
      // loads this file for the stand-in.
      const { runTriage } = await import('./run.js');
      await runTriage(ctx, opts, (body) => resolveRepositoryFields(ctx, body, () => '--repository-ids'));
    });
  });
  return cmd;
}
