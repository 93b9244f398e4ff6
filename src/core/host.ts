/**
 * What a command may touch of the world. `bin/svc.js` builds the real one from `process`; tests build
 * their own. Nothing below src/cli.ts reads `process.*` directly.
 */
import type { Readable, Writable } from 'node:stream';
import type { Dispatcher } from 'undici';

export type Env = Record<string, string | undefined>;

export interface IO {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  /**
   * stdout is a pipe: another program reads it (`| head`, `| less`) and may write to the same
   * terminal, where a spinner on stderr would end up mixed into its lines. No spinner then.
   */
  stdoutIsPipe?: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width, when stdout is a terminal. */
  columns?: number;
}

export interface Host {
  io: IO;
  env: Env;
  cwd: string;
  platform: NodeJS.Platform;
  version: string;
  nodeVersion: string;
  /** Monotonic milliseconds (for durations and pacing; not a date). */
  now(): number;
  /** Wall-clock milliseconds since the epoch (dates: --new-since, policy expiry, report times); default Date.now. */
  wallNow?(): number;
  random(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Aborted when the user interrupts (SIGINT/SIGTERM); `reason` names the signal. */
  signal: AbortSignal;
  /**
   * Work that still has something to finish and report after an interrupt (the bulk engine: its
   * calls in flight, then every record, the summary and --failed-to) holds the exit while it does:
   * the grace period after a signal does not cut it short. A second signal aborts `stop` (the work
   * then ends what it was finishing, and still reports); a third leaves at once. The real host has
   * it; without it (tests), nothing cuts the work short anyway.
   */
  hold?(): ExitHold;
  /**
   * The process exits as soon as main returns (the real host): main then leaves the HTTP client's
   * open connection to the exit rather than tearing it down (~1.5 ms of every call).
   */
  exitsAfterMain?: boolean;
  /**
   * The command's outcome is decided (e.g. the gate's verdict, before it is printed): if stdout is
   * closed from now on (`svc gate ... | head -1`), the process still exits with this code. Without a
   * settled code, a reader that goes away ends the process with 0 (it has read what it wanted).
   */
  settle?(code: number): void;
  /**
   * Where API requests go instead of the network: a test's undici MockAgent, so a command runs from
   * its flags to its rendered output in-process without a server. The real host leaves it out.
   */
  dispatcher?: Dispatcher;
}

interface ExitHold {
  /** Aborted by the second signal: stop finishing, report what is known. */
  stop: AbortSignal;
  release(): void;
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(timer); reject(signal?.reason); };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Wall-clock time of a host: its own clock when it has one (tests), else the system's. */
export function wallClock(host: Pick<Host, 'wallNow'>): number {
  return host.wallNow ? host.wallNow() : Date.now();
}

/**
 * A width a terminal or COLUMNS gives, when it is a positive whole number: 0 (docker exec -t, some CI
 * pseudo-terminals, serial consoles), a negative, NaN or an empty COLUMNS say nothing.
 */
export function givenWidth(value: unknown): number | undefined {
  const n = typeof value === 'string' ? (/^\s*\d+\s*$/.test(value) ? Number(value) : NaN) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** The width taken for a terminal that reports none (0 columns) when COLUMNS says none either. */
export const UNKNOWN_TERMINAL_WIDTH = 80;

/**
 * The one place svc reads a width (the arch test keeps it so). On a terminal: its own width
 * (read live, so a resize counts), else COLUMNS, else 80. Off a terminal: undefined (help stays at
 * 80 columns, errors on one line; tables see layoutWidth).
 */
export function terminalWidth(host: Pick<Host, 'io' | 'env'>, stream: 'stdout' | 'stderr' = 'stdout'): number | undefined {
  const { io } = host;
  if (!(stream === 'stdout' ? io.stdoutIsTTY : io.stderrIsTTY)) return undefined;
  const own = givenWidth((io[stream] as { columns?: unknown }).columns) ?? (stream === 'stdout' ? givenWidth(io.columns) : undefined);
  return own ?? givenWidth(host.env.COLUMNS) ?? UNKNOWN_TERMINAL_WIDTH;
}

/**
 * The width data on stdout is laid out for (tables, detail views): the terminal's (terminalWidth);
 * off a terminal COLUMNS when it is a positive whole number (`COLUMNS=200 svc ... -o table > file`),
 * else undefined (the layout's own default, 120).
 */
export function layoutWidth(host: Pick<Host, 'io' | 'env'>): number | undefined {
  return terminalWidth(host) ?? givenWidth(host.env.COLUMNS);
}
