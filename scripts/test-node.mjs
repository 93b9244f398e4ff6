#!/usr/bin/env node
// `npm run test:node [-- 22 24]`: the built CLI's smoke checks under other Node.js versions, with the
// binaries of the `node` package from the npm registry (`npx -y node@22`): downloaded once into npm's
// cache, offline after that. Each version: --version, a call, a listing with --all, and the gate with
// its reports, against a sandbox that version runs itself. Exit 1 when any check fails.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, ensureBuilt } from './sandbox-build.mjs';

const versions = process.argv.slice(2).filter((a) => /^\d+$/.test(a));
if (versions.length === 0) versions.push('22', '24');
ensureBuilt();
const BIN = join(ROOT, 'bin', 'svc.js');
let failed = 0;

/** The binary of node@<major>, as the npm package installs it. */
function nodeBinary(major) {
  const out = execFileSync('npx', ['-y', `node@${major}`, '-p', 'process.version + " " + process.execPath'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop();
  const [version, path] = out.split(' ');
  if (!version.startsWith(`v${major}.`)) throw new Error(`npx node@${major} ran ${version}`);
  return { version, path };
}

function run(node, args, env) {
  return new Promise((resolve) => {
    const child = spawn(node, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function check(label, ok, detail) {
  process.stdout.write(`  ${ok ? 'ok  ' : 'FAIL'} ${label}${ok ? '' : `: ${detail}`}\n`);
  if (!ok) failed++;
}

/** A sandbox served by that node: resolves with its base URL and token, and a stop(). */
function startSandbox(node, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [BIN, 'sandbox', '--port', '0', '--issues', '300', '--quiet', '-o', 'json'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n').find((l) => l.startsWith('{') && l.endsWith('}'));
      if (line) resolve({ info: JSON.parse(line), stop: () => new Promise((done) => { child.on('close', done); child.kill('SIGTERM'); }) });
    });
    child.on('close', (code) => reject(new Error(`the sandbox exited (${code}) before it served`)));
  });
}

for (const major of versions) {
  const { version, path } = nodeBinary(major);
  process.stdout.write(`Node ${version} (${path})\n`);
  const dir = mkdtempSync(join(tmpdir(), `svc-node${major}-`));
  const base = { PATH: process.env.PATH, HOME: dir, SVC_CONFIG_DIR: join(dir, 'config'), XDG_CACHE_HOME: join(dir, 'cache') };
  const sandbox = await startSandbox(path, base);
  try {
    const env = { ...base, SVC_BASE_URL: sandbox.info.baseUrl, SVC_API_TOKEN_ID: sandbox.info.tokenId, SVC_API_TOKEN_SECRET: sandbox.info.tokenSecret };
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const v = await run(path, ['--version'], env);
    check('svc --version', v.code === 0 && v.stdout === `${pkg.version}\n`, v.stderr || v.stdout);

    const call = await run(path, ['issues', 'search', '--page-size', '3', '-o', 'json'], env);
    let total = -1;
    try {
      const data = JSON.parse(call.stdout);
      total = data.totalCount;
      check('a call (issues search)', call.code === 0 && data.issues.length === 3, call.stderr);
    } catch {
      check('a call (issues search)', false, call.stderr);
    }

    const all = await run(path, ['issues', 'search', '--all', '--page-size', '50', '-o', 'ndjson'], env);
    const rows = all.stdout.split('\n').filter(Boolean);
    check(`--all (${rows.length} of totalCount ${total})`, all.code === 0 && rows.length === total && total > 0, all.stderr);

    const reports = ['--sarif', join(dir, 'svc.sarif'), '--junit', join(dir, 'svc.xml'), '--json-report', join(dir, 'svc.json'), '--markdown', join(dir, 'svc.md')];
    const gate = await run(path, ['gate', '--fail-on', 'critical', ...reports], env);
    const written = [1, 3, 5, 7].every((i) => existsSync(reports[i]));
    let sarifOk = false;
    try {
      sarifOk = JSON.parse(readFileSync(reports[1], 'utf8')).version === '2.1.0' && JSON.parse(readFileSync(reports[5], 'utf8')).decided === true;
    } catch { /* said below */ }
    check(`the gate with reports (exit ${gate.code})`, (gate.code === 0 || gate.code === 1) && written && sarifOk, gate.stderr.split('\n').slice(-3).join(' '));
  } finally {
    await sandbox.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
process.stdout.write(failed === 0 ? `All checks passed on Node ${versions.join(', ')}.\n` : `${failed} check(s) failed.\n`);
process.exit(failed === 0 ? 0 : 1);
