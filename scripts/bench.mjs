#!/usr/bin/env node
// `npm run bench`: every performance target of svc, measured in one run, in a clean environment.
//
//   node scripts/bench.mjs [--runs 30] [--listing-runs 3] [--sizes 10000,50000,100000] [--bulk 1000]
//                          [--instruction-runs 3] [--instructions-only] [--quick] [--json]
//
// Every timed command (svc, its sandbox, and the `node -e 0` baseline) runs with an environment
// built from scratch: PATH, HOME, the locale and a fresh empty SVC_CONFIG_DIR, plus the sandbox's
// URL and token for API calls. Nothing else of the caller's environment reaches them: no
// NODE_EXTRA_CA_CERTS (~40 ms of every node start on machines that set it, in the baseline and in
// svc alike, which hides svc's own cost), NODE_OPTIONS, proxies or SVC_* settings. The script
// prints that environment, the machine's load before and after, and for every figure its median
// with the spread (interquartile range and min-max).
//
// Targets (docs/performance.md). Most are ratios to a floor measured in the same interleaved rounds
// (a floor: what the same work costs done the plainest way, so the machine's speed cancels out):
// 1. One call: `svc issues search -o json` against a sandbox on loopback vs the same call by a bare
//    node:http script (bench-call-floor.cjs), whole process wall time, ratio of the medians <= 1.5x;
//    also shown against `node -e 0`, and split at the undici floor (bench-undici-floor.cjs: the same
//    call through undici alone, bundled and code-cached as svc is): undici's share and svc's on top;
//    and at the design floor (bench-design-floor.cts: the call through commander, the row's zod
//    schemas and undici, nothing else of svc's): the design card's libraries' share and svc's own.
//    `--version` (<= 1.2x) and `--help` (<= 1.4x) against `node -e 0`; `--dry-run` for context.
//    And by instructions, which a shared machine's load does not blur: the whole process of svc and of
//    the design floor under `valgrind --tool=cachegrind`, node run with `--random-seed=1` (V8's hash
//    seed fixed: runs then agree to ~0.1 M instructions; it changes no code cache: V8 leaves the seed
//    out of the flags a cache is checked against), both alike, `--instruction-runs` interleaved runs
//    each (default 3), the ratio of the medians <= 1.10x. `--instructions-only` measures just that
//    (with its sandbox and the floor); without valgrind the target is not measured (FAIL).
// 2. Sandbox page at the largest size: each page of one full listing (500 issues, createdAt
//    ascending, as `--all` asks) once, after the sandbox's warm-up, on one kept-alive connection
//    from this process: the sandbox's CPU per page (from /proc) < 2 ms; the round trip is shown too.
// 3. `--all -o ndjson` at each size: svc's own CPU (user + sys of the CLI process) >= 60,000 issues
//    per CPU-second at the largest size; end to end >= 40,000 issues/s at the largest size; peak RSS
//    < 120 MB at every size and flat (largest - smallest < 15 MB).
// 4. At the largest size, side by side in interleaved rounds: `--all -o ndjson` vs a plain node:http
//    pager (bench-pager-floor.cjs) <= 1.0x; `svc gate --fail-on high` vs `--all -o ndjson` <= 1.0x
//    (wall; CPU shown too). More commands timed against these floors go in SIDE_BY_SIDE below.
// 5. Peak RSS of the gate at the largest size: with --sarif and --json-report < 200 MB; with all six
//    reports < 250 MB.
// 6. A table of 10,000 rows: `svc issues search --all -o table` over 10,000 issues: < 1 s.
// 7. Bulk: 1,000 archives by one `svc issues archive --ids-from FILE` vs a shell loop of 1,000
//    `svc issues archive ID` calls against the same sandbox (other issues): >= 10x faster (benchBulk).
//
// --quick: small sizes and few rounds, no warm-up round, to check that the script works (the figures
// then say little); it leaves out the instruction counts (a minute of valgrind).
// Builds dist/ first when it is missing or older than src/. Starts its own sandboxes on 127.0.0.1
// (`svc sandbox --port 0`) and stops them. Exit 0 when every target passed, 1 otherwise.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { request, Agent } from 'node:http';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
const RUNS = Number(option('runs', quick ? 5 : 30));
const INSTRUCTION_RUNS = Number(option('instruction-runs', 3));
const instructionsOnly = flag('instructions-only');
const LISTING_RUNS = Number(option('listing-runs', quick ? 1 : 3));
const SIZES = option('sizes', quick ? '2000,4000' : '10000,50000,100000').split(',').map(Number);
/** Archives in the bulk comparison (each of the shell loop's is a process of its own). */
const BULK = Number(option('bulk', quick ? 50 : 1000));
if (![RUNS, LISTING_RUNS, BULK, INSTRUCTION_RUNS, ...SIZES].every((n) => Number.isInteger(n) && n > 0) || SIZES.some((n, i) => i > 0 && n <= SIZES[i - 1])) {
  process.stderr.write('bench: --runs, --listing-runs, --bulk and --instruction-runs take whole numbers above 0; --sizes whole numbers above 0, ascending\n');
  process.exit(2);
}
const LARGEST = SIZES[SIZES.length - 1];
const TABLE_ROWS = quick ? SIZES[0] : 10_000;
const PAGE = 500;
/**
 * More commands timed at the largest size in the same interleaved rounds as the pager floor, `--all`
 * and the gate, each a ratio to one of them (key 'pager', 'all' or 'gate'): { key, floor, limit,
 * target(size) -> the row's name, command({ NODE, BIN, size }) -> { name, cmd, args, codes?, check? } }.
 */
