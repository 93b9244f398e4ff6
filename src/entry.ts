/** The process boundary: builds the real Host from `process` and runs main. Imported by bin/svc.js. */
import { fstatSync } from 'node:fs';
import type { Host } from './core/host.js';
import { sleep } from './core/host.js';
import { abortListed, listedController } from './core/abort.js';
import { knownSecrets, main } from './cli.js';
import { EXIT } from './core/exit-codes.js';
import { scrub } from './http/redact.js';
import { escapeLogCommands, stripControls } from './core/sanitize.js';
import { logParsesCommands } from './ci/log-guard.js';
import { eraseSpinners } from './terminal/spinners.js';
import { stdoutFailureText } from './output/write.js';

declare const __SVC_VERSION__: string | undefined;

/**
 * The version of package.json this script was built from (scripts/build.mjs): bin/svc.js passes it
 * to runProcess instead of reading package.json in every call. Undefined outside the build.
 */
export const builtVersion: string | undefined = typeof __SVC_VERSION__ === 'string' ? __SVC_VERSION__ : undefined;

/** How long work that does not listen to the abort signal gets after Ctrl-C / SIGTERM. */
const SIGNAL_GRACE_MS = 1000;
/**
 * After a signal, how many SIGNAL_GRACE_MS in a row the output must not move for its reader to count
 * as stopped (svc then leaves). One second was too short for a reader that is alive but slowed (a
 * loaded machine, a consumer doing work per line): in one full test run on a loaded 2-core machine,
 * the slow reader of 1,000 bulk records in test/e2e/signals.test.ts got 594, with exit 130, which only
 * this watch explains. A pager left open now holds svc ~3 s after the signal instead of ~1 s.
 */
const STALL_CHECKS = 3;

/**
 * bin/svc.js's fast paths (`--version`, top-level help) when stdout could not be written (not EPIPE:
 * the shim leaves with 0 itself): the line and the code runProcess gives such a failure.
 */
export function stdoutFailed(err: NodeJS.ErrnoException): never {
  try { process.stderr.write(`svc: error: ${stdoutFailureText(err)}\n`); } catch { /* stderr gone too */ }
  process.exit(EXIT.OUTPUT);
}

