/** `svc sandbox`: run the local stand-in of the service in the foreground until Ctrl-C / SIGTERM. */
import { Command, Option } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { isLoopback } from '../../http/base-url.js';
import type { Runner } from '../runner.js';
import { parseNumberFlag } from '../../request/number-flag.js';
import { FAULT_KINDS } from '../../sandbox/faults.js';
import { startSandbox } from '../../sandbox/index.js';
import { DEFAULTS } from '../../sandbox/options.js';
import { terminalWidth } from '../../core/host.js';
import { fitText } from '../../output/fit-text.js';
import { commandLines } from '../../output/text-width.js';


interface SandboxFlags {
  port?: string;
  host?: string;
  seed?: string;
  repos?: string;
  issues?: string;
  state?: string;
  tokenId?: string;
  tokenSecret?: string;
  scanDuration?: string;
  patchDelay?: string;
  latency?: string;
  failRate?: string;
  fault?: string;
  quiet?: boolean;
}

export function sandboxCommand(run: Runner, cmd = new Command('sandbox')): Command {
  return cmd
    .description('Run a local stand-in of the service with seeded data (no account or network needed)')
    // Defaults said in the description, as every other flag here says them ("(default 42)"):
    // commander's own would read (default: "8787").
    .option('--port <n>', `Port to listen on; 0 picks a free one (default ${DEFAULTS.port})`)
    .option('--host <address>', `Address to listen on (keep it on loopback: the token is well known) (default ${DEFAULTS.host})`)
    .option('--seed <seed>', 'Seed of the generated data: same seed, same data (default 42)')
    .option('--repos <n>', 'Repositories to generate (default 12)')
    .option('--issues <n>', 'Issues to generate (default 400; 100000 works)')
    .option('--state <file>', 'Keep the data in this JSON file across restarts (default: in memory)')
    .option('--token-id <id>', "Token id to accept (default: the sandbox's own test token)")
    .option('--token-secret <secret>', "Token secret to accept (default: the sandbox's own test secret)")
    .option('--scan-duration <ms>', 'How long a started scan runs before it completes (default 1500)')
    .option('--patch-delay <ms>', 'How long generate-patch takes before the patch appears (default 1000)')
    .option('--latency <ms>', 'Delay every API answer by this many milliseconds')
    .option('--fail-rate <p>', 'Fail this share (0-1) of API requests with a random 500/502/503 or 429 (seeded)')
    .addOption(new Option('--fault <kind>', 'Fail every API request the same way').choices(FAULT_KINDS))
    .option('--quiet', 'Do not log each request on stderr')
    .addHelpText('after', [
      '',
      'Prints the base URL and an `export SVC_BASE_URL=... SVC_API_TOKEN_ID=... SVC_API_TOKEN_SECRET=...` line to paste into another shell (as one JSON object with -o json). The token is a fixed, sandbox-only test value.',
      'Faults and latency can also be changed while it runs: POST /__sandbox/faults {"fault":"500"} (loopback only).',
      '',
      'Examples:',
      '  # A sandbox on port 8787; paste the export line into another shell',
      '  $ svc sandbox',
      '  # A free port, a big data set, kept across restarts',
      '  $ svc sandbox --port 0 --issues 100000 --state sandbox.json',
      '  # Test a script against a flaky service',
      '  $ svc sandbox --fail-rate 0.2 --latency 300',
    ].join('\n') + '\n')
    .action((o: SandboxFlags) => run((ctx) => runSandbox(ctx, o)));
}

function whole(v: string | undefined, flag: string, max: number): number | undefined {
  return v === undefined ? undefined : parseNumberFlag(v, { flag, whole: true, min: 0, max });
}

async function runSandbox(ctx: Context, flags: SandboxFlags): Promise<void> {
  const o = { ...flags, host: flags.host ?? DEFAULTS.host, port: flags.port ?? String(DEFAULTS.port) };
  const failRate = o.failRate === undefined ? undefined : parseNumberFlag(o.failRate, { flag: '--fail-rate', min: 0, max: 1 });
  const options = {
    host: o.host,
    port: whole(o.port, '--port', 65535),
    seed: o.seed,
    repos: whole(o.repos, '--repos', 10_000),
    issues: whole(o.issues, '--issues', 1_000_000),
    statePath: o.state,
    tokenId: o.tokenId,
    tokenSecret: o.tokenSecret,
    scanDurationMs: whole(o.scanDuration, '--scan-duration', 3_600_000),
    patchDelayMs: whole(o.patchDelay, '--patch-delay', 3_600_000),
    latencyMs: whole(o.latency, '--latency', 600_000),
    failRate,
    fault: o.fault as never,
    log: o.quiet ? undefined : (line: string) => ctx.note(line),
  };
  if (o.tokenId === '' || o.tokenSecret === '') throw new UsageError('--token-id and --token-secret must not be empty');
  if (!isLoopback(o.host)) ctx.warn(`listening on ${o.host}, not loopback: anyone who can reach it can use the well-known sandbox token`);

  const started = ctx.now();
  let sb: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sb = await startSandbox(options);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') throw new UsageError(`port ${o.port} on ${o.host} is already in use`, 'pick another with --port, or --port 0 for a free one');
    if (e.code === 'EADDRNOTAVAIL' || e.code === 'EACCES') throw new UsageError(`cannot listen on ${o.host}:${o.port} (${e.code})`, 'check --host and --port');
    throw new UsageError(e.message, o.state ? 'fix or delete the state file, or choose another --state' : undefined);
  }
  const store = sb.state;
  const data = `${store.repos.length} repositories, ${store.issues.length} issues`;
  if (ctx.format() === 'json' || ctx.format() === 'ndjson') {
    ctx.out(JSON.stringify({
      baseUrl: sb.url, tokenId: sb.tokenId, tokenSecret: sb.tokenSecret, organizationId: sb.organizationId ?? null,
      port: sb.port, seed: store.params.seed, repositories: store.repos.length, issues: store.issues.length,
      state: o.state ?? null, loadedFrom: sb.loadedFrom,
    }) + '\n');
  } else {
    const where = o.state ? `state file ${o.state}${sb.loadedFrom === 'state' ? ' (loaded; --seed, --repos and --issues are ignored)' : ''}` : 'in memory';
    const comments = [
      `# svc sandbox on ${sb.url}: seed ${store.params.seed}, ${data}, ${where}`,
      "# The token below is the sandbox's own test token: it opens this sandbox and nothing else.",
    ].join('\n');
    const exports = `export SVC_BASE_URL=${sb.url} SVC_API_TOKEN_ID=${sb.tokenId} SVC_API_TOKEN_SECRET=${sb.tokenSecret}`;
    // On a terminal the block is fitted to its width and still pastes into a shell: comments go on as
    // comments, the export line continues with ` \`. In a pipe each stays one line (scripts read it).
    const width = terminalWidth(ctx);
    ctx.out(width
      ? `${fitText(comments, width)}\n${commandLines(exports, width, '').join('\n')}\n`
      : `${comments}\n${exports}\n`);
    ctx.note(`Ready in ${((ctx.now() - started) / 1000).toFixed(1)} s; Ctrl-C stops the sandbox. Try: svc issues search --types open`);
  }

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) return resolve();
    ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await sb.close();
  if (!o.quiet) ctx.note(`sandbox stopped${o.state ? `; state saved to ${o.state}` : ''}`);
}
