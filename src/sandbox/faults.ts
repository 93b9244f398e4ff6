/**
 * Fault injection for testing clients. `fault` fails every API request the same way; `failRate`
 * fails a seeded share of them with 500/502/503 or 429 (with Retry-After). Status faults and
 * `reset` happen before the request is handled (nothing changes); `truncated`, `invalid-json` and
 * `slow-body` spoil the answer of a request that was handled (the change happened, the answer
 * was lost: what a client must not blindly retry).
 */
import type { ServerResponse } from 'node:http';
import { pick, type Rng } from './prng.js';

export const FAULT_KINDS = ['reset', 'truncated', 'invalid-json', 'slow-body', '500', '502', '503', '429'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Faults {
  latencyMs: number;
  failRate: number;
  fault: FaultKind | null;
}

export const STATUS_FAULTS = new Set<FaultKind>(['500', '502', '503', '429']);
export const AFTER_FAULTS = new Set<FaultKind>(['truncated', 'invalid-json', 'slow-body']);

function isFaultKind(v: unknown): v is FaultKind {
  return typeof v === 'string' && (FAULT_KINDS as readonly string[]).includes(v);
}

/** Check and normalise fault settings (from flags or the control endpoint); throws with a message. */
export function checkFaults(f: Partial<Record<keyof Faults, unknown>>): Partial<Faults> {
  const out: Partial<Faults> = {};
  if (f.latencyMs !== undefined) {
    if (typeof f.latencyMs !== 'number' || !(f.latencyMs >= 0 && f.latencyMs <= 600_000)) throw new Error(`latencyMs must be a number of milliseconds from 0 to 600000`);
    out.latencyMs = f.latencyMs;
  }
  if (f.failRate !== undefined) {
    if (typeof f.failRate !== 'number' || !(f.failRate >= 0 && f.failRate <= 1)) throw new Error(`failRate must be a number from 0 to 1`);
    out.failRate = f.failRate;
  }
  if (f.fault !== undefined) {
    if (f.fault !== null && !isFaultKind(f.fault)) throw new Error(`fault must be one of ${FAULT_KINDS.join(', ')} (or null)`);
    out.fault = f.fault;
  }
  return out;
}

/** The fault for this request, if any. */
export function pickFault(f: Faults, rng: Rng): FaultKind | null {
  if (f.fault) return f.fault;
  if (f.failRate > 0 && rng() < f.failRate) return pick(rng, ['500', '502', '503', '429'] as const);
  return null;
}

const STATUS_TEXT: Record<string, string> = {
  500: 'sandbox fault: internal server error',
  502: 'sandbox fault: bad gateway',
  503: 'sandbox fault: service unavailable',
  429: 'sandbox fault: rate limit exceeded, retry later',
};

export function sendStatusFault(res: ServerResponse, kind: FaultKind): void {
  const body = JSON.stringify({ error: STATUS_TEXT[kind] });
  res.writeHead(Number(kind), {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...(kind === '429' || kind === '503' ? { 'retry-after': '1' } : {}),
  });
  res.end(body);
}

/** Spoil a response that was computed: cut it, garble it, or stall it. */
export function sendSpoiled(res: ServerResponse, status: number, kind: FaultKind, body: string, slowBodyMs: number, timers: Set<NodeJS.Timeout>): void {
  const headers = { 'content-type': 'application/json; charset=utf-8' };
  if (kind === 'invalid-json') {
    const text = `${body.slice(0, Math.max(1, Math.floor(body.length / 2)))} <html><body>Gateway error</body></html>`;
    res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
    res.end(text);
    return;
  }
  const bytes = Buffer.from(body);
  const half = Math.max(1, Math.floor(bytes.length / 2));
  res.writeHead(status, { ...headers, 'content-length': bytes.length + (kind === 'truncated' ? 64 : 0) });
  res.flushHeaders();
  if (kind === 'truncated') {
    // Content-Length promises more than is sent; then the connection ends.
    res.write(bytes.subarray(0, half), () => res.destroy());
    return;
  }
  // slow-body: the headers and the first bytes, then a long stall, then the rest.
  res.write(bytes.subarray(0, half));
  const timer = setTimeout(() => {
    timers.delete(timer);
    if (!res.destroyed) res.end(bytes.subarray(half));
  }, slowBodyMs);
  timers.add(timer);
  res.on('close', () => { clearTimeout(timer); timers.delete(timer); });
}
