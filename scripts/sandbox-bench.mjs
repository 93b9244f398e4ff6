#!/usr/bin/env node
// Scale benchmark of the sandbox: `node scripts/sandbox-bench.mjs [issues=100000] [rounds=10]`.
// Starts `svc sandbox --issues N` on a free loopback port, then reports the time to the ready line,
// server-side search latencies (HTTP round trips from here, no CLI), the end-to-end time of
// `svc issues search --page-size 100`, and the sandbox's resident memory. Sends traffic to 127.0.0.1 only.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, ensureBuilt } from './sandbox-build.mjs';

const issues = Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 10);
const BIN = join(ROOT, 'bin', 'svc.js');
ensureBuilt();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (xs) => `median ${median(xs).toFixed(1)} ms, min ${Math.min(...xs).toFixed(1)}, max ${Math.max(...xs).toFixed(1)}`;

const started = performance.now();
const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '-o', 'json', '--quiet', '--issues', String(issues)], { stdio: ['ignore', 'pipe', 'inherit'] });
const info = await new Promise((resolve, reject) => {
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d) => {
    out += d;
    if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
  });
  child.on('close', (code) => reject(new Error(`the sandbox exited ${code}`)));
});
const readyMs = performance.now() - started;
const configDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
try {
  const headers = { 'content-type': 'application/json', 'x-service-api-token-id': info.tokenId, 'x-service-api-token-secret': info.tokenSecret };
  const post = async (path, body) => {
    const t = performance.now();
    const res = await fetch(`${info.baseUrl}/api/v1/${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
    return performance.now() - t;
  };
  const first = await post('issues/search', { pageSize: 100 });
  const cases = {
    'search, page size 100 (default sort)': { pageSize: 100 },
    'search, page 200 of 100': { pageSize: 100, page: 200 },
    'search, sort by createdAt asc': { pageSize: 100, sortBy: 'createdAt', sortOrder: 'asc' },
    'search, open + text + severity >= 7 + counts': { pageSize: 100, types: ['open'], searchQuery: 'sql', severities: { min: 7 }, getCounts: true },
  };
  console.log(`sandbox with ${info.issues} issues, ${info.repositories} repositories`);
  console.log(`ready line after ${readyMs.toFixed(0)} ms (spawn of svc sandbox to its ready line)`);
  console.log(`first search: ${first.toFixed(1)} ms`);
  for (const [name, body] of Object.entries(cases)) {
    const xs = [];
    for (let k = 0; k < rounds; k++) xs.push(await post('issues/search', body));
    console.log(`${name}: ${fmt(xs)}`);
  }
  for (const op of ['stats/summary', 'stats/issuesBySeverity', 'stats/securityPosture', 'repositories/list']) {
    const xs = [];
    for (let k = 0; k < Math.min(rounds, 5); k++) xs.push(await post(op, {}));
    console.log(`${op}: ${fmt(xs)}`);
  }
  const env = { ...process.env, SVC_CONFIG_DIR: configDir, SVC_BASE_URL: info.baseUrl, SVC_API_TOKEN_ID: info.tokenId, SVC_API_TOKEN_SECRET: info.tokenSecret };
  const e2e = [];
  for (let k = 0; k < Math.min(rounds, 5); k++) {
    const t = performance.now();
    execFileSync(process.execPath, [BIN, 'issues', 'search', '--page-size', '100', '-o', 'json'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    e2e.push(performance.now() - t);
  }
  const version = [];
  for (let k = 0; k < Math.min(rounds, 5); k++) {
    const t = performance.now();
    execFileSync(process.execPath, [BIN, '--version'], { stdio: 'ignore' });
    version.push(performance.now() - t);
  }
  console.log(`svc issues search --page-size 100 -o json, end to end: ${fmt(e2e)} (svc --version alone: ${fmt(version)})`);
  console.log(`sandbox resident memory: ${Math.round(Number(execFileSync('ps', ['-o', 'rss=', '-p', String(child.pid)])) / 1024)} MB`);
} finally {
  child.kill('SIGTERM');
  rmSync(configDir, { recursive: true, force: true });
}
