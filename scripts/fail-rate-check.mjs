#!/usr/bin/env node
// How svc fares against a service that fails a share of requests: `npm run fail-rate [-- flags]`.
//
//   --reads N       read runs (`svc issues search`), default 200
//   --mutations N   change runs (`svc issues archive`, one distinct issue each), default 50
//   --lanes N       sandboxes run side by side, default 4 (each gets its share of the runs)
//   --fail-rate P   share of requests the sandbox fails with 500/502/503/429, default 0.3
//   --seed S        seed of the first sandbox (lane k uses S+k), default 1
//   --retries N     pass --retries N to svc (default: svc's own default, 2)
//   --json          print every run and the summary as JSON instead of the report
//
// Each lane is a `svc sandbox --fail-rate P --seed S+k` of its own, and its runs go one after the
// other, so the nth request of a lane always meets the same fault: the figures are the same on
// every machine. svc runs with its defaults (--retries 2) unless --retries is given. Before and
// after each run the script reads the sandbox's request counter (GET /__sandbox/requests), so it
// knows for that run how many requests arrived, how many were refused by a fault and how many
// reached the handler. At the end it reads which issues were archived. Exit 1 when a change
// reached the service more than once or its outcome was misreported. Only 127.0.0.1 is contacted.
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, ensureBuilt } from './sandbox-build.mjs';

const BIN = join(ROOT, 'bin', 'svc.js');
const READ_PATH = '/api/v1/issues/search';
const WRITE_PATH = '/api/v1/issues/archive';
/** svc's default --retries. */
const DEFAULT_RETRIES = 2;

function parseArgs(argv) {
  const o = { reads: 200, mutations: 50, lanes: 4, failRate: 0.3, seed: 1, retries: undefined, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      const v = Number(argv[++i]);
      if (!Number.isFinite(v) || v < 0) usage(`${a} expects a number, got '${argv[i]}'`);
      return v;
    };
    if (a === '--reads') o.reads = Math.floor(value());
    else if (a === '--mutations') o.mutations = Math.floor(value());
    else if (a === '--lanes') o.lanes = Math.max(1, Math.floor(value()));
    else if (a === '--fail-rate') o.failRate = Math.min(1, value());
    else if (a === '--seed') o.seed = Math.floor(value());
    else if (a === '--retries') o.retries = Math.floor(value());
    else if (a === '--json') o.json = true;
    else usage(`unknown option '${a}'`);
  }
  return o;
}

function usage(message) {
  process.stderr.write(`fail-rate-check: error: ${message}; see the comment at the top of scripts/fail-rate-check.mjs\n`);
  process.exit(2);
}

/** Start `svc sandbox` on a free loopback port; resolves with its ready line and the child. */
function startSandbox(seed, issues) {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '-o', 'json', '--quiet', '--seed', String(seed), '--repos', '4', '--issues', String(issues)],
    { stdio: ['ignore', 'pipe', 'inherit'], env: cleanEnv() });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve({ info: JSON.parse(out.slice(0, out.indexOf('\n'))), child });
    });
    child.on('close', (code) => reject(new Error(`the sandbox (seed ${seed}) exited ${code} before it was ready`)));
  });
}

function cleanEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^SVC_/.test(k) || /^(HTTPS?_PROXY|NO_PROXY|https?_proxy|no_proxy|FORCE_COLOR|CI)$/.test(k)) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

function svc(args, env) {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : -1) : 0, stdout, stderr });
    });
  });
}

async function runLane(lane, o, reads, mutations) {
  const seed = o.seed + lane;
  const { info, child } = await startSandbox(seed, Math.max(400, mutations * 8));
  const configDir = mkdtempSync(join(tmpdir(), 'svc-fail-rate-'));
  const env = cleanEnv({ SVC_CONFIG_DIR: configDir, SVC_BASE_URL: info.baseUrl, SVC_API_TOKEN_ID: info.tokenId, SVC_API_TOKEN_SECRET: info.tokenSecret });
  const headers = { 'content-type': 'application/json', 'x-service-api-token-id': info.tokenId, 'x-service-api-token-secret': info.tokenSecret };
  const api = async (path, body) => {
    const res = await fetch(info.baseUrl + path, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
    return res.json();
  };
  const control = async (path, body) => {
    const res = await fetch(info.baseUrl + path, body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {});
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
    return res.json();
  };
  const counts = async (path) => (await control('/__sandbox/requests'))[path] ?? { received: 0, handled: 0, refused: 0 };
  const runs = [];
  try {
    // Targets for the changes, read before any fault is switched on (so the fault sequence starts at the first run).
    const open = (await api(READ_PATH, { types: ['open'], sortBy: 'createdAt', sortOrder: 'asc', returnAll: true })).issues.map((i) => i.id);
    if (open.length < mutations) throw new Error(`lane ${lane}: only ${open.length} open issues for ${mutations} changes`);
    await control('/__sandbox/faults', { failRate: o.failRate });

    const measure = async (kind, path, args, target) => {
      const before = await counts(path);
      const r = await svc(o.retries === undefined ? args : [...args, '--retries', String(o.retries)], env);
      const after = await counts(path);
      const lines = r.stderr.split('\n').filter((l) => l.trim());
      runs.push({
        kind, lane, seed, target, code: r.code,
        received: after.received - before.received,
        refused: after.refused - before.refused,
        handled: after.handled - before.handled,
        retries: lines.filter((l) => l.includes('retrying in')).length,
        /** The HTTP status each retry followed (from svc's retry warnings). */
        retriedAfter: lines.filter((l) => l.includes('retrying in')).map((l) => Number(/HTTP (\d{3})/.exec(l)?.[1] ?? 0)),
        error: lines.find((l) => l.startsWith('svc: error:')),
      });
    };
    for (let k = 0; k < reads; k++) await measure('read', READ_PATH, ['issues', 'search', '--types', 'open', '--page-size', '20', '-o', 'json'], undefined);
    const targets = open.slice(0, mutations);
    for (const id of targets) await measure('change', WRITE_PATH, ['issues', 'archive', id, '-o', 'json'], id);

    await control('/__sandbox/faults', { failRate: 0 });
    const status = new Map((await api(READ_PATH, { returnAll: true })).issues.map((i) => [i.id, i.status]));
    for (const run of runs) if (run.kind === 'change') run.applied = status.get(run.target) === 'archived';
  } finally {
    child.kill('SIGTERM');
    rmSync(configDir, { recursive: true, force: true });
  }
  return runs;
}

/** Split n runs over the lanes as evenly as possible. */
const share = (n, lanes, k) => Math.floor(n / lanes) + (k < n % lanes ? 1 : 0);

const histogram = (xs) => {
  const h = {};
  for (const x of xs) h[x] = (h[x] ?? 0) + 1;
  return h;
};
const pct = (n, d) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);

