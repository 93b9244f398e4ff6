/** The process boundary: builds the real Host from `process` and runs main. Imported by bin/svc.js. */
import type { Host } from './context.js';
import { sleep } from './context.js';
import { main } from './cli.js';
import { EXIT } from './exit-codes.js';

export async function runProcess(version: string): Promise<void> {
  const controller = new AbortController();
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    const code = signal === 'SIGTERM' ? EXIT.TERMINATED : EXIT.INTERRUPTED;
    if (controller.signal.aborted) process.exit(code);
    controller.abort(signal);
    // Whatever is not listening to the signal gets a moment to clean up, then we leave.
    setTimeout(() => process.exit(code), 1500).unref();
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
      throw err;
    });
  }
  const host: Host = {
    io: {
      stdout: process.stdout,
      stderr: process.stderr,
      stdin: process.stdin,
      stdoutIsTTY: process.stdout.isTTY === true,
      stderrIsTTY: process.stderr.isTTY === true,
      stdinIsTTY: process.stdin.isTTY === true,
      columns: process.stdout.isTTY ? process.stdout.columns : undefined,
    },
    env: process.env,
    cwd: process.cwd(),
    platform: process.platform,
    version,
    nodeVersion: process.version,
    now: () => performance.now(),
    random: Math.random,
    sleep,
    signal: controller.signal,
  };
  const code = await main(process.argv.slice(2), host);
  // Leave as soon as the output is flushed rather than when every timer and socket has wound down.
  await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((r) => s.write('', () => r()))));
  process.exit(code);
}
