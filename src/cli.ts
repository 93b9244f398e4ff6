/** main(argv, host) -> exit code: parse, run, and turn every failure into one line and a documented code. */
import { CommanderError, type Command } from 'commander';
import type { Context, Host } from './context.js';
import { CliError, UsageError } from './errors.js';
import { EXIT } from './exit-codes.js';
import { buildProgram } from './commands/program.js';
import type { Runner } from './commands/runner.js';
import { GLOBAL_OPTIONS, commandWords, valueOptions, type GlobalOptions } from './commands/globals.js';
import { createContext } from './runtime.js';
import { ConfigStore } from './config/store.js';
import { configPath } from './config/paths.js';
import { scrub } from './http/redact.js';
import { stripControls } from './output/sanitize.js';

export async function main(argv: string[], host: Host): Promise<number> {
  let ctx: Context | undefined;
  let program: Command | undefined;
  let commanderMessage: string | undefined;
  const debug = argv.includes('--debug');
  const run: Runner = async (fn) => {
    ctx = createContext(host, program!.opts<GlobalOptions>());
    await ctx.config.prepare();
    await fn(ctx);
  };
  try {
    program = await buildProgram(argv, run, host.io, host.version, (m) => { commanderMessage = m; });
    // `svc` or `svc <group>` alone: the help of that level, on stdout, as a success.
    const words = commandWords(argv);
    if (words.length === 0 && !argv.some((a) => a === '-V' || a === '--version')) {
      // `svc --no-color` is asking for help; `svc --bogus` or `svc --output` (no value) is a mistake.
      const problem = globalsOnlyProblem(argv);
      if (problem) throw new UsageError(problem, "see 'svc --help'");
      program.outputHelp();
      return EXIT.OK;
    }
    const group = words.length === 1 ? program.commands.find((c) => c.name() === words[0] || c.aliases().includes(words[0])) : undefined;
    if (group && group.commands.length > 0 && !argv.some((a) => a === '-h' || a === '--help')) {
      group.outputHelp();
      return EXIT.OK;
    }
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.OK;
  } catch (err) {
    return report(err, host, ctx, debug, commanderMessage);
  } finally {
    if (!host.exitsAfterMain) await ctx?.close().catch(() => {});
  }
}

function report(err: unknown, host: Host, ctx: Context | undefined, debug: boolean, commanderMessage?: string): number {
  const secrets = knownSecrets(host, ctx);
  const say = (text: string) => host.io.stderr.write(scrub(stripControls(text), secrets) + '\n');
  if (err instanceof CommanderError) {
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0) return EXIT.OK;
    if (err.code === 'commander.help' || err.code === 'commander.executeSubCommandAsync') {
      // A group named without an operation: its help went to stderr; that is a usage error.
      return EXIT.USAGE;
    }
    const text = (commanderMessage ?? err.message).trim().replace(/^error: /, '').split('\n').map((l) => l.trim()).filter(Boolean).join(' ').replace(/\.$/, '');
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

/** What is wrong with an argv of global options only (no command), if anything. */
function globalsOnlyProblem(argv: readonly string[]): string | undefined {
  const takesValue = valueOptions();
  const known = new Set(['-h', '--help', ...GLOBAL_OPTIONS.flatMap((o) => o.flags.split(/[ ,]+/).filter((p) => p.startsWith('-')))]);
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].split(/=(.*)/s, 2);
    if (argv[i] === '--') break;
    if (!known.has(name)) return `unknown option '${name}'`;
    if (!takesValue.has(name)) continue;
    const value = inline ?? argv[++i];
    if (value === undefined) return `option '${name}' needs a value`;
    const choices = GLOBAL_OPTIONS.find((o) => o.flags.split(/[ ,]+/).includes(name))?.choices;
    if (choices && !choices.includes(value)) return `option '${name}' must be one of ${choices.join(', ')}, got '${value}'`;
  }
  return undefined;
}
