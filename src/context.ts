/**
 * What a command may touch of the world. `bin/svc.js` builds the real one from `process`; tests build
 * their own. Nothing below src/cli.ts reads `process.*` directly.
 */
import type { Readable, Writable } from 'node:stream';

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
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    const onAbort = () => { clearTimeout(timer); reject(signal?.reason); };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

import type { GlobalOptions } from './commands/globals.js';
import type { ConfigStore, Profile } from './config/store.js';
import type { Credentials, Target } from './config/resolve.js';
import type { Client } from './http/client.js';
import type { Format } from './output/formats.js';

/** What the run step of a command gets: the host plus parsed global options and lazy services. */
export interface Context extends Host {
  globals: GlobalOptions;
  profileName: string;
  config: ConfigStore;
  profile(): Profile | undefined;
  /** Data to stdout. */
  out(text: string): void;
  /** A line of chatter to stderr (controls stripped, secrets scrubbed). */
  note(line: string): void;
  warn(line: string): void;
  format(): Format;
  /** Colour on stdout / stderr. */
  color: boolean;
  target(): Target;
  credentials(): Credentials;
  organization(): { id?: string; from?: string };
  timeoutSec(): number;
  client(): Promise<Client>;
  /** Run `fn` under a spinner on stderr when it is a terminal. */
  spin<T>(text: string, fn: () => Promise<T>): Promise<T>;
  readStdin(): Promise<string>;
  /** Secrets known to this run, scrubbed from everything printed. */
  secrets(): string[];
  /** Make one more secret known (e.g. a token being logged in with), so it is scrubbed too. */
  addSecret?(secret: string): void;
  close(): Promise<void>;
}

/** Wall-clock time of a host: its own clock when it has one (tests), else the system's. */
export function wallClock(host: Pick<Host, 'wallNow'>): number {
  return host.wallNow ? host.wallNow() : Date.now();
}