function summarize(runs, o) {
  const retries = o.retries ?? DEFAULT_RETRIES;
  const reads = runs.filter((r) => r.kind === 'read');
  const changes = runs.filter((r) => r.kind === 'change');
  const readRequests = reads.reduce((n, r) => n + r.received, 0);
  const readRefused = reads.reduce((n, r) => n + r.refused, 0);
  const changeRequests = changes.reduce((n, r) => n + r.received, 0);
  const changeRefused = changes.reduce((n, r) => n + r.refused, 0);
  return {
    failRate: o.failRate,
    retries,
    lanes: o.lanes,
    seeds: Array.from({ length: o.lanes }, (_, k) => o.seed + k),
    reads: {
      runs: reads.length,
      succeeded: reads.filter((r) => r.code === 0).length,
      failedByExit: histogram(reads.filter((r) => r.code !== 0).map((r) => r.code)),
      attempts: histogram(reads.map((r) => r.received)),
      requests: readRequests,
      refused: readRefused,
      expectedFailureShare: o.failRate ** (retries + 1),
    },
    changes: {
      runs: changes.length,
      succeeded: changes.filter((r) => r.code === 0).length,
      failedByExit: histogram(changes.filter((r) => r.code !== 0).map((r) => r.code)),
      received: histogram(changes.map((r) => r.received)),
      handled: histogram(changes.map((r) => r.handled)),
      requests: changeRequests,
      refused: changeRefused,
      applied: changes.filter((r) => r.applied).length,
      /** Must be 0: a change that reached the handler more than once. */
      handledTwice: changes.filter((r) => r.handled > 1).length,
      /** Must be 0: svc said it failed, yet the change took effect (a fault after handling would do that; --fail-rate faults come before). */
      appliedButFailed: changes.filter((r) => r.applied && r.code !== 0).length,
      /** Must be 0: svc said it succeeded, yet the issue is not archived. */
      succeededButNotApplied: changes.filter((r) => !r.applied && r.code === 0).length,
    },
  };
}

function report(s) {
  const r = s.reads;
  const c = s.changes;
  const list = (h) => Object.entries(h).map(([k, v]) => `${k}: ${v}`).join(', ') || 'none';
  return [
    `fail-rate check: ${s.lanes} sandbox${s.lanes === 1 ? '' : 'es'} (seeds ${s.seeds.join(', ')}) with --fail-rate ${s.failRate}; svc with --retries ${s.retries}${s.retries === DEFAULT_RETRIES ? ' (its default)' : ''}`,
    '',
    `reads (svc issues search): ${r.runs} runs, ${r.succeeded} succeeded (${pct(r.succeeded, r.runs)}); failed by exit code: ${list(r.failedByExit)}`,
    `  requests per run: ${list(r.attempts)}`,
    `  ${r.requests} requests, ${r.refused} refused by a fault (${pct(r.refused, r.requests)}); a read fails only when all ${s.retries + 1} tries are refused (expected ${(r.expectedFailureShare * 100).toFixed(1)}% of runs)`,
    '',
    `changes (svc issues archive): ${c.runs} runs, ${c.succeeded} succeeded (${pct(c.succeeded, c.runs)}); failed by exit code: ${list(c.failedByExit)}`,
    `  requests received per change: ${list(c.received)} (a second request only after a 429: refused, so safe to send again)`,
    `  handler reached per change: ${list(c.handled)}; applied: ${c.applied}`,
    `  reached the service twice: ${c.handledTwice}; applied although svc reported a failure: ${c.appliedButFailed}; reported success but not applied: ${c.succeededButNotApplied}`,
    '',
  ].join('\n');
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  ensureBuilt();
  const lanes = await Promise.all(Array.from({ length: o.lanes }, (_, k) => runLane(k, o, share(o.reads, o.lanes, k), share(o.mutations, o.lanes, k))));
  const runs = lanes.flat();
  const summary = summarize(runs, o);
  process.stdout.write(o.json ? JSON.stringify({ summary, runs }) + '\n' : report(summary));
  const c = summary.changes;
  if (c.handledTwice || c.appliedButFailed || c.succeededButNotApplied) {
    process.stderr.write('fail-rate-check: error: a change was sent twice or its outcome was misreported (see above)\n');
    process.exitCode = 1;
  }
}

await main();