export async function runProcess(version: string): Promise<void> {
  // Every request in flight listens to the one interrupt signal: the engines that send them
  // concurrently (--all, bulk actions, the gate's count) raise its listener limit to their
  // concurrency (listing/all-pages.ts allowListeners); everything else holds a few at a time, under
  // node's 10. (Raised here for every call, it cost ~0.3 M instructions.)
  // (Its listeners added by onAbort(), the HTTP client's, in a list of svc's own: core/abort.ts.)
  const controller = listedController();
  const env = process.env;
  // Last resort: one line, the documented code, no stack trace (unless --debug), no secret.
  const die = (err: unknown) => {
    const e = err instanceof Error ? err : new Error(String(err));
    const debug = process.argv.includes('--debug');
    const text = `svc: internal error: ${e.message || e.name} (this is a bug; run again with --debug for the stack trace)${debug && e.stack ? `\n${e.stack}` : ''}`;
    // Outside main()'s guarded streams: on a CI whose log acts on commands, escaped here (ci/log-guard.ts).
    const clean = stripControls(text);
    const line = logParsesCommands(env) ? escapeLogCommands(clean) : clean;
    try { process.stderr.write(scrub(line, knownSecrets({ env, platform: process.platform })) + '\n'); } catch { /* stderr gone */ }
    process.exit(EXIT.INTERNAL);
  };
  process.on('uncaughtException', die);
  process.on('unhandledRejection', die);
  // undici's SOCKS5 proxy agent prints node's two-line ExperimentalWarning on every call through a
  // socks5:// proxy, which svc supports and documents: left out, so stderr holds only svc's own lines.
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(typeof warning === 'string' ? warning : warning?.message).startsWith('SOCKS5 proxy support is experimental')) return;
    (emitWarning as (...a: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;

  // Work that holds the exit after a signal (Host.hold: the bulk engine reporting every id), and
  // whether main has returned (the output is then only being flushed).
  const holds = new Set<AbortController>();
  let graceOver = false;
  let mainReturned = false;
  const signalCode = () => (controller.signal.reason === 'SIGTERM' ? EXIT.TERMINATED : EXIT.INTERRUPTED);
  const leave = () => {
    eraseSpinners();
    process.exit(signalCode());
  };
  // After a signal, once main has returned, what is left is its output reaching the reader: a reader
  // that is still reading gets all of it (a bulk run's records), but one that stopped reading (a
  // paused pipe, a pager left open) does not hold svc: when nothing of the output moved for
  // STALL_CHECKS grace periods in a row, svc leaves with the signal's code.
  let stallWatch: ReturnType<typeof setInterval> | undefined;
  const leaveWhenStalled = () => {
    if (stallWatch) return;
    const pending = () => process.stdout.writableLength + process.stderr.writableLength;
    let last = pending();
    let still = 0;
    stallWatch = setInterval(() => {
      const now = pending();
      still = now === last ? still + 1 : 0;
      if (still >= STALL_CHECKS) leave();
      last = now;
    }, SIGNAL_GRACE_MS);
    stallWatch.unref();
  };
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    if (mainReturned) leaveWhenStalled();
    if (controller.signal.aborted) {
      // A second signal: what a holder was finishing stops (it still reports); otherwise, or a
      // third time, leave now.
      const held = [...holds].filter((h) => !h.signal.aborted);
      if (held.length && !mainReturned) { for (const h of held) h.abort(signal); return; }
      leave();
    }
    // Requests in flight, retry waits and stdin reads listen to this and end at once (main then
    // returns the code); whatever does not listen gets a short grace period, unless it holds the
    // exit. Once main has returned, what is left is its output reaching the reader: not cut short.
    abortListed(controller, signal);
    setTimeout(() => {
      graceOver = true;
      if (holds.size === 0 && !mainReturned) leave();
    }, SIGNAL_GRACE_MS).unref();
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  // The code the work decided, once it has (see Host.settle); main's own code when it returns.
  let settled: number | undefined;
  // A write error on stdout other than a closed pipe (disk full, `> /dev/full`, an I/O error): the
  // output is lost, but the work goes on to its verdict; the rest of the output is dropped (a stream
  // that failed would never drain) and the failure is reported once at the end (exit 9, or the
  // command's own failing code: a failed gate still exits 1).
  let outputFailure: NodeJS.ErrnoException | undefined;
  const drop = (stream: NodeJS.WriteStream) => {
    stream.write = ((_chunk: unknown, enc?: unknown, cb?: unknown) => {
      const done = typeof enc === 'function' ? enc : cb;
      if (typeof done === 'function') process.nextTick(done as () => void);
      return true;
    }) as typeof stream.write;
  };
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    // The reader went away (`svc ... | head`): stop writing, erase the spinner, and leave with the
    // code the work decided (a failed gate stays 1), or 0 for a read whose reader has had enough.
    if (err.code === 'EPIPE') {
      eraseSpinners();
      process.exit(settled ?? (controller.signal.aborted ? signalCode() : 0));
    }
    outputFailure ??= err;
    drop(process.stdout);
  });
  // stderr gone (`2>&1 | head`, a closed terminal): the work goes on and still decides the code;
  // what it would have said is lost, never the verdict.
  process.stderr.on('error', () => { drop(process.stderr); });
  const host: Host = {
    io: {
      stdout: process.stdout,
      stderr: process.stderr,
      // Made on first use: most commands never read stdin, and making the stream costs ~1 ms.
      get stdin() { return process.stdin; },
      stdoutIsTTY: process.stdout.isTTY === true,
      // Asked only where a spinner could be drawn (stderr a terminal): one fstat.
      get stdoutIsPipe() {
        try { return fstatSync(1).isFIFO(); } catch { return false; }
      },
      stderrIsTTY: process.stderr.isTTY === true,
      // Asked only where a question could be asked: node:tty (~0.5 M instructions to load) is not loaded by a call in a pipe.
      get stdinIsTTY() { return process.getBuiltinModule('node:tty').isatty(0); },
      columns: process.stdout.isTTY ? process.stdout.columns : undefined,
    },
    env,
    cwd: process.cwd(),
    platform: process.platform,
    version,
    nodeVersion: process.version,
    // Monotonic milliseconds; `performance.now()` would load perf_hooks (~1 ms) on every call.
    now: () => Number(process.hrtime.bigint()) / 1e6,
    wallNow: Date.now,
    random: Math.random,
    sleep,
    signal: controller.signal,
    hold: () => {
      const stop = new AbortController();
      holds.add(stop);
      return {
        stop: stop.signal,
        release: () => {
          holds.delete(stop);
          // The grace period ran out while held: what is left of main gets a new one.
          if (graceOver && holds.size === 0 && !mainReturned) setTimeout(leave, SIGNAL_GRACE_MS).unref();
        },
      };
    },
    exitsAfterMain: true,
    settle: (code) => { settled = code; },
  };
  const code = await main(process.argv.slice(2), host);
  mainReturned = true;
  if (controller.signal.aborted) leaveWhenStalled();
  // A reader that goes away while the last output is flushed does not change the code.
  settled = code;
  // Leave as soon as the output is flushed rather than when every timer and socket has wound down
  // (process.exit below does not wait for them). Interrupted too: what svc wrote (a bulk run's
  // records of what it did) reaches a reader that is still reading before the exit; another signal
  // leaves at once, and a reader that goes away ends the wait (EPIPE, above).
  // Only a stream with output still waiting is waited for (a pipe to a slow reader on a system where
  // pipes are asynchronous); otherwise (pipes, files and terminals are written at once here) one turn
  // of the tick queue, so that an error a write raised is reported first, as it was before an empty
  // write's callback: that write cost every call ~0.3 M instructions.
  const waiting = [process.stdout, process.stderr].filter((s) => s.writableLength > 0);
  await (waiting.length > 0
    ? Promise.all(waiting.map((s) => new Promise<void>((r) => s.write('', () => r()))))
    : new Promise<void>((r) => process.nextTick(r)));
  // Said once: the command may have stopped on it already (OutputFailedError, exit 9).
  if (outputFailure && code !== EXIT.OUTPUT) {
    try { process.stderr.write(`svc: error: ${stdoutFailureText(outputFailure)}\n`); } catch { /* stderr gone too */ }
    process.exit(code === EXIT.OK ? EXIT.OUTPUT : code);
  }
  process.exit(code);
}

