/**
 * Run the CLI in-process: `testHost()` is the Host a test hands to `main()` (captured stdout/stderr,
 * injected env, TTY flags and width, an isolated config dir, an abort signal, a clock), and
 * `runCli(argv, opts)` runs `main(argv, host)` and returns `{ code, stdout, stderr }`.
 *
 *   const r = await runCli(['issues', 'search', '-o', 'json'], { env: sb.env });
 *   expect(r.code, r.stderr).toBe(0);
 *
 *   const host = testHost({ env: fake.env });          // to act while it runs
 *   const running = runCli(['issues', 'search', '--all'], { host });
 *   await fake.waitForRequests(1);
 *   host.abort('SIGINT');
 *   expect((await running).code).toBe(130);
 */
import { readFileSync } from 'node:fs';
import { PassThrough, Readable, Writable } from 'node:stream';
import { main } from '../../src/cli.js';
import { sleep as realSleep, type Host } from '../../src/core/host.js';
import type { Dispatcher } from 'undici';
import { tempDir } from './temp.js';

/** The package's version, as bin/svc.js passes it. */
export const VERSION: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;

export interface TestHostOptions {
  /** Over the base env `{ SVC_CONFIG_DIR: <temp dir>, HOME: <temp dir> }`; a value of undefined removes a variable. */
  env?: Record<string, string | undefined>;
  /** What stdin holds (ended). Default: empty. Pass a Readable to feed it yourself. */
  stdin?: string | Buffer | Readable;
  /** Terminal flags: `true` makes all three streams terminals. Default: none (pipes, like CI). */
  tty?: boolean | { stdout?: boolean; stderr?: boolean; stdin?: boolean };
  /** Terminal width (also the streams' `columns`); default 100 when stdout or stderr is a terminal. */
  columns?: number;
  cwd?: string;
  platform?: NodeJS.Platform;
  /**
   * `'fake'`: `now()` starts at 0 and only moves when the CLI sleeps (or `advance()`); sleeps end at
   * once and are recorded in `sleeps`. Default `'real'`: the process clock and real sleeps.
   */
  clock?: 'real' | 'fake';
  /** Default: package.json's version. */
  version?: string;
  /** Where API requests go instead of the network (an undici MockAgent): see Host.dispatcher. */
  dispatcher?: Dispatcher;
  /**
   * An existing folder to be SVC_CONFIG_DIR and HOME instead of a new temporary one per host: for many
   * runs that never write there (help screens), which then skip making and removing a folder each.
   */
  configDir?: string;
}

export interface TestHost extends Host {
  /** Everything written to stdout / stderr so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** The isolated config dir (SVC_CONFIG_DIR), removed when the test ends. */
  configDir: string;
  /** Interrupt the run as Ctrl-C ('SIGINT', the default) or SIGTERM would. */
  abort(signal?: 'SIGINT' | 'SIGTERM'): void;
  /** With `clock: 'fake'`: every sleep the CLI asked for, in ms. */
  sleeps: number[];
  /** With `clock: 'fake'`: move the clock forward. */
  advance(ms: number): void;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  host: TestHost;
}

/** A Writable that keeps what is written; as a terminal it also has the tty stream's cursor methods. */
function capture(isTTY: boolean, columns: number | undefined): { stream: Writable; text: () => string } {
  let text = '';
  const stream = new Writable({ write(chunk, _enc, done) { text += String(chunk); done(); } });
  if (isTTY) {
    const esc = (s: string, cb?: () => void) => { text += s; cb?.(); return true; };
    Object.assign(stream, {
      isTTY: true,
      columns,
      rows: 24,
      cursorTo: (x: number, y?: unknown, cb?: () => void) => esc(`\x1b[${x + 1}G`, typeof y === 'function' ? (y as () => void) : cb),
      moveCursor: (dx: number, dy: number, cb?: () => void) => esc(`${dy < 0 ? `\x1b[${-dy}A` : dy > 0 ? `\x1b[${dy}B` : ''}${dx ? `\x1b[${dx}C` : ''}`, cb),
      clearLine: (dir: number, cb?: () => void) => esc(dir < 0 ? '\x1b[1K' : dir > 0 ? '\x1b[0K' : '\x1b[2K', cb),
      getColorDepth: () => 8,
      hasColors: () => true,
    });
  }
  return { stream, text: () => text };
}

export function testHost(o: TestHostOptions = {}): TestHost {
  const tty = typeof o.tty === 'object' ? o.tty : { stdout: !!o.tty, stderr: !!o.tty, stdin: !!o.tty };
  const columns = o.columns ?? (tty.stdout || tty.stderr ? 100 : undefined);
  const out = capture(!!tty.stdout, columns);
  const err = capture(!!tty.stderr, columns);
  let stdin: Readable;
  if (o.stdin instanceof Readable) stdin = o.stdin;
  else {
    const p = new PassThrough();
    p.end(o.stdin ?? '');
    stdin = p;
  }
  if (tty.stdin) Object.assign(stdin, { isTTY: true, setRawMode: () => stdin });

  const configDir = o.configDir ?? tempDir('svc-host-');
  const env: Record<string, string | undefined> = { SVC_CONFIG_DIR: configDir, HOME: configDir };
  for (const [k, v] of Object.entries(o.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }

  const controller = new AbortController();
  const fake = o.clock === 'fake';
  let clock = 0;
  const sleeps: number[] = [];
  return {
    io: {
      stdout: out.stream,
      stderr: err.stream,
      stdin,
      stdoutIsTTY: !!tty.stdout,
      stderrIsTTY: !!tty.stderr,
      stdinIsTTY: !!tty.stdin,
      columns: tty.stdout ? columns : undefined,
    },
    env,
    cwd: o.cwd ?? process.cwd(),
    platform: o.platform ?? process.platform,
    version: o.version ?? VERSION,
    nodeVersion: process.version,
    now: fake ? () => clock : () => performance.now(),
    random: Math.random,
    sleep: fake
      ? async (ms, signal) => {
        if (signal?.aborted) throw signal.reason;
        sleeps.push(ms);
        clock += ms;
      }
      : realSleep,
    signal: controller.signal,
    get stdout() { return out.text(); },
    get stderr() { return err.text(); },
    configDir,
    abort: (signal = 'SIGINT') => controller.abort(signal),
    sleeps,
    advance: (ms) => { clock += ms; },
    ...(o.dispatcher ? { dispatcher: o.dispatcher } : {}),
  };
}

/** `main(argv, host)` in this process; `host` (or one made from `opts`) collects the output. */
export async function runCli(argv: string[], opts: TestHostOptions & { host?: TestHost } = {}): Promise<CliResult> {
  const host = opts.host ?? testHost(opts);
  const code = await main(argv, host);
  return { code, stdout: host.stdout, stderr: host.stderr, host };
}

/** Resolves once `check()` is true (polled every 5 ms); rejects after `timeoutMs` naming `what`. */
export async function until(check: () => boolean, what = 'the condition', timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
