/**
 * `npm run demo` (package.json's script is `node scripts/demo.mjs`: test/e2e/npm-scripts.test.ts)
 * as a child process, and its default tour made once per test run (once-per-run.ts): the tour is
 * ~15 node processes (the demo, its sandbox, a dozen svc commands), and sandbox-command.test.ts (what
 * the tour shows) and demo-dialects.test.ts (the dialects' tours end as it does) read the same one.
 * `tourInProcess` walks the same tour (scripts/demo-tour.mjs, the demo's own steps) in this process.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCli, testHost, until } from './host.js';
import { cleanEnv } from './run-svc.js';
import { oncePerRun } from './once-per-run.js';
import { tempDir } from './temp.js';

const DEMO = resolve(__dirname, '../../scripts/demo.mjs');
const TOUR = pathToFileURL(resolve(__dirname, '../../scripts/demo-tour.mjs')).href;

export interface DemoRun { code: number | null; out: string }

/** `node scripts/demo.mjs ...args` in a clean environment: its exit code and stdout and stderr together. */
export function runDemo(args: string[]): Promise<DemoRun> {
  return new Promise((done, reject) => {
    const child = spawn(process.execPath, [DEMO, ...args], { env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => { out += d; });
    child.stderr.setEncoding('utf8').on('data', (d: string) => { out += d; });
    child.on('error', reject);
    child.on('close', (code) => done({ code, out }));
  });
}

let mine: Promise<DemoRun> | undefined;

/** The default tour (`npm run demo`, no arguments): run by the first file that asks, in this run. */
export function defaultTour(): Promise<DemoRun> {
  mine ??= oncePerRun('demo-tour', () => runDemo([]), () => tempDir('svc-demo-tour-'));
  return mine;
}

type Env = Record<string, string | undefined>;
interface TourIo {
  dialects: string[]; baseEnv: Env; configDir: string;
  say(line?: string): void; bold(s: string): string; dim(s: string): string;
  svc(args: string[], env: Env, capture: boolean): Promise<{ code: number; stdout: string }>;
}
interface TourModule { sandboxArgs(dialects: string[]): string[]; tour(info: unknown, io: TourIo): Promise<void> }

/**
 * The demo's tour with `--dialect ...dialects` as scripts/demo.mjs walks it, in this process: its
 * sandbox (the demo's `svc sandbox` arguments) and each step run through main(), as in a pipe. What
 * it prints, with each step's stdout then stderr, and the demo's exit code (1 and the error line
 * when a step ends outside its expected codes).
 */
export async function tourInProcess(dialects: string[]): Promise<DemoRun> {
  const { sandboxArgs, tour } = await import(TOUR) as TourModule;
  const sandboxHost = testHost();
  const sandbox = runCli(sandboxArgs(dialects), { host: sandboxHost });
  let ended = false;
  sandbox.then(() => { ended = true; }, () => { ended = true; });
  // A busy machine loads src/ slowly on the first call: a hang is what the test's own limit catches.
  await until(() => ended || sandboxHost.stdout.includes('\n'), "the sandbox's ready line", 60_000);
  if (ended) return { code: 1, out: `the sandbox ended before it was ready: ${sandboxHost.stderr}` };
  const info = JSON.parse(sandboxHost.stdout.slice(0, sandboxHost.stdout.indexOf('\n')));
  let out = '';
  const configDir = tempDir('svc-demo-');
  const io: TourIo = {
    dialects, baseEnv: { SVC_CONFIG_DIR: configDir }, configDir,
    say: (line = '') => { out += `${line}\n`; },
    bold: (s) => s,
    dim: (s) => s,
    async svc(args, env) {
      const r = await runCli(args, { env });
      out += r.stdout + r.stderr;
      return { code: r.code, stdout: r.stdout };
    },
  };
  let code = 0;
  try {
    await tour(info, io);
  } catch (err) {
    code = 1;
    out += `demo: error: ${(err as Error).message}\n`;
  } finally {
    sandboxHost.abort('SIGTERM');
    await sandbox;
  }
  return { code, out };
}
