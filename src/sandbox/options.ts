/** Options of the sandbox, their defaults, and its well-known test token (a sandbox-only value). */
import type { FaultKind } from './faults.js';
import type { Dialect } from './dialects.js';

/** The sandbox's fixed test token. Not a secret: it only opens the local sandbox. */
export const SANDBOX_TOKEN_ID = '5a4db0c5-0000-4000-8000-000000000001';
export const SANDBOX_TOKEN_SECRET = 'sandbox-only-secret-not-for-production';

export const DEFAULTS = {
  host: '127.0.0.1',
  port: 8787,
  seed: 42 as number | string,
  repos: 12,
  issues: 400,
  scanDurationMs: 1500,
  patchDelayMs: 1000,
  /** Request bodies above this size are answered 413. */
  maxBodyBytes: 1024 * 1024,
  /** How long a `slow-body` fault stalls between the first bytes and the rest. */
  slowBodyMs: 60_000,
  saveDebounceMs: 250,
};

export interface SandboxOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** A number or any string (hashed). */
  seed?: number | string;
  repos?: number;
  issues?: number;
  /** Keep the data in this JSON file across restarts (written atomically). */
  statePath?: string;
  tokenId?: string;
  tokenSecret?: string;
  latencyMs?: number;
  /** Share of requests (0-1) answered with a random 500/502/503 or 429. */
  failRate?: number;
  /** A fault on every API request. */
  fault?: FaultKind | null;
  scanDurationMs?: number;
  patchDelayMs?: number;
  maxBodyBytes?: number;
  slowBodyMs?: number;
  saveDebounceMs?: number;
  /** Answer as a plausible real service might where the spec leaves room (dialects.ts); default none. */
  dialects?: readonly Dialect[];
  /** One line per request (method, path, status, time). */
  log?: (line: string) => void;
  /** Clock for state changes (ms since epoch); default Date.now. */
  clock?: () => number;
}
