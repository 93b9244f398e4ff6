/**
 * The action's entry (action.yml: `runs.using: node24`, `main: dist/action.cjs`): the runner runs
 * this file with its own Node, from the release tree it downloaded for `uses:` (bin/, dist/ and the
 * one runtime package, no install, no build). It runs bin/svc.js with the same Node, as a child with
 * the step's environment and the job's log as its stdout and stderr, then writes the step's outputs.
 *
 * Exit code: svc's (0 passed, 1 failed, 2 and above undecided), except that `fail-job: false` turns
 * a failing verdict into 0. An input that cannot be used (an `args` line a shell would expand) is
 * exit 2 before svc runs, said as an error annotation.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ACTION_RUNNER } from '../ci/providers.js';
import { EXIT } from '../core/exit-codes.js';
import { escapeData, escapeProperty } from '../gate/reports/annotations.js';
import { appendWhole } from '../output/write-file.js';
import { ArgsError } from './args.js';
import { outputFileText, outputsOf } from './outputs.js';
import { planOf, type Plan } from './plan.js';

const command = (kind: 'error' | 'warning', title: string, message: string) => `::${kind} title=${escapeProperty(title)}::${escapeData(message)}\n`;

function readOrUndefined(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Runs svc with the plan's arguments; resolves with its exit code. Signals to this process go to svc. */
function runSvc(svc: string, argv: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [svc, ...argv], { stdio: ['ignore', 'inherit', 'inherit'] });
    const forward = (signal: NodeJS.Signals) => () => { child.kill(signal); };
    const onInt = forward('SIGINT');
    const onTerm = forward('SIGTERM');
    process.on('SIGINT', onInt).on('SIGTERM', onTerm);
    child.on('error', (err) => {
      process.stderr.write(`svc action: could not run ${svc}: ${err.message}\n`);
      resolve(EXIT.INTERNAL);
    });
    child.on('close', (code, signal) => {
      process.off('SIGINT', onInt).off('SIGTERM', onTerm);
      resolve(code ?? (signal === 'SIGINT' ? EXIT.INTERRUPTED : signal === 'SIGTERM' ? EXIT.TERMINATED : EXIT.INTERNAL));
    });
  });
}

async function main(): Promise<number> {
  const env = process.env;
  const outputFile = env[ACTION_RUNNER.outputFile];
  if (!outputFile) {
    process.stderr.write(`svc action: ${ACTION_RUNNER.outputFile} is not set: this file runs as the action of a workflow step (action.yml), not on its own; run bin/svc.js instead\n`);
    return EXIT.USAGE;
  }
  let plan: Plan;
  try {
    plan = planOf(env, existsSync);
  } catch (err) {
    if (!(err instanceof ArgsError)) throw err;
    process.stdout.write(command('error', 'svc action: input refused', err.message));
    await appendWhole(outputFile, outputFileText({ 'exit-code': String(EXIT.USAGE), verdict: 'undecided' }));
    return EXIT.USAGE;
  }
  if (plan.warning) process.stdout.write(command('warning', plan.warning.title, plan.warning.message));
  const code = await runSvc(join(__dirname, '..', 'bin', 'svc.js'), plan.argv);
  // Appended in one write, as the runner's other writers of the file do.
  await appendWhole(outputFile, outputFileText(outputsOf(plan, code, readOrUndefined)));
  return code === EXIT.GATE_FAILED && !plan.failJob ? EXIT.OK : code;
}

main().then((code) => { process.exitCode = code; }, (err: unknown) => {
  process.stderr.write(`svc action: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = EXIT.INTERNAL;
});
