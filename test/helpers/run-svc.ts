/** Spawn the built bin/svc like a user's shell would, with a clean, isolated environment. */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { tempDir } from './temp.js';
import { ciRows, sourceNames } from '../../src/ci/providers.js';

export const BIN = resolve(__dirname, '../../bin/svc.js');

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  cwd?: string;
  timeoutMs?: number;
}

/** A fresh config directory per call unless SVC_CONFIG_DIR is given. */
export function tempConfigDir(): string {
  return tempDir('svc-test-cfg-');
}

const CI_VARIABLES = new Set(ciRows().flatMap((row) => [
  row.marker.variable, ...Object.values(row.fields).flatMap((source) => sourceNames(source!)), ...(row.vcsFrom ? [row.vcsFrom.variable] : []),
]));

/** Environment with nothing of the developer's own svc settings, proxies or colour forcing. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^SVC_/.test(k) || /^(HTTPS?_PROXY|NO_PROXY|https?_proxy|no_proxy|FORCE_COLOR|NO_COLOR|CI)$/.test(k)) continue;
    // The CI this suite runs in is not the one a test sets up: every variable of the providers table goes.
    if (CI_VARIABLES.has(k) || /^(CI_|GITHUB_|RUNNER_|BITBUCKET_|CONTINUOUS_INTEGRATION$|BUILD_NUMBER$)/.test(k)) continue;
    env[k] = v;
  }
  env.SVC_CONFIG_DIR ??= tempConfigDir();
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Any program (bash with a pipeline, a pty driver), its environment as given; svc runs as $SVC when the env says so. */
export function runProgram(cmd: string, args: string[], opts: { env: Record<string, string | undefined>; cwd?: string; timeoutMs?: number; input?: string }): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const stdin: 'ignore' | 'pipe' = opts.input === undefined ? 'ignore' : 'pipe';
    const child = spawn(cmd, args, { env: opts.env, cwd: opts.cwd ?? process.cwd(), stdio: [stdin, 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code, signal, stdout, stderr });
    });
    // A program that exits without reading its stdin closes the pipe: EPIPE here is not the test's concern.
    child.stdin?.on('error', () => {});
    if (opts.input !== undefined) child.stdin!.end(opts.input);
  });
}

export function runSvc(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return runProgram(process.execPath, [BIN, ...args], { env: cleanEnv(opts.env), cwd: opts.cwd, timeoutMs: opts.timeoutMs ?? 20_000, input: opts.input ?? '' });
}
