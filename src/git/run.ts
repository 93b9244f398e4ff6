/**
 * Runs git as a child process: no shell (execFile, arguments as a list), a timeout, output in memory.
 *
 * What svc parses is fixed on git's command line, whatever the user's configuration says: command-line
 * options and `-c` beat every configuration file and variable. Here: no pager (`--no-pager`), paths in
 * git's quoted form (`core.quotePath=true`); the diff's own options are in src/git/change.ts.
 *
 * The environment git gets is the caller's minus the `GIT_*` variables that point git at another
 * repository or work tree (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, GIT_OBJECT_DIRECTORY,
 * GIT_COMMON_DIR, GIT_CEILING_DIRECTORIES...), change its output (GIT_DIFF_OPTS) or run programs
 * (GIT_EXTERNAL_DIFF, GIT_PAGER, GIT_ASKPASS...): svc reads the repository its working directory is
 * in, as `git -C <cwd>` finds it. The user's configuration is read where git reads it, as for any
 * git command the user runs: ~/.gitconfig, or the file GIT_CONFIG_GLOBAL names, the system file
 * (GIT_CONFIG_SYSTEM, GIT_CONFIG_NOSYSTEM) and the `-c` settings of GIT_CONFIG_COUNT/KEY_n/VALUE_n and
 * GIT_CONFIG_PARAMETERS. That is where `safe.directory` lives (git reads it from those scopes only, never
 * from the repository), so a CI job that marks its checkout safe that way is obeyed. Set on top:
 * GIT_TERMINAL_PROMPT=0 (never wait for a password), GIT_OPTIONAL_LOCKS=0 (a read takes no index
 * lock), LC_ALL=C (messages in English, so svc can tell them apart; LANGUAGE is dropped too).
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

/** Options of git itself before every command (see above). */
const GIT_OPTIONS = ['--no-pager', '-c', 'core.quotePath=true'];

/** The environment git runs with (see above). */
/** The user's configuration: where git reads it from, and its `-c` settings (see above). */
const USER_CONFIG = /^GIT_CONFIG_(GLOBAL|SYSTEM|NOSYSTEM|COUNT|KEY_\d+|VALUE_\d+|PARAMETERS)$/;

export function gitEnv(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v === undefined || /^LANGUAGE$/i.test(k)) continue;
    if (/^GIT_/i.test(k) && !USER_CONFIG.test(k)) continue;
    out[k] = v;
  }
  out.GIT_TERMINAL_PROMPT = '0';
  out.GIT_OPTIONAL_LOCKS = '0';
  out.LC_ALL = 'C';
  return out;
}

export function runGit(args: readonly string[], o: { cwd: string; env: Env; timeoutMs?: number; signal?: AbortSignal }): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile('git', [...GIT_OPTIONS, '-C', o.cwd, ...args], {
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
