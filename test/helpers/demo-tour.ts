/**
 * `npm run demo` (package.json's script is `node scripts/demo.mjs`: test/e2e/npm-scripts.test.ts)
 * as a child process, and its default tour made once per test run (once-per-run.ts): the tour is
 * ~15 node processes (the demo, its sandbox, a dozen svc commands), and sandbox-command.test.ts (what
 * the tour shows) and demo-dialects.test.ts (the dialects' tours end as it does) read the same one.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { cleanEnv } from './run-svc.js';
import { oncePerRun } from './once-per-run.js';
import { tempDir } from './temp.js';

const DEMO = resolve(__dirname, '../../scripts/demo.mjs');

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
