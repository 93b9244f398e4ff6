/**
 * `startSandbox(options)`: a local, stateful stand-in for the service, for demos and end-to-end
 * tests. Every operation of the CLI's operation table is served; see README "The sandbox".
 */
import type { AddressInfo } from 'node:net';
import { loadAllOperations } from '../operations/index.js';
import { DEFAULTS, SANDBOX_TOKEN_ID, SANDBOX_TOKEN_SECRET, type SandboxOptions } from './options.js';
import { checkFaults, type Faults } from './faults.js';
import { seedWorld, type SeedParams } from './data/seed.js';
import { Store } from './state.js';
import { Persister, readStateFile, restore } from './persist.js';
import { buildRoutes } from './router.js';
import { parseDialects, type Dialect } from './dialects.js';
import { sortedIssues } from './search.js';
import { warmIssueJson } from './handlers/issues.js';
import { createSandboxServer, type RequestCount } from './server.js';
import { hashString, mix, mulberry32 } from './prng.js';
export type { SandboxOptions } from './options.js';
export type { FaultKind } from './faults.js';

export interface Sandbox {
  /** Base URL, e.g. `http://127.0.0.1:43817`. */
  url: string;
  host: string;
  port: number;
  tokenId: string;
  tokenSecret: string;
  /** The token's default organization (used when a request names none). */
  organizationId: string | undefined;
  state: Store;
  /** Fault settings in force; change them with `setFaults`. */
  faults: Faults;
  setFaults(f: Partial<Faults>): void;
  /** API requests so far, per operation path (a copy); also `GET /__sandbox/requests`. */
  requests(): Record<string, RequestCount>;
  /** The dialects it answers in (dialects.ts), in the order given. */
  dialects: Dialect[];
  /** Where the data came from: freshly seeded, or loaded from the state file. */
  loadedFrom: 'seed' | 'state';
  /** Write the state file now (no-op without one). */
  save(): Promise<void>;
  /** Stop accepting requests, end open connections, save the state. */
  close(): Promise<void>;
}

export function seedNumber(seed: number | string): number {
  if (typeof seed === 'number') return seed >>> 0;
  return /^\d+$/.test(seed) ? Number(seed) >>> 0 : hashString(seed);
}

function count(name: string, v: number, max: number): number {
  if (!Number.isInteger(v) || v < 0 || v > max) throw new Error(`${name} must be a whole number from 0 to ${max}, got ${v}`);
  return v;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const o = { ...DEFAULTS, ...Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) } as typeof DEFAULTS & SandboxOptions;
  const params: SeedParams = { seed: seedNumber(o.seed), repos: count('repos', o.repos, 10_000), issues: count('issues', o.issues, 1_000_000) };
  const faults: Faults = { latencyMs: 0, failRate: 0, fault: null, ...checkFaults({ latencyMs: o.latencyMs, failRate: o.failRate, fault: o.fault }) };

  const saved = o.statePath ? readStateFile(o.statePath) : undefined;
  const store = saved ? restore(saved, o.clock) : new Store(seedWorld(params), o.clock);
  store.dialects = new Set(parseDialects(o.dialects ?? []));
  let started = false;
  const why = (err: Error) => (err as NodeJS.ErrnoException).code ?? err.message;
  const persister = o.statePath
    ? new Persister(store, o.statePath, o.saveDebounceMs, (err) => { if (started) o.log?.(`warning: could not save the state to ${o.statePath} (${why(err)})`); })
    : undefined;
  if (persister && !saved) {
    // Write the file now: a path that cannot be written fails the start, not a later save.
    persister.schedule();
    await persister.flush();
    if (persister.lastError) throw new Error(`cannot write the state file ${o.statePath} (${why(persister.lastError)})`);
  }

  // Sort once now, so the first default search is as quick as the next ones.
  sortedIssues(store, 'score', 'desc');
  const routes = buildRoutes(await loadAllOperations(), store, { scanDurationMs: o.scanDurationMs, patchDelayMs: o.patchDelayMs });
  const tokenId = o.tokenId ?? SANDBOX_TOKEN_ID;
  const tokenSecret = o.tokenSecret ?? SANDBOX_TOKEN_SECRET;
  const requests = new Map<string, RequestCount>();
  let warm: ReturnType<typeof warmIssueJson> | undefined;
  const { server, timers } = createSandboxServer({
    routes, requests, store, tokenId, tokenSecret, faults, faultRng: mulberry32(mix(params.seed, 0xfa17)),
    warmed: () => warm?.done ?? false,
    maxBodyBytes: o.maxBodyBytes, slowBodyMs: o.slowBodyMs, log: o.log, scanDurationMs: o.scanDurationMs,
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => { server.off('error', reject); resolve(); });
  });
  const { port } = server.address() as AddressInfo;
  started = true;
  warm = warmIssueJson(store);
  const hostInUrl = o.host.includes(':') ? `[${o.host}]` : o.host;
  let closing: Promise<void> | undefined;

  return {
    url: `http://${hostInUrl}:${port}`,
    host: o.host,
    port,
    tokenId,
    tokenSecret,
    get organizationId() { return store.orgs[0]?.id; },
    state: store,
    faults,
    setFaults(f) { Object.assign(faults, checkFaults(f)); },
    requests: () => Object.fromEntries([...requests].map(([path, c]) => [path, { ...c }])),
    dialects: [...store.dialects],
    loadedFrom: saved ? 'state' : 'seed',
    save: async () => { await persister?.flush(); },
    close() {
      return (closing ??= (async () => {
        warm?.stop();
        for (const t of timers) clearTimeout(t);
        timers.clear();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await persister?.flush();
      })());
    },
  };
}
