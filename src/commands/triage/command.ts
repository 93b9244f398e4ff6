/** `svc issues triage`: the command (flags, help); the loop is run.ts, the screens screen.ts. */
import { Command, Option } from 'commander';
import type { Runner } from '../runner.js';
import { listParser, stringParser } from '../../request/values.js';
import { resolveRepositoryFields } from '../../request/repository-names.js';
import { runTriage } from './run.js';

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
    '  f  false positive (asks the reason)',
    '  t  true positive',
    '  a  archive (asks the reason)',
    '  p  generate a patch',
    '  s  skip',
    '  o  the full record',
    '  u  undo the last archive (issues/unarchive)',
    '  q  quit; Ctrl-C ends it too (exit 130)',
    '',
    'Each action is sent at once; a summary is printed at the end. On a terminal only: scripts use the bulk commands (svc issues archive, mark-false-positive or mark-true-positive with --ids-from FILE or --where ... --yes).',
    '',
    'Example:',
    '  # Triage the open issues of one repository',
    '  $ svc issues triage -R payments-api',
  ].join('\n') + '\n');
  cmd.action(async (opts: { repositoryIds?: string[]; searchQuery?: string }) => {
    await run(async (ctx) => {
      await runTriage(ctx, opts, (body) => resolveRepositoryFields(ctx, body, () => '--repository-ids'));
    });
  });
  return cmd;
}
