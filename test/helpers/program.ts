/** The commander tree built in-process, with help output captured (no process, no network). */
import { Readable, Writable } from 'node:stream';
import { CommanderError, type Command } from 'commander';
import { buildProgram } from '../../src/commands/program.js';
import type { IO } from '../../src/core/host.js';

export interface Built {
  program: Command;
  /** Everything `cmd.outputHelp()` writes. */
  helpOf(cmd: Command): string;
  /** The command at a path of names or aliases. */
  find(...path: string[]): Command;
}

/**
 * The tree after commander parsed `argv` (with a run step that does nothing), so that what is
 * loaded is what that command line loads: ['completion'] loads every group.
 */
export async function built(argv: string[] = ['completion']): Promise<Built> {
  let captured = '';
  const sink = new Writable({ write(chunk, _enc, done) { captured += String(chunk); done(); } });
  const io: IO = { stdout: sink, stderr: sink, stdin: Readable.from([]), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false };
  const program = buildProgram(async () => {}, io, '0.0.0', () => {});
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
  }
  return {
    program,
    helpOf(cmd) {
      captured = '';
      cmd.outputHelp();
      return captured;
    },
    find(...path) {
      let cmd = program;
      for (const w of path) {
        const next = cmd.commands.find((c) => c.name() === w || c.aliases().includes(w));
        if (!next) throw new Error(`no command '${path.join(' ')}'`);
        cmd = next;
      }
      return cmd;
    },
  };
}
