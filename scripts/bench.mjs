#!/usr/bin/env node
// `npm run bench`: the performance targets of svc, measured side by side in one run.
//
//   node scripts/bench.mjs [--runs 20] [--listing-runs 3] [--sizes 10000,50000,100000] [--quick] [--json]
//
// 1. Start-up: `svc --version` and `svc --help` against `node -e 0` (whole-process wall time; the
//    commands run in interleaved rounds so that a change of machine load hits all of them alike).
// 2. One call: `svc issues search -o json` against a sandbox on loopback, against `node -e 0` plus the
//    server's own time (the same request sent over a kept-alive connection from this process).
// 3. Full listing: `svc issues search --all -o ndjson` over N issues for each size: wall time,
//    throughput and peak RSS of the CLI process (from `/usr/bin/time -f %M` when present, else by
//    polling VmHWM in /proc/<pid>/status every 5 ms, which can miss a peak in the last milliseconds:
//    it read 76 MB where /usr/bin/time read 90 MB).
// 4. Gate: `svc gate --fail-on high` over the largest size.
//
// Builds dist/ first when it is missing or older than src/. Starts its own sandboxes
// (`svc sandbox --port 0`) and stops them. Talks to 127.0.0.1 only. Medians throughout.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request, Agent } from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { ROOT, ensureBuilt } from './sandbox-build.mjs';

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(`--${name}`);
const option = (name, dflt) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : dflt;
};
if (flag('help') || flag('h')) {
  process.stdout.write(readFileSync(new URL(import.meta.url)).toString().split('\n').filter((l) => l.startsWith('//')).map((l) => l.slice(3)).join('\n') + '\n');
  process.exit(0);
}
const quick = flag('quick');
const RUNS = Number(option('runs', quick ? 7 : 20));
const LISTING_RUNS = Number(option('listing-runs', quick ? 1 : 3));
const SIZES = option('sizes', quick ? '10000,50000' : '10000,50000,100000').split(',').map(Number);
if (![RUNS, LISTING_RUNS, ...SIZES].every((n) => Number.isInteger(n) && n > 0)) {
  process.stderr.write('bench: --runs, --listing-runs and --sizes take whole numbers above 0\n');
  process.exit(2);
}

const BIN = join(ROOT, 'bin', 'svc.js');
const NODE = process.execPath;
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const CAN_POLL = existsSync('/proc/self/status');
const say = (line) => process.stderr.write(`${line}\n`);

ensureBuilt(say);
if (!existsSync(join(ROOT, 'dist', 'svc.cjs.cache'))) say('bench: warning: dist/svc.cjs.cache is missing; svc compiles from source');

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const ms = (x) => `${x.toFixed(1)} ms`;
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;

/** The environment of every svc run: nothing of the developer's own settings. */
const configDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
function cliEnv(extra = {}) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^SVC_/.test(k) && !/^(HTTPS?_PROXY|NO_PROXY|https?_proxy|no_proxy|NODE_OPTIONS|FORCE_COLOR|CI)$/.test(k)) env[k] = v;
  }
  return { ...env, SVC_CONFIG_DIR: configDir, ...extra };
}

/**
 * Runs a command to its end: wall time from spawn to exit (hrtime), exit code, and optionally the
 * peak RSS in kB and what it wrote to stdout (else stdout is read and dropped, as a pipe would be).
 */
function run(cmd, args, { env = cliEnv(), rss = false, onStdout } = {}) {
  return new Promise((resolve, reject) => {
    const rssFile = rss && TIME ? join(configDir, `rss-${process.hrtime.bigint()}`) : undefined;
    const [file, fileArgs] = rssFile ? [TIME, ['-f', '%M %U %S', '-o', rssFile, cmd, ...args]] : [cmd, args];
    const started = process.hrtime.bigint();
    const child = spawn(file, fileArgs, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.on('data', (d) => onStdout?.(d));
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    let hwm = 0;
    const poll = rss && !TIME ? setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) hwm = Math.max(hwm, Number(m[1]));
      } catch { /* gone */ }
    }, 5) : undefined;
    child.on('error', reject);
    child.on('exit', (code) => {
      const wall = Number(process.hrtime.bigint() - started) / 1e6;
      clearInterval(poll);
      child.on('close', () => {
        let peak = hwm;
        let cpu;
        if (rssFile) {
          const [kb, user, sys] = readFileSync(rssFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
          peak = kb;
          cpu = user + sys;
          rmSync(rssFile, { force: true });
        }
        resolve({ wall, code, peakKb: peak, cpuSec: cpu, stderr });
      });
    });
  });
}

/** Runs each command `rounds` times, interleaved (a, b, c, a, b, c, ...), after one warm-up round. */
async function sideBySide(commands, rounds) {
  const walls = commands.map(() => []);
  for (let r = -1; r < rounds; r++) {
    for (const [i, c] of commands.entries()) {
      const res = await run(c.cmd, c.args, { env: c.env });
      if (res.code !== (c.code ?? 0)) throw new Error(`${c.name} exited ${res.code}: ${res.stderr.trim()}`);
      if (r >= 0) walls[i].push(res.wall);
    }
  }
  return walls.map(median);
}