const SIDE_BY_SIDE = [];
/**
 * A command at the large sizes is stopped after this long: it has failed its target by far (an idle
 * machine runs the slowest, the gate with six reports over 100,000 issues, in a few seconds; a
 * machine at load 20 took up to 30 s), and the bench stays short.
 */
const STOP_AFTER_MS = 120_000;

const BIN = join(ROOT, 'bin', 'svc.js');
const NODE = process.execPath;
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const say = (line) => process.stderr.write(`${line}\n`);

ensureBuilt(say);
if (!existsSync(join(ROOT, 'dist', 'svc.cjs.cache'))) say('bench: warning: dist/svc.cjs.cache is missing; svc compiles from source');

// ---------------------------------------------------------------------------------------------
// Figures

/** Median, quartiles (linear interpolation), min and max. */
function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const at = (p) => {
    const i = (s.length - 1) * p;
    const lo = Math.floor(i);
    return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (i - lo);
  };
  return { median: at(0.5), q1: at(0.25), q3: at(0.75), min: s[0], max: s[s.length - 1], n: s.length };
}
const fixed = (x, d) => x.toFixed(d);
/** "76.1 ms (IQR 72.0-80.3, min-max 60.1-120.0, n 30)" */
const spread = (st, unit, d = 1) => `${fixed(st.median, d)}${unit} (IQR ${fixed(st.q1, d)}-${fixed(st.q3, d)}, min-max ${fixed(st.min, d)}-${fixed(st.max, d)}, n ${st.n})`;
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
const thousands = (n) => Math.round(n).toLocaleString('en');

// ---------------------------------------------------------------------------------------------
// The clean environment

const configDir = mkdtempSync(join(tmpdir(), 'svc-bench-'));
/** What a process needs to run at all; everything else of the caller's environment is left out. */
const KEEP = ['PATH', 'HOME', 'USER', 'LOGNAME', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'TMPDIR',
  // Windows: node and its child processes need these.
  'SYSTEMROOT', 'SystemRoot', 'WINDIR', 'COMSPEC', 'PATHEXT', 'TEMP', 'TMP', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA'];
const BASE_ENV = Object.fromEntries(KEEP.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]]));
function cleanEnv(extra = {}) {
  return { ...BASE_ENV, SVC_CONFIG_DIR: configDir, ...extra };
}
/** Settings of the caller's that would change a timing, named (never their values) when left out. */
const dropped = Object.keys(process.env).filter((k) => !KEEP.includes(k) && /^(NODE_|SVC_|UV_|https?_proxy$|no_proxy$|all_proxy$|FORCE_COLOR$|NO_COLOR$|CI$)/i.test(k));

// ---------------------------------------------------------------------------------------------
// Running commands

/**
 * Runs a command to its end: wall time from spawn to exit (hrtime), exit code, and with `measure`
 * the CLI's peak RSS (kB) and CPU seconds (user + sys) from /usr/bin/time.
 */
function run(cmd, args, { env = cleanEnv(), measure = false, onStdout, stopAfterMs } = {}) {
  return new Promise((resolve, reject) => {
    const timeFile = measure && TIME ? join(configDir, `time-${process.hrtime.bigint()}`) : undefined;
    const [file, fileArgs] = timeFile ? [TIME, ['-f', '%M %U %S', '-o', timeFile, cmd, ...args]] : [cmd, args];
    const started = process.hrtime.bigint();
    const child = spawn(file, fileArgs, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.on('data', (d) => onStdout?.(d));
    child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
    // A command far past its limit is stopped: the verdict is clear, and the bench stays short.
    let stopped = false;
    const timer = stopAfterMs ? setTimeout(() => { stopped = true; child.kill('SIGKILL'); }, stopAfterMs) : undefined;
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const wall = Number(process.hrtime.bigint() - started) / 1e6;
      child.on('close', () => {
        let peakKb;
        let cpuSec;
        if (timeFile) {
          const [kb, user, sys] = readFileSync(timeFile, 'utf8').trim().split('\n').pop().split(' ').map(Number);
          peakKb = kb;
          cpuSec = user + sys;
          rmSync(timeFile, { force: true });
        }
        resolve({ wall, code, peakKb, cpuSec, stderr, stopped });
      });
    });
  });
}

/**
 * Runs the commands in `rounds` interleaved rounds after one warm-up round (none with --quick, whose
 * figures say little anyway: it checks that every command runs and every figure is made, and the
 * warm-up round was a third of its processes); the order rotates each round so that no command always
 * follows the same one. Returns each command's wall times, and with
 * a command's `measure` its CPU seconds and peak RSS (kB) too. A command may name the exit codes it
 * may end with (`codes`, default [0]), the lines it must write (`lines`), and check its (short)
 * output (`check(stdout)` returns what is wrong, or undefined).
 */
