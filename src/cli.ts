/** main(argv, host) -> exit code: parse, run, and turn every failure into one line and a documented code. */
import { CommanderError, type Command } from 'commander';
import type { Context } from './context.js';
import type { GlobalOptions } from './core/global-options.js';
import { terminalWidth, type Host } from './core/host.js';
import { CliError } from './core/errors.js';
import { EXIT } from './core/exit-codes.js';
import { buildProgram } from './commands/program.js';
import type { Runner } from './commands/runner.js';
import { createContext } from './runtime.js';
import { ConfigStore } from './config/store.js';
import { configPath } from './config/paths.js';
import { scrub } from './http/redact.js';
import { stripControls } from './core/sanitize.js';
import { fitText } from './output/fit-text.js';
import { guardHost } from './ci/log-guard.js';

export async function main(argv: string[], given: Host): Promise<number> {
  // On a CI whose log acts on commands, nothing written can form one (help, data, errors alike).
  const host = guardHost(given);
  let ctx: Context | undefined;
  let program: Command | undefined;
  let commanderError: { message: string; cmd: Command } | undefined;
  const debug = argv.includes('--debug');
  const run: Runner = async (fn) => {
    const c = createContext(host, program!.opts<GlobalOptions>());
    ctx = c;
    await c.config.prepare();
    try {
      await fn(c);
    } finally {
      // One warning line per kind of doubt the run's answers raised and nothing said yet (answers/doubts.ts).
      for (const line of c.doubts.take(c.globals.verbose === true)) {
        if (line.startsWith('  ')) c.note(line);
        else c.warn(line);
      }
    }
  };
  try {
    program = buildProgram(run, host.io, host.version, (message, cmd) => { commanderError = { message, cmd }; }, host.env, argv);
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.OK;
  } catch (err) {
    // svc's own wording and suggestions for commander's error (suggest.ts), loaded only when there is one.
    const said = commanderError && err instanceof CommanderError ? (await import('./commands/suggest.js')).explainCommanderError(commanderError.message, commanderError.cmd) : commanderError?.message;
    return report(err, host, ctx, debug, said);
  } finally {
    if (!host.exitsAfterMain) await ctx?.close().catch(() => {});
  }
}

function report(err: unknown, host: Host, ctx: Context | undefined, debug: boolean, commanderMessage?: string): number {
  const secrets = knownSecrets(host, ctx);
  // On a terminal an error wraps at its width (between words); in a pipe it stays one line for logs and grep.
  const width = terminalWidth(host, 'stderr');
  const fit = (text: string) => (width ? fitText(text, width) : text);
  const say = (text: string) => host.io.stderr.write(fit(scrub(stripControls(text), secrets)) + '\n');
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0) return EXIT.OK;
    // `svc` or `svc <group>` alone: commander showed that level's help (on stdout, see
    // buildProgram): what the user asked for.
    if (err.code === 'commander.help') return EXIT.OK;
    const text = (commanderMessage ?? err.message).trim().replace(/^error: /, '').split('\n').map((l) => l.trim()).filter(Boolean).join(' ').replace(/\.$/, '');
    // An argument parser of svc's own says what was wrong itself (`unknown setting 'org' (did you mean ...)`).
    const own = /^command-argument value '.*?' is invalid for argument '.*?'\. (unknown .*)$/.exec(text);
    if (own) { say(`svc: error: ${own[1]}`); return EXIT.USAGE; }
    const where = /unknown command/.test(text) ? "; run 'svc --help' for the commands" : "; see the command's --help";
    say(`svc: error: ${text}${/--help/.test(text) ? '' : where}`);
    return EXIT.USAGE;
  }
  if (err instanceof CliError) {
    say(`svc: error: ${err.message}${err.hint ? `; ${err.hint}` : ''}`);
    if (debug && err.stack) say(err.stack);
    return err.exitCode;
  }
  const e = err instanceof Error ? err : new Error(String(err));
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    // Only data can nest deep enough for this: a response (or --input) nested thousands of levels.
    say('svc: error: the data is nested too deeply to process; check the response with --verbose, or the --input file');
    if (debug && e.stack) say(e.stack);
    return EXIT.BAD_RESPONSE;
  }
  say(`svc: internal error: ${e.message || e.name} (this is a bug; run again with --debug for the stack trace)`);
  if (debug && e.stack) say(e.stack);
  return EXIT.INTERNAL;
}

/** Every secret this run knows of, even when the context could not be built (bad flags, corrupt config). */
export function knownSecrets(host: Pick<Host, 'env' | 'platform'>, ctx?: Context): string[] {
  const s = [host.env.SVC_API_TOKEN_SECRET];
  try {
    s.push(...(ctx ? ctx.secrets() : new ConfigStore(configPath(host.env, host.platform)).storedSecrets()));
  } catch { /* nothing more to hide */ }
  return s.filter((x): x is string => !!x);
}
