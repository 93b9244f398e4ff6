/**
 * `main(argv, host)` in-process with captured stdout/stderr (a stand-in until the shared test host
 * lands). The environment holds only what the caller gives plus a fresh config directory.
 */
import { PassThrough, Writable } from 'node:stream';
import { main } from '../../src/cli.js';
import type { Host } from '../../src/context.js';
import { tempConfigDir } from './run-svc.js';

export interface InProcessResult { code: number; stdout: string; stderr: string }

export async function svcInProcess(argv: string[], env: Record<string, string | undefined> = {}, o: { cwd?: string; sleep?: Host['sleep'] } = {}): Promise<InProcessResult> {
  let out = '';
  let err = '';
  const stdout = new Writable({ write(c, _e, done) { out += String(c); done(); } });
  const stderr = new Writable({ write(c, _e, done) { err += String(c); done(); } });
  const host: Host = {
    io: { stdout, stderr, stdin: new PassThrough(), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false },
    env: { SVC_CONFIG_DIR: tempConfigDir(), ...env },
    cwd: o.cwd ?? process.cwd(), platform: process.platform, version: '0.1.0', nodeVersion: process.version,
    now: () => performance.now(), random: () => 0.5, sleep: o.sleep ?? (async () => {}), signal: new AbortController().signal,
  };
  const code = await main(argv, host);
  return { code, stdout: out, stderr: err };
}