async function sideBySide(commands, rounds) {
  const walls = commands.map(() => []);
  const cpus = commands.map(() => []);
  const peaks = commands.map(() => []);
  for (let r = quick ? 0 : -1; r < rounds; r++) {
    for (let k = 0; k < commands.length; k++) {
      const i = (k + Math.max(r, 0)) % commands.length;
      const c = commands[i];
      const chunks = c.check ? [] : undefined;
      const counter = c.lines !== undefined ? lineCounter() : undefined;
      const onStdout = (d) => { chunks?.push(d); counter?.on(d); };
      const res = await run(c.cmd, c.args, { env: c.env, measure: c.measure, onStdout, stopAfterMs: STOP_AFTER_MS });
      if (res.stopped) throw new Error(`${c.name} was stopped after ${STOP_AFTER_MS / 1000} s`);
      if (!(c.codes ?? [0]).includes(res.code)) throw new Error(`${c.name} exited ${res.code}: ${res.stderr.trim()}`);
      if (counter && counter.lines !== c.lines) throw new Error(`${c.name} wrote ${counter.lines} lines, expected ${c.lines}`);
      const wrong = chunks && c.check(Buffer.concat(chunks).toString('utf8'));
      if (wrong) throw new Error(`${c.name}: ${wrong}`);
      if (r >= 0) {
        walls[i].push(res.wall);
        if (res.cpuSec !== undefined) cpus[i].push(res.cpuSec);
        if (res.peakKb !== undefined) peaks[i].push(res.peakKb);
      }
    }
  }
  return Object.assign(walls, { cpus, peaks });
}

/**
 * A ratio of two commands timed in the same rounds: the ratio of their medians, with the median
 * and quartiles of the per-round ratios (how steady it stayed while the load changed).
 */
function ratioOf(xs, floor) {
  const a = stats(xs);
  const b = stats(floor);
  const perRound = stats(xs.map((x, r) => x / floor[r]));
  return { ratio: a.median / b.median, a, b, perRound };
}
const ratioText = (q, unit, d, r = 2) => `${q.ratio.toFixed(r)}x: ${spread(q.a, unit, d)} / ${fixed(q.b.median, d)}${unit}; per round ${fixed(q.perRound.median, r)}x (IQR ${fixed(q.perRound.q1, r)}-${fixed(q.perRound.q3, r)}, min-max ${fixed(q.perRound.min, r)}-${fixed(q.perRound.max, r)})`;
/** A ratio target (limit: at most this many times the floor) or, without a limit, a ratio for context. */
function recordRatio(target, q, limit, unit = ' ms', d = 1, r = 2) {
  record(target, ratioText(q, unit, d, r), limit === undefined ? '(context)' : `≤ ${limit.toFixed(r - 1)}x`, limit === undefined ? undefined : q.ratio <= limit, q.ratio);
}

/**
 * A floor of the call (bench-undici-floor.cjs, bench-design-floor.cts) built as svc is built and
 * loaded: one classic script, bundled by esbuild with svc's own patches (bundle-plugins.mjs: of
 * undici alone, or all of them, commander's too, where the floor uses commander), run by a loader that
 * does what bin/svc.js does (the script through a V8 code cache; the V8 flags set while it ran undone
 * before the cache is made), the cache made by a first real call here (with `args` on its command
 * line). Returns the loader's path.
 */
async function buildFloor(entry, dir, env, args = [], patches = 'undici') {
  const { build } = await import('esbuild');
  const { undiciPlugins, plugins } = await import('./bundle-plugins.mjs');
  const bundle = join(dir, 'floor.cjs');
  await build({
    entryPoints: [fileURLToPath(new URL(entry, import.meta.url))],
    outfile: bundle, bundle: true, format: 'cjs', platform: 'node', target: 'node20', minify: true,
    legalComments: 'none', plugins: patches === 'all' ? plugins : undiciPlugins, logLevel: 'warning',
    banner: { js: '(function (module, exports, require) {' }, footer: { js: '})' },
  });
  const loader = join(dir, 'run.cjs');
  writeFileSync(loader, [
    "'use strict';",
    "const { existsSync, readFileSync, writeFileSync } = require('node:fs');",
    "const { Script } = require('node:vm');",
    `const file = ${JSON.stringify(bundle)};`,
    'const cachedData = existsSync(`${file}.cache`) ? readFileSync(`${file}.cache`) : undefined;',
    "const script = new Script(readFileSync(file, 'latin1'), { filename: file, cachedData });",
    // As bin/svc.js: the V8 flags set while it ran (undici's --liftoff-only) undone before the cache is made.
    "const undoFlags = () => { for (const f of globalThis[Symbol.for('svc.v8FlagsUndo')] ?? []) require('node:v8').setFlagsFromString(f); };",
    "if (!cachedData) process.once('exit', () => { undoFlags(); writeFileSync(`${file}.cache`, script.createCachedData()); });",
    "else if (script.cachedDataRejected) throw new Error(`the code cache of ${file} was rejected`);",
    'const module_ = { exports: {} };',
    'script.runInThisContext()(module_, module_.exports, require);',
    'module_.exports();',
    '',
  ].join('\n'));
  execFileSync(NODE, [loader, ...args], { env, stdio: 'ignore' });
  if (!existsSync(`${bundle}.cache`)) throw new Error(`${entry} made no code cache`);
  return loader;
}

const VALGRIND = (() => {
  try { return execFileSync('sh', ['-c', 'command -v valgrind'], { encoding: 'utf8' }).trim() || undefined; } catch { return undefined; }
})();

/**
 * Instructions (millions) executed by each command's whole process, every thread, under valgrind's
 * cachegrind, node started with `--random-seed=1` (the same for every command; see the header), in
 * `runs` interleaved rounds, its stdout a pipe (as a script reads it); undefined without valgrind.
 */
