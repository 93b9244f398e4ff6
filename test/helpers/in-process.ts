/** main() in-process with captured stdout/stderr and a fresh config directory (no spawn). */
import { PassThrough, Writable } from 'node:stream';
import { main } from '../../src/cli.js';
import type { Host } from '../../src/context.js';
import { tempConfigDir } from './run-svc.js';

export interface Result { code: number; stdout: string; stderr: string }

export async function cli(argv: string[], env: Record<string, string> = {}, o: { tty?: boolean } = {}): Promise<Result> {
  let stdout = '';
  let stderr = '';
  const sink = (add: (s: string) => void) => new Writable({ write(c, _e, done) { add(String(c)); done(); } });
  const host: Host = {
    io: { stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)), stdin: new PassThrough(), stdoutIsTTY: !!o.tty, stderrIsTTY: false, stdinIsTTY: false },
    env: { SVC_CONFIG_DIR: tempConfigDir(), ...env },
    cwd: process.cwd(), platform: process.platform, version: '0.0.0-test', nodeVersion: process.version,
    now: () => 0, random: () => 0.5, sleep: async () => {}, signal: new AbortController().signal,
  };
  const code = await main(argv, host);
  return { code, stdout, stderr };
}