/** `svc sandbox` on a free loopback port, until stop(). */
async function startSandbox(issues, repos) {
  const args = [BIN, 'sandbox', '--port', '0', '--host', '127.0.0.1', '-o', 'json', '--quiet', '--issues', String(issues), ...(repos ? ['--repos', String(repos)] : [])];
  const child = spawn(NODE, args, { env: cliEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited ${code} before it was ready`)));
  });
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(info.baseUrl)) throw new Error(`the sandbox is not on loopback: ${info.baseUrl}`);
  const env = cliEnv({ SVC_BASE_URL: info.baseUrl, SVC_API_TOKEN_ID: info.tokenId, SVC_API_TOKEN_SECRET: info.tokenSecret });
  return {
    info, env,
    stop: () => new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); }),
  };
}

/** The server's own time for a request: POSTs over one kept-alive connection, median after warm-up. */
async function serverTime(sb, path, body, rounds) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  const post = () => new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(`${sb.info.baseUrl}${path}`, {
      method: 'POST', agent,
      headers: {
        'content-type': 'application/json', accept: 'application/json',
        'user-agent': `svc/${version} node/${process.version.slice(1)} (${process.platform})`,
        'x-service-api-token-id': sb.info.tokenId, 'x-service-api-token-secret': sb.info.tokenSecret,
      },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`${path}: HTTP ${res.statusCode}`));
        resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
  const times = [];
  let last;
  for (let i = -5; i < rounds; i++) {
    last = await post();
    if (i >= 0) times.push(last.ms);
  }
  agent.destroy();
  return { ms: median(times), last: JSON.parse(last.body) };
}

const results = [];
const record = (target, measured, limit, pass, note = '') => results.push({ target, measured, limit, pass, note });
const loadBefore = loadavg();
const began = Date.now();

// 1. Start-up.
say(`bench: start-up, ${RUNS} interleaved rounds...`);
const nodeBase = { name: 'node -e 0', cmd: NODE, args: ['-e', '0'] };
const [nodeMs, versionMs, helpMs] = await sideBySide([
  nodeBase,
  { name: 'svc --version', cmd: NODE, args: [BIN, '--version'] },
  { name: 'svc --help', cmd: NODE, args: [BIN, '--help'] },
], RUNS);
record('`svc --version` / `node -e 0`', `${(versionMs / nodeMs).toFixed(2)}x (${ms(versionMs)} / ${ms(nodeMs)})`, '≤ 1.2x', versionMs <= 1.2 * nodeMs);
record('`svc --help` / `node -e 0`', `${(helpMs / nodeMs).toFixed(2)}x (${ms(helpMs)} / ${ms(nodeMs)})`, '≤ 1.4x', helpMs <= 1.4 * nodeMs);

// 2. One call.
say(`bench: one call, ${RUNS} interleaved rounds...`);
{
  const sb = await startSandbox(400);
  try {
    const server = await serverTime(sb, '/api/v1/issues/search', {}, RUNS);
    const [base, call] = await sideBySide([
      { ...nodeBase },
      { name: 'svc issues search -o json', cmd: NODE, args: [BIN, 'issues', 'search', '-o', 'json'], env: sb.env },
    ], RUNS);
    const limit = 1.6 * base + server.ms;
    record('`svc issues search -o json` (one call)', `${ms(call)} = ${((call - server.ms) / base).toFixed(2)}x node + server`,
      `≤ 1.6 × ${ms(base)} + ${ms(server.ms)} = ${ms(limit)}`, call <= limit, `server ${ms(server.ms)} (kept-alive request)`);
  } finally {
    await sb.stop();
  }
}

// 3. Full listing, and 4. the gate over the largest size.
const peaks = [];
for (const size of SIZES) {
  say(`bench: --all over ${size} issues, ${LISTING_RUNS} run(s)...`);
  // Four repositories, all in the token's organization, so that the listing holds every issue.
  const sb = await startSandbox(size, 4);
  try {
    const { last } = await serverTime(sb, '/api/v1/issues/search', { pageSize: 1 }, 1);
    if (last.totalCount !== size) throw new Error(`the sandbox lists ${last.totalCount} issues, not ${size}`);
    const walls = [];
    const rss = [];
    const cpu = [];
    for (let i = 0; i < LISTING_RUNS; i++) {
      let lines = 0;
      const r = await run(NODE, [BIN, 'issues', 'search', '--all', '-o', 'ndjson'], {
        env: sb.env, rss: true,
        onStdout: (d) => { for (let j = d.indexOf(10); j !== -1; j = d.indexOf(10, j + 1)) lines++; },
      });
      if (r.code !== 0) throw new Error(`--all exited ${r.code}: ${r.stderr.trim()}`);
      if (lines !== size) throw new Error(`--all wrote ${lines} lines, expected ${size}`);
      walls.push(r.wall);
      rss.push(r.peakKb);
      if (r.cpuSec !== undefined) cpu.push(r.cpuSec);
    }
    const wall = median(walls);
    const peak = Math.max(...rss);
    const rate = size / (wall / 1000);
    if (TIME || CAN_POLL) {
      peaks.push({ size, peak });
      record(`\`--all -o ndjson\`, ${size.toLocaleString('en')} issues: peak RSS`, mb(peak), '< 150 MB', peak < 150 * 1024);
    } else {
      record(`\`--all -o ndjson\`, ${size.toLocaleString('en')} issues: peak RSS`, 'not measured', '< 150 MB', false, 'needs /usr/bin/time or /proc');
    }
    // The sandbox serves one page at a time and filters every issue for each: at large sizes it,
    // not the CLI, sets the pace. The CLI's CPU time shows how much faster the CLI itself could go.
    const cpuNote = cpu.length ? `CLI CPU ${median(cpu).toFixed(2)} s (${Math.round(size / median(cpu)).toLocaleString('en')} issues per CPU second)` : '';
    record(`\`--all -o ndjson\`, ${size.toLocaleString('en')} issues: throughput`, `${Math.round(rate).toLocaleString('en')} issues/s (${(wall / 1000).toFixed(2)} s)`, '≥ 20,000 issues/s', rate >= 20_000, cpuNote);
    if (size === Math.max(...SIZES)) {
      say(`bench: gate over ${size} issues...`);
      const gateWalls = [];
      let open = 0;
      for (let i = 0; i < LISTING_RUNS; i++) {
        let out = '';
        const r = await run(NODE, [BIN, 'gate', '--fail-on', 'high'], { env: sb.env, onStdout: (d) => { out += d; } });
        // 1: the gate failed (the seeded data has high issues); anything else is an error.
        if (r.code !== 0 && r.code !== 1) throw new Error(`gate exited ${r.code}: ${r.stderr.trim()}`);
        open = Number(/read ([\d,]+) of/.exec(out)?.[1].replace(/,/g, '') ?? open);
        gateWalls.push(r.wall);
      }
      const g = median(gateWalls);
      record(`\`svc gate --fail-on high\`, ${size.toLocaleString('en')} issues`, `${(g / 1000).toFixed(2)} s`, '< 10 s', g < 10_000, `${open.toLocaleString('en')} open issues read`);
    }
  } finally {
    await sb.stop();
  }
}
if (peaks.length > 1) {
  const first = peaks[0];
  const last = peaks[peaks.length - 1];
  const growth = (last.peak - first.peak) / 1024;
  record(`peak RSS growth, ${first.size.toLocaleString('en')} → ${last.size.toLocaleString('en')} issues`, `${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MB (${peaks.map((p) => mb(p.peak)).join(', ')})`, '< 25 MB (flat)', growth < 25);
}
rmSync(configDir, { recursive: true, force: true });