async function instructionCounts(commands, runs) {
  if (!VALGRIND) return undefined;
  // Each command once first, unmeasured, with the same flags: under a node other than the build's,
  // svc's shipped code cache is rejected and its first run compiles from source and writes a cache
  // of its own for that node and flags (bin/svc.js), which its later runs use, as a user's second
  // call does; the design floor made its cache in buildFloor. Without this, one instruction run on
  // node 22 counted that first compile: 2.11x the floor, against 1.078x warm (2026-11-28).
  for (const c of commands) await new Promise((resolve) => spawn(c.cmd, ['--random-seed=1', ...c.args], { env: c.env, stdio: 'ignore' }).on('close', resolve).on('error', resolve));
  const counts = commands.map(() => []);
  for (let r = 0; r < runs; r++) {
    for (const [i, c] of commands.entries()) {
      const stderr = await new Promise((resolve, reject) => {
        const child = spawn(VALGRIND, ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', c.cmd, '--random-seed=1', ...c.args], { env: c.env, stdio: ['ignore', 'pipe', 'pipe'] });
        let err = '';
        child.stdout.resume();
        child.stderr.setEncoding('utf8').on('data', (d) => { err += d; });
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(err) : reject(new Error(`${c.name} under valgrind exited ${code}: ${err.trim().split('\n').slice(-3).join(' ')}`))));
      });
      const m = /I\s+refs:\s+([\d,]+)/.exec(stderr);
      if (!m) throw new Error(`valgrind printed no instruction count for ${c.name}`);
      counts[i].push(Number(m[1].replace(/,/g, '')) / 1e6);
    }
  }
  return counts;
}

/** `svc sandbox` on a free loopback port, in the clean environment, until stop(). */
async function startSandbox(issues, repos) {
  const args = [BIN, 'sandbox', '--port', '0', '--host', '127.0.0.1', '-o', 'json', '--quiet', '--issues', String(issues), ...(repos ? ['--repos', String(repos)] : [])];
  const child = spawn(NODE, args, { env: cleanEnv(), stdio: ['ignore', 'pipe', 'inherit'] });
  const info = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.slice(0, out.indexOf('\n'))));
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited ${code} before it was ready`)));
  });
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(info.baseUrl)) throw new Error(`the sandbox is not on loopback: ${info.baseUrl}`);
  const env = cleanEnv({ SVC_BASE_URL: info.baseUrl, SVC_API_TOKEN_ID: info.tokenId, SVC_API_TOKEN_SECRET: info.tokenSecret });
  // After its ready line the sandbox makes every issue's JSON in the background; timings start when
  // it is done, so that they do not share the CPU with it.
  const warmStarted = Date.now();
  for (;;) {
    const health = await fetch(`${info.baseUrl}/__sandbox/health`).then((r) => r.json());
    if (health.warmed) break;
    if (Date.now() - warmStarted > 120_000) throw new Error('the sandbox did not finish its warm-up in 120 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  say(`bench: sandbox of ${issues} issues ready, its warm-up done ${((Date.now() - warmStarted) / 1000).toFixed(1)} s later`);
  return {
    info, env,
    /** CPU seconds (user + sys) the sandbox process has used so far, from /proc; undefined elsewhere. */
    cpu: () => procCpu(child.pid),
    stop: () => new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); }),
  };
}

const CLK_TCK = (() => {
  try { return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100; } catch { return 100; }
})();
function procCpu(pid) {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop().split(' ');
    return (Number(f[11]) + Number(f[12])) / CLK_TCK;
  } catch {
    return undefined;
  }
}

/** POSTs to the sandbox over one kept-alive connection: each request's round trip (ms) and its answer. */
function poster(sb) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  const post = (path, body) => new Promise((resolve, reject) => {
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
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        if (res.statusCode !== 200) return reject(new Error(`${path}: HTTP ${res.statusCode}`));
        resolve({ ms, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
  return { post, close: () => agent.destroy() };
}

/** Counts the lines of a stream of chunks. */
const lineCounter = () => {
  const c = { lines: 0, on: (d) => { for (let j = d.indexOf(10); j !== -1; j = d.indexOf(10, j + 1)) c.lines++; } };
  return c;
};

// ---------------------------------------------------------------------------------------------
// The run

const results = [];
/** A target (pass: true/false) or, with pass undefined, a figure shown for context. */
const record = (target, measured, limit, pass, ratio) => results.push({ target, measured, limit, pass, ...(ratio === undefined ? {} : { ratio: Number(ratio.toFixed(3)) }) });
const loadBefore = loadavg();
const began = Date.now();
const startedAt = new Date();

say(`bench: environment of every timed command: ${Object.entries(cleanEnv()).map(([k, v]) => `${k}=${v}`).join(' ')}`);
say(`bench: API calls add SVC_BASE_URL, SVC_API_TOKEN_ID and SVC_API_TOKEN_SECRET of the bench's own sandbox`);
if (dropped.length) say(`bench: left out of this shell's environment: ${dropped.join(', ')}`);

