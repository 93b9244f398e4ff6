/**
 * An in-process sandbox on 127.0.0.1, port 0, and helpers to call it: in-process through `main()`
 * (`run`, `runJson`: use these), over raw HTTP (`call`), or through the built bin (`svc`, `json`:
 * only for what needs a real process).
 *
 *   const sb = await startTestSandbox();   afterAll(() => sb.close());
 *   const r = await sb.run(['orgs', 'list']);           // env SVC_BASE_URL + token wired in
 */
import { perFile } from './per-file.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { runSvc, type RunOptions, type RunResult } from './run-svc.js';
import { runCli, type CliResult, type TestHost, type TestHostOptions } from './host.js';

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: any;
}

export interface TestSandbox extends Sandbox {
  /** Environment that points the CLI at this sandbox. */
  env: Record<string, string>;
  /** Run the CLI in-process against the sandbox (`opts.env` merged over `env`). */
  run(args: string[], opts?: TestHostOptions & { host?: TestHost }): Promise<CliResult>;
  /** Run in-process with `-o json` and parse stdout (throws with stderr when it fails). */
  runJson<T = any>(args: string[], opts?: TestHostOptions): Promise<T>;
  /** Run the built bin against the sandbox (extra env merged over `env`). */
  svc(args: string[], opts?: RunOptions): Promise<RunResult>;
  /** Run the built bin with `-o json` and parse stdout (throws with stderr when it fails). */
  json<T = any>(args: string[], opts?: RunOptions): Promise<T>;
  /** POST a JSON body with the sandbox token (headers can be replaced). */
  call(path: string, body?: unknown, init?: { headers?: Record<string, string>; raw?: string; method?: string }): Promise<RawResponse>;
  /** Move the sandbox's clock forward (only with the default test clock). */
  advance(ms: number): void;
}

/** Small data, a controllable clock, no scan or patch delays beyond the clock. */
export async function startTestSandbox(o: SandboxOptions = {}): Promise<TestSandbox> {
  let offset = 0;
  const sb = await startSandbox({ port: 0, seed: 7, repos: 10, issues: 300, scanDurationMs: 60_000, patchDelayMs: 60_000, clock: () => Date.now() + offset, ...o });
  const env = { SVC_BASE_URL: sb.url, SVC_API_TOKEN_ID: sb.tokenId, SVC_API_TOKEN_SECRET: sb.tokenSecret };
  const svc = (args: string[], opts: RunOptions = {}) => runSvc(args, { ...opts, env: { ...env, ...opts.env } });
  const run = (args: string[], opts: TestHostOptions & { host?: TestHost } = {}) => runCli(args, { ...opts, env: { ...env, ...opts.env } });
  return Object.assign(sb, {
    env,
    run,
    async runJson(args: string[], opts?: TestHostOptions) {
      const r = await run([...args, '-o', 'json'], opts);
      if (r.code !== 0) throw new Error(`svc ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
      return JSON.parse(r.stdout);
    },
    svc,
    async json(args: string[], opts?: RunOptions) {
      const r = await svc([...args, '-o', 'json'], opts);
      if (r.code !== 0) throw new Error(`svc ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
      return JSON.parse(r.stdout);
    },
    async call(path: string, body: unknown = {}, init: { headers?: Record<string, string>; raw?: string; method?: string } = {}) {
      const res = await fetch(sb.url + path, {
        method: init.method ?? 'POST',
        headers: init.headers ?? { 'content-type': 'application/json', 'x-service-api-token-id': sb.tokenId, 'x-service-api-token-secret': sb.tokenSecret },
        body: init.method === 'GET' ? undefined : init.raw ?? JSON.stringify(body),
      });
      const text = await res.text();
      let json: unknown;
      try { json = JSON.parse(text); } catch { json = undefined; }
      return { status: res.status, headers: res.headers, text, json };
    },
    advance(ms: number) { offset += ms; },
  });
}

/** A sandbox for the whole test file: started before the first test, closed after the last. */
export function useSandbox(o: SandboxOptions = {}): TestSandbox {
  return perFile('useSandbox()', () => startTestSandbox(o), (sb) => sb.close());
}
