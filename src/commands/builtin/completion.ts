/**
 * `svc completion bash|zsh|fish`: print a completion script generated from the command tree.
 * `svc __complete profiles` (hidden): the profile names, for the scripts to offer after --profile.
 */
import { Argument, Command } from 'commander';
import type { Runner } from '../runner.js';
import { checkProfileName } from '../../config/store.js';
import { INSTALL, INSTALL_NOTE, SHELLS, type Shell } from '../../completion/shells.js';
import { completionScript } from '../../completion/generate.js';

export function completionCommand(run: Runner, cmd = new Command('completion')): Command {
  return cmd
    .description('Print the shell completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'the shell to complete in').choices(SHELLS))
    .addHelpText('after', [
      '', 'The script is static (fast); only profile names after --profile are read when TAB is pressed.', '',
      'Install:',
      ...SHELLS.flatMap((s) => [`  # ${INSTALL_NOTE[s]}`, `  $ ${INSTALL[s]}`]),
      '', 'Example:', '  # Try it in the current bash session', '  $ source <(svc completion bash)',
    ].join('\n') + '\n')
    .action((shell: Shell, _options: unknown, command: Command) => run(async (ctx) => {
      ctx.out(completionScript(shell, command.parent!));
    }));
}

/** Only names svc accepts: a hand-edited file cannot feed shell syntax to the completion scripts. */
function validName(name: string): boolean {
  try { return checkProfileName(name) === name; } catch { return false; }
}

/** Hidden helper the completion scripts call; reads the config file, never writes, prints nothing on errors. */
export function completeCommand(run: Runner, cmd = new Command('__complete')): Command {
  return cmd
    .description('Values for the completion scripts (profiles)')
    .argument('<what>', 'profiles')
    .action((what: string) => run(async (ctx) => {
      if (what !== 'profiles') return;
      let names: string[] = [];
      try { names = Object.keys(ctx.config.read().profiles).filter(validName); } catch { /* a corrupt file completes nothing */ }
      if (names.length) ctx.out(names.sort().join('\n') + '\n');
    }));
}