// 1. One call, start-up, side by side; and the call by instructions.
if (!instructionsOnly) say(`bench: one call and start-up, ${RUNS} interleaved rounds...`);
{
  const sb = await startSandbox(400);
  try {
    const svc = (name, ...args) => ({ name, cmd: NODE, args: [BIN, ...args], env: sb.env });
    const commands = [
      { name: 'node -e 0', cmd: NODE, args: ['-e', '0'], env: cleanEnv() },
      svc('svc issues search -o json', 'issues', 'search', '-o', 'json'),
      svc('svc issues search -o json --dry-run', 'issues', 'search', '-o', 'json', '--dry-run'),
      svc('svc --version', '--version'),
      svc('svc --help', '--help'),
      { name: 'node scripts/bench-call-floor.cjs', cmd: NODE, args: [fileURLToPath(new URL('./bench-call-floor.cjs', import.meta.url))], env: sb.env },
    ];
    // The undici floor: what undici alone costs the same call (svc's design requires undici). The
    // design floor: the call through the design card's libraries (commander, the row's zod schemas,
    // undici) and nothing else of svc's.
    const floorDirs = [mkdtempSync(join(tmpdir(), 'svc-bench-undici-')), mkdtempSync(join(tmpdir(), 'svc-bench-design-'))];
    let walls;
    let instructions;
    try {
      if (!instructionsOnly) commands.push({ name: 'undici floor (bench-undici-floor.cjs)', cmd: NODE, args: [await buildFloor('./bench-undici-floor.cjs', floorDirs[0], sb.env)], env: sb.env });
      const callArgs = ['issues', 'search', '-o', 'json'];
      const design = { name: 'design floor (bench-design-floor.cts)', cmd: NODE, args: [await buildFloor('./bench-design-floor.cts', floorDirs[1], sb.env, callArgs, 'all'), ...callArgs], env: sb.env };
      if (!instructionsOnly) {
        commands.push(design);
        walls = await sideBySide(commands, RUNS);
      }
      if (!quick || instructionsOnly) {
        say(`bench: the one call and the design floor by instructions (valgrind), ${INSTRUCTION_RUNS} interleaved run(s) each...`);
        instructions = await instructionCounts([commands[1], design], INSTRUCTION_RUNS);
      }
    } finally {
      for (const d of floorDirs) rmSync(d, { recursive: true, force: true });
    }
    const target = '`svc issues search -o json` / the design floor, instructions (valgrind --tool=cachegrind, node --random-seed=1)';
    if (instructions) {
      const [call, floor] = instructions;
      const m = (xs) => `${fixed(stats(xs).median, 1)} M (min-max ${fixed(Math.min(...xs), 1)}-${fixed(Math.max(...xs), 1)}, n ${xs.length})`;
      record('`svc issues search -o json`, instructions of the whole process', m(call), '(context)', undefined);
      record('the design floor (bench-design-floor.cts), instructions of the whole process', m(floor), '(context)', undefined);
      recordRatio(target, ratioOf(call, floor), 1.1, ' M', 1, 3);
    } else if (!quick || instructionsOnly) {
      record(target, `not measured: no valgrind on PATH (apt-get install valgrind)`, '≤ 1.10x', false);
    } else {
      record(target, 'not measured (--quick)', '(context)', undefined);
    }
    if (walls) {
      const base = stats(walls[0]);
      record('`node -e 0` (baseline)', spread(base, ' ms'), '(context)', undefined);
      // The target: the call against the same call by a bare node:http script, what any node CLI pays
      // for it before doing anything of its own; beside it, the same call against `node -e 0`.
      recordRatio('`svc issues search -o json` / `node scripts/bench-call-floor.cjs` (the call floor)', ratioOf(walls[1], walls[5]), 1.5);
      recordRatio('`svc issues search -o json` / `node -e 0`', ratioOf(walls[1], walls[0]));
      recordRatio('`node scripts/bench-call-floor.cjs` / `node -e 0`', ratioOf(walls[5], walls[0]));
      // Where the call's time goes beyond the node:http floor: undici's own share (the same call through
      // undici alone, built and loaded as svc is), and svc's share on top of it.
      recordRatio('the undici floor (bench-undici-floor.cjs, bundled and code-cached as svc is) / `node scripts/bench-call-floor.cjs`', ratioOf(walls[6], walls[5]));
      recordRatio('`svc issues search -o json` / the undici floor', ratioOf(walls[1], walls[6]));
      // The libraries the design card fixes, on the call's path: their share, and svc's own on top.
      recordRatio('the design floor (bench-design-floor.cts: commander, the row\'s zod schemas, undici) / `node scripts/bench-call-floor.cjs`', ratioOf(walls[7], walls[5]));
      recordRatio('`svc issues search -o json` / the design floor', ratioOf(walls[1], walls[7]));
      recordRatio('`svc issues search -o json --dry-run` / `node -e 0`', ratioOf(walls[2], walls[0]));
      recordRatio('`svc --version` / `node -e 0`', ratioOf(walls[3], walls[0]), 1.2);
      recordRatio('`svc --help` / `node -e 0`', ratioOf(walls[4], walls[0]), 1.4);
    }
  } finally {
    await sb.stop();
  }
}

// 6. Bulk actions: one process vs a shell loop of single calls (issue 23).
/**
 * `svc issues archive --ids-from FILE` over N ids vs `while read id; do svc issues archive "$id"; done`
 * over N other ids of the same sandbox, one after the other: the ratio of the wall times >= 10x.
 */
