/**
 * Runs git as a child process: no shell (execFile, arguments as a list), a timeout, output in memory.
 *
 * The environment git gets is the caller's minus every `GIT_*` variable: those can point git at
 * another repository or work tree (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY,
 * GIT_COMMON_DIR), add configuration (GIT_CONFIG_PARAMETERS, GIT_CONFIG_COUNT/KEY_n/VALUE_n,
 * GIT_CONFIG_GLOBAL) or run programs (GIT_EXTERNAL_DIFF, GIT_PAGER). svc reads the repository its
 * working directory is in, as `git -C <cwd>` finds it, and nothing else. Set on top:
 * GIT_TERMINAL_PROMPT=0 (never wait for a password), GIT_OPTIONAL_LOCKS=0 (a read takes no index
 * lock), LC_ALL=C (messages in English), GIT_CONFIG_NOSYSTEM is not set (the system's
 * safe.directory settings still apply).
 */
import { execFile } from 'node:child_process';
import type { Env } from '../core/host.js';

/** How long one git command may take. */
const GIT_TIMEOUT_MS = 60_000;
/** Most output read from one git command (a diff of a very large change). */
const MAX_OUTPUT = 512 * 1024 * 1024;

export interface GitResult {
  ok: boolean;
  stdout: string;
  stderr: string;
  /** Exit code, or undefined when git did not run or was stopped. */
  code?: number;
  /** Why git did not run or finish: not installed, timed out, output too large. */
  failure?: 'missing' | 'timeout' | 'too-large' | 'other';
}

/** The environment git runs with (see above). */
export function gitEnv(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !/^GIT_/i.test(k)) out[k] = v;
  out.GIT_TERMINAL_PROMPT = '0';
  out.GIT_OPTIONAL_LOCKS = '0';
  out.LC_ALL = 'C';
  return out;
}

export function runGit(args: readonly string[], o: { cwd: string; env: Env; timeoutMs?: number; signal?: AbortSignal }): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile('git', ['-C', o.cwd, ...args], {
      cwd: o.cwd,
      env: gitEnv(o.env),
      timeout: o.timeoutMs ?? GIT_TIMEOUT_MS,
      maxBuffer: MAX_OUTPUT,
      encoding: 'utf8',
      windowsHide: true,
      shell: false,
      signal: o.signal,
    }, (err, stdout, stderr) => {
      if (!err) return resolve({ ok: true, stdout, stderr });
      const e = err as NodeJS.ErrnoException & { code?: string | number; killed?: boolean; signal?: string };
      if (e.code === 'ENOENT') return resolve({ ok: false, stdout: '', stderr: '', failure: 'missing' });
      if (e.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return resolve({ ok: false, stdout: '', stderr: '', failure: 'too-large' });
      if (e.killed || e.signal) return resolve({ ok: false, stdout, stderr, failure: 'timeout' });
      if (typeof e.code === 'number') return resolve({ ok: false, stdout, stderr, code: e.code });
      resolve({ ok: false, stdout, stderr, failure: 'other' });
    });
  });
}