const loadAfter = loadavg();
const cpu = cpus();
const machine = {
  date: new Date().toISOString().slice(0, 10),
  cpu: `${cpu.length} × ${cpu[0]?.model?.trim() ?? 'unknown CPU'}`,
  memory: `${Math.round(totalmem() / 2 ** 30)} GB`,
  node: process.version,
  load: `load average ${loadBefore.map((x) => x.toFixed(2)).join(' ')} before, ${loadAfter.map((x) => x.toFixed(2)).join(' ')} after`,
  rss: TIME ? '/usr/bin/time -f %M' : CAN_POLL ? 'VmHWM polled every 5 ms' : 'nothing (no /usr/bin/time, no /proc)',
  runs: `${RUNS} rounds for start-up and one call, ${LISTING_RUNS} per listing size`,
  seconds: Math.round((Date.now() - began) / 1000),
};

if (flag('json')) {
  process.stdout.write(JSON.stringify({ machine, results }, null, 2) + '\n');
} else {
  const rows = [['Target', 'Measured (median)', 'Limit', 'Result'], ...results.map((r) => [r.target, r.measured + (r.note ? `; ${r.note}` : ''), r.limit, r.pass ? 'PASS' : 'FAIL'])];
  const out = [
    `${machine.date}, node ${machine.node}, ${machine.cpu}, ${machine.memory}; ${machine.load}`,
    `${machine.runs}; peak RSS by ${machine.rss}; ${machine.seconds} s in all`,
    '',
    `| ${rows[0].join(' | ')} |`,
    `|${rows[0].map(() => '---').join('|')}|`,
    ...rows.slice(1).map((r) => `| ${r.join(' | ')} |`),
  ];
  process.stdout.write(out.join('\n') + '\n');
}
process.exitCode = results.every((r) => r.pass) ? 0 : 1;