async function benchBulk() {
  const n = BULK;
  say(`bench: bulk, ${thousands(n)} archives in one process vs a shell loop of ${thousands(n)} calls...`);
  const sb = await startSandbox(4 * n, 4);
  const http = poster(sb);
  try {
    const ids = [];
    for (let page = 1; ids.length < 2 * n; page++) {
      const r = JSON.parse((await http.post('/api/v1/issues/search', { page, pageSize: 500, sortBy: 'createdAt', sortOrder: 'asc', types: ['open'] })).body);
      if (!r.issues.length) throw new Error(`the sandbox has ${ids.length} open issues, not ${2 * n}`);
      ids.push(...r.issues.map((i) => i.id));
    }
    const bulkFile = join(configDir, 'bulk-ids.txt');
    const loopFile = join(configDir, 'loop-ids.txt');
    writeFileSync(bulkFile, ids.slice(0, n).join('\n') + '\n');
    writeFileSync(loopFile, ids.slice(n, 2 * n).join('\n') + '\n');
    const bulk = await run(NODE, [BIN, 'issues', 'archive', '--ids-from', bulkFile, '-o', 'ndjson'], { env: sb.env });
    if (bulk.code !== 0) throw new Error(`svc issues archive --ids-from exited ${bulk.code}: ${bulk.stderr.trim()}`);
    const script = `while read -r id; do "$0" "$1" issues archive "$id" -o json >/dev/null || exit 1; done < "$2"`;
    const loop = await run('/bin/sh', ['-c', script, NODE, BIN, loopFile], { env: sb.env });
    if (loop.code !== 0) throw new Error(`the shell loop of svc issues archive exited ${loop.code}: ${loop.stderr.trim()}`);
    const ratio = loop.wall / bulk.wall;
    record(`bulk: ${thousands(n)} archives in one process (\`--ids-from\`) vs a shell loop of ${thousands(n)} single calls`,
      `${ratio.toFixed(1)}x: ${(bulk.wall / 1000).toFixed(2)} s vs ${(loop.wall / 1000).toFixed(2)} s`, '≥ 10x', ratio >= 10);
  } finally {
    http.close();
    await sb.stop();
  }
}
// (--instructions-only: the one call by instructions, above, and nothing else.)
if (!instructionsOnly) {
  await benchBulk();

  // 2.-5. Listings at each size; at the largest the sandbox's page time and the gate; at the table size the table.
  const peaks = [];
  for (const size of SIZES) {
    // Four repositories, all in the token's organization, so that the listing holds every issue.
    const sb = await startSandbox(size, 4);
    const http = poster(sb);
    try {
      const first = JSON.parse((await http.post('/api/v1/issues/search', { pageSize: 1 })).body);
      if (first.totalCount !== size) throw new Error(`the sandbox lists ${first.totalCount} issues, not ${size}`);
      if (size === LARGEST) {
        // Each page of one listing, in order, the first time the sandbox serves them (before any listing).
        say(`bench: sandbox, every page of ${size} issues once...`);
        const times = [];
        const cpuBefore = sb.cpu();
        for (let page = 1; (page - 1) * PAGE < size; page++) {
          const r = await http.post('/api/v1/issues/search', { page, pageSize: PAGE, sortBy: 'createdAt', sortOrder: 'asc' });
          times.push(r.ms);
        }
        const cpuAfter = sb.cpu();
        // The sandbox's own CPU per page holds on a busy machine; the round trip, which waits for a
        // core, does not: both are shown.
        const st = stats(times);
        if (cpuBefore !== undefined && cpuAfter !== undefined) {
          const perPage = ((cpuAfter - cpuBefore) * 1000) / times.length;
          record(`sandbox: a page of ${PAGE} at ${thousands(size)} issues, its CPU (every page once, after warm-up)`, `${fixed(perPage, 2)} ms (${fixed(cpuAfter - cpuBefore, 2)} s of CPU for ${times.length} pages)`, '< 2 ms', perPage < 2);
          record(`sandbox: a page of ${PAGE} at ${thousands(size)} issues, round trip from the bench (0.9 MB)`, spread(st, ' ms', 2), '(context)', undefined);
        } else {
          record(`sandbox: a page of ${PAGE} at ${thousands(size)} issues, round trip from the bench (0.9 MB; no /proc for its CPU)`, spread(st, ' ms', 2), '< 2 ms', st.median < 2);
        }
        const small = [];
        for (let i = -3; i < RUNS; i++) {
          const r = await http.post('/api/v1/issues/search', { page: 1 + Math.max(i, 0) * 7, pageSize: 10 });
          if (i >= 0) small.push(r.ms);
        }
        record(`sandbox: a page of 10 (default sort) at ${thousands(size)} issues`, spread(stats(small), ' ms', 2), '(context)', undefined);
      }

      say(`bench: --all -o ndjson over ${size} issues, ${LISTING_RUNS} run(s)...`);
      const walls = [];
      const rss = [];
      const cpu = [];
      for (let i = 0; i < LISTING_RUNS; i++) {
        const lines = lineCounter();
        const r = await run(NODE, [BIN, 'issues', 'search', '--all', '-o', 'ndjson'], { env: sb.env, measure: true, onStdout: lines.on });
        if (r.code !== 0) throw new Error(`--all exited ${r.code}: ${r.stderr.trim()}`);
        if (lines.lines !== size) throw new Error(`--all wrote ${lines.lines} lines, expected ${size}`);
        walls.push(r.wall);
        if (r.peakKb !== undefined) rss.push(r.peakKb);
        if (r.cpuSec !== undefined) cpu.push(r.cpuSec);
      }
      const wall = stats(walls);
      const target = size === LARGEST;
      const rate = stats(walls.map((w) => size / (w / 1000)));
      record(`\`--all -o ndjson\`, ${thousands(size)} issues: end to end`, `${thousands(rate.median)} issues/s (min-max ${thousands(rate.min)}-${thousands(rate.max)}); wall ${spread(wall, ' ms', 0)}`,
        target ? '≥ 40,000 issues/s' : '(context)', target ? rate.median >= 40_000 : undefined);
      if (cpu.length) {
        const perCpu = stats(cpu.map((c) => size / c));
        record(`\`--all -o ndjson\`, ${thousands(size)} issues: svc's own CPU`, `${thousands(perCpu.median)} issues per CPU-second (min-max ${thousands(perCpu.min)}-${thousands(perCpu.max)}); CPU ${spread(stats(cpu), ' s', 2)}`,
          target ? '≥ 60,000 issues/CPU-s' : '(context)', target ? perCpu.median >= 60_000 : undefined);
      } else {
        record(`\`--all -o ndjson\`, ${thousands(size)} issues: svc's own CPU`, 'not measured (needs /usr/bin/time)', '≥ 60,000 issues/CPU-s', target ? false : undefined);
      }
      if (rss.length) {
        const peak = Math.max(...rss);
        peaks.push({ size, peak });
        record(`\`--all -o ndjson\`, ${thousands(size)} issues: peak RSS`, `${mb(peak)} (the largest of ${rss.length}; min ${mb(Math.min(...rss))})`, '< 120 MB', peak < 120 * 1024);
      } else {
        record(`\`--all -o ndjson\`, ${thousands(size)} issues: peak RSS`, 'not measured (needs /usr/bin/time)', '< 120 MB', false);
      }

      if (size === LARGEST) {
        // --all against a plain pager, the gate against --all: the same rounds, the order rotating.
        let read = '?';
        const gateRead = (out) => {
          read = /read ([\d,]+) of/.exec(out)?.[1] ?? read;
          return read === '?' ? 'no "read N of" in its summary' : undefined;
        };
        const commands = [
          { key: 'pager', name: 'node scripts/bench-pager-floor.cjs', cmd: NODE, args: [fileURLToPath(new URL('./bench-pager-floor.cjs', import.meta.url))], lines: size },
          { key: 'all', name: 'svc issues search --all -o ndjson', cmd: NODE, args: [BIN, 'issues', 'search', '--all', '-o', 'ndjson'], lines: size },
          // 1: the gate failed (the seeded data has high issues); anything else is an error.
          { key: 'gate', name: 'svc gate --fail-on high', cmd: NODE, args: [BIN, 'gate', '--fail-on', 'high'], codes: [0, 1], check: gateRead },
          ...SIDE_BY_SIDE.map((c) => c.command({ NODE, BIN, size })),
        ].map((c) => ({ env: sb.env, measure: true, ...c }));
        const rounds = Math.max(LISTING_RUNS, quick ? 1 : 5);
        say(`bench: ${commands.map((c) => c.name).join(', ')}: ${size} issues, ${rounds} interleaved rounds...`);
        const walls = await sideBySide(commands, rounds);
        const at = (key) => commands.findIndex((c) => c.key === key);
        const pair = (target, key, floorKey, limit) => {
          const [i, f] = [at(key), at(floorKey)];
          const seconds = (xs) => xs.map((x) => x / 1000);
          recordRatio(`${target}: wall`, ratioOf(seconds(walls[i]), seconds(walls[f])), limit, ' s', 2);
          if (walls.cpus[i].length === rounds && walls.cpus[f].length === rounds) recordRatio(`${target}: CPU (user + sys)`, ratioOf(walls.cpus[i], walls.cpus[f]), undefined, ' s', 2);
        };
        pair(`\`--all -o ndjson\` / plain node:http pager (bench-pager-floor.cjs), ${thousands(size)} issues`, 'all', 'pager', 1.0);
        pair(`\`svc gate --fail-on high\` (${read} open issues read) / \`--all -o ndjson\`, ${thousands(size)} issues`, 'gate', 'all', 1.0);
        for (const c of SIDE_BY_SIDE) pair(c.target(size), c.key, c.floor, c.limit);
        record(`\`svc gate --fail-on high\`, ${thousands(size)} issues: wall`, spread(stats(walls[at('gate')].map((w) => w / 1000)), ' s', 2), '(context)', undefined);

        // Peak RSS of the gate with its reports (written to a temporary directory, checked non-empty).
        const reportsDir = mkdtempSync(join(tmpdir(), 'svc-bench-reports-'));
        try {
          const REPORTS = { sarif: '--sarif', jsonReport: '--json-report', junit: '--junit', markdown: '--markdown', sast: '--gitlab-sast', codeQuality: '--code-quality' };
          const gateRss = async (kinds, limitMb) => {
            const what = kinds.map((k) => REPORTS[k]).join(' ');
            say(`bench: gate ${what}, ${size} issues, ${LISTING_RUNS} run(s)...`);
            const peak = [];
            let stopped = false;
            for (let r = 0; r < LISTING_RUNS; r++) {
              const files = kinds.map((k) => join(reportsDir, `${k}-${r}`));
              const res = await run(NODE, [BIN, 'gate', '--fail-on', 'high', ...kinds.flatMap((k, n) => [REPORTS[k], files[n]])], { env: sb.env, measure: true, stopAfterMs: STOP_AFTER_MS });
              if (res.stopped) { stopped = true; break; }
              if (res.code !== 0 && res.code !== 1) throw new Error(`gate ${what} exited ${res.code}: ${res.stderr.trim()}`);
              for (const f of files) if (!(statSync(f).size > 0)) throw new Error(`gate ${what} wrote no ${f}`);
              for (const f of files) rmSync(f, { force: true });
              if (res.peakKb !== undefined) peak.push(res.peakKb);
            }
            const target = `\`svc gate --fail-on high ${what}\`, ${thousands(size)} issues: peak RSS`;
            if (stopped) record(target, `stopped after ${STOP_AFTER_MS / 1000} s`, `< ${limitMb} MB`, false);
            else if (peak.length === 0) record(target, 'not measured (needs /usr/bin/time)', `< ${limitMb} MB`, false);
            else record(target, `${mb(Math.max(...peak))} (the largest of ${peak.length}; min ${mb(Math.min(...peak))})`, `< ${limitMb} MB`, Math.max(...peak) < limitMb * 1024);
          };
          await gateRss(['sarif', 'jsonReport'], 200);
          await gateRss(Object.keys(REPORTS), 250);
        } finally {
          rmSync(reportsDir, { recursive: true, force: true });
        }
      }

      if (size === TABLE_ROWS) {
        say(`bench: a table of ${size} rows, ${LISTING_RUNS} run(s)...`);
        const tableWalls = [];
        for (let i = 0; i < LISTING_RUNS; i++) {
          const lines = lineCounter();
          const r = await run(NODE, [BIN, 'issues', 'search', '--all', '-o', 'table'], { env: sb.env, onStdout: lines.on, stopAfterMs: STOP_AFTER_MS });
          if (r.stopped) { tableWalls.length = 0; break; }
          if (r.code !== 0) throw new Error(`--all -o table exited ${r.code}: ${r.stderr.trim()}`);
          if (lines.lines < size) throw new Error(`--all -o table wrote ${lines.lines} lines for ${size} rows`);
          tableWalls.push(r.wall);
        }
        const what = `\`svc issues search --all -o table\`, ${thousands(size)} rows`;
        if (tableWalls.length === 0) record(what, `stopped after ${STOP_AFTER_MS / 1000} s`, '< 1 s', false);
        else {
          const t = stats(tableWalls.map((w) => w / 1000));
          record(what, spread(t, ' s', 2), '< 1 s', t.median < 1);
        }
      }
    } finally {
      http.close();
      await sb.stop();
    }
  }
  if (!SIZES.includes(TABLE_ROWS)) record(`\`svc issues search --all -o table\`, ${thousands(TABLE_ROWS)} rows`, `not measured (--sizes has no ${TABLE_ROWS})`, '< 1 s', false);
  if (peaks.length > 1) {
    const first = peaks[0];
    const last = peaks[peaks.length - 1];
    const growth = (last.peak - first.peak) / 1024;
    record(`peak RSS growth, ${thousands(first.size)} → ${thousands(last.size)} issues`, `${growth >= 0 ? '+' : ''}${growth.toFixed(0)} MB (${peaks.map((p) => mb(p.peak)).join(', ')})`, '< 15 MB (flat)', growth < 15);
  }
}
rmSync(configDir, { recursive: true, force: true });

const loadAfter = loadavg();
const cpu = cpus();
const machine = {
  date: `${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  cpu: `${cpu.length} × ${cpu[0]?.model?.trim() ?? 'unknown CPU'}`,
  memory: `${Math.round(totalmem() / 2 ** 30)} GB`,
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  loadBefore: loadBefore.map((x) => x.toFixed(2)).join(' '),
  loadAfter: loadAfter.map((x) => x.toFixed(2)).join(' '),
  env: Object.keys(cleanEnv()).join(', '),
  left: dropped,
  runs: `${RUNS} interleaved rounds for the calls, ${LISTING_RUNS} per listing size${quick ? ' (--quick: the figures say little)' : ''}`,
  seconds: Math.round((Date.now() - began) / 1000),
};

if (flag('json')) {
  process.stdout.write(JSON.stringify({ machine, results }, null, 2) + '\n');
} else {
  const verdict = (p) => (p === undefined ? '' : p ? 'PASS' : 'FAIL');
  const rows = [['Target', 'Measured: median (spread)', 'Limit', 'Result'], ...results.map((r) => [r.target, r.measured, r.limit, verdict(r.pass)])];
  const out = [
    `${machine.date}; node ${machine.node}, ${machine.platform}; ${machine.cpu}; ${machine.memory}`,
    `load average (1, 5, 15 min): ${machine.loadBefore} before, ${machine.loadAfter} after; ${machine.seconds} s in all`,
    `clean environment: ${machine.env} (+ the sandbox's SVC_BASE_URL and token for calls)${dropped.length ? `; left out: ${dropped.join(', ')}` : ''}`,
    `${machine.runs}; peak RSS and CPU by ${TIME ? '/usr/bin/time' : 'nothing (no /usr/bin/time)'}`,
    '',
    `| ${rows[0].join(' | ')} |`,
    `|${rows[0].map(() => '---').join('|')}|`,
    ...rows.slice(1).map((r) => `| ${r.join(' | ')} |`),
    '',
    `${results.filter((r) => r.pass === true).length} targets passed, ${results.filter((r) => r.pass === false).length} failed${results.some((r) => r.pass === false) ? `: ${results.filter((r) => r.pass === false).map((r) => r.target).join('; ')}` : ''}`,
  ];
  process.stdout.write(out.join('\n') + '\n');
}
process.exitCode = results.every((r) => r.pass !== false) ? 0 : 1;
