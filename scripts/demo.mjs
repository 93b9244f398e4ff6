#!/usr/bin/env node
// `npm run demo`: a short tour of svc against the local sandbox. No account, no network, no
// configuration: it starts `svc sandbox --port 0`, runs the real bin against it (each command
// printed before its output), and stops the sandbox again.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT, ensureBuilt } from './sandbox-build.mjs';

const BIN = join(ROOT, 'bin', 'svc.js');
const tty = process.stdout.isTTY === true && !process.env.NO_COLOR;
const bold = (s) => (tty ? `\u001b[1m${s}\u001b[22m` : s);
const dim = (s) => (tty ? `\u001b[2m${s}\u001b[22m` : s);
const say = (s = '') => process.stdout.write(s + '\n');

ensureBuilt((line) => say(dim(line)));

const configDir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
// The user's own svc settings must not leak into the tour (nor the tour into them).
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_')));
baseEnv.SVC_CONFIG_DIR = configDir;

const sandbox = await startSandbox();
let failed = false;
try {
  await tour(sandbox.info);
} catch (err) {
  failed = true;
  process.stderr.write(`demo: error: ${err.message}\n`);
} finally {
  await sandbox.stop();
  rmSync(configDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

async function tour(info) {
  const env = { ...baseEnv, SVC_BASE_URL: info.baseUrl, SVC_API_TOKEN_ID: info.tokenId, SVC_API_TOKEN_SECRET: info.tokenSecret };
  say(bold('svc demo: a tour against the local sandbox'));
  say(dim(`The sandbox runs on ${info.baseUrl} with seeded data (${info.repositories} repositories, ${info.issues} issues)`));
  say(dim("and its own sandbox-only test token. Nothing leaves this machine."));

  await step('Repositories of the organization, with their issue counts', ['repos', 'list', '-o', 'table'], env);
  await step('The five highest-scoring open issues', ['issues', 'search', '--types', 'open', '--sort-by', 'score', '--page-size', '5', '-o', 'table'], env);
  const before = await api(info, 'stats/summary', {});
  await step('A summary of scans and issues', ['stats', 'summary', '-o', 'table'], env);

  // Triage: of the open critical issues, the one the scanner is least sure of is read in full and,
  // its input being checked upstream, set aside as a false positive, saying why (never without a reason).
  const critical = (await api(info, 'issues/search', { types: ['open'], sortBy: 'score', pageSize: 50 })).issues.filter((i) => i.score >= 90);
  const doubt = critical.reduce((a, b) => ((b.confidence ?? 100) < (a.confidence ?? 100) ? b : a));
  await step(`The critical issue the scanner is least sure of (confidence ${doubt.confidence}%), in full: level, location, CWE, description, code, and what to do next`, ['issues', 'get', doubt.id, '-o', 'table'], env);
  await step('Triaged: its input is checked upstream, so mark it a false positive, saying why',
    ['issues', 'mark-false-positive', doubt.id, '--reason', 'Input is validated by the API gateway before it reaches this handler (SEC-42)', '-o', 'table'], env);
  await step('The counts changed', ['stats', 'summary', '--columns', 'issues.open,issues.falsePositive', '-o', 'table'], env);
  const after = await api(info, 'stats/summary', {});
  say(dim(`open ${before.issues.open} -> ${after.issues.open}, false positive ${before.issues.falsePositive} -> ${after.issues.falsePositive}`));

  const repo = (await api(info, 'repositories/list', { getCounts: false }))[0];
  const baseline = join(configDir, 'baseline.json');
  await step(`The CI gate on ${repo.name}: fail on any open issue at level high or above (exit 1 = failed), keeping the verdict as a baseline`,
    ['gate', '--repository-ids', repo.id, '--fail-on', 'high', '--json-report', baseline], env, { expect: [0, 1] });
  const started = await step(`Start a scan of ${repo.name}`, ['scans', 'start', '--repository-ids', repo.id, '-o', 'json'], env, { capture: true });
  const { scanId } = JSON.parse(started);
  say(dim('(waiting for the scan to complete...)'));
  for (let k = 0; k < 100; k++) {
    const scans = await api(info, 'scans/list', { scanId });
    if (scans.codeScans[0]?.status !== 'running') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await step('The scan has completed, with the issues it found', ['scans', 'list', '--scan-id', scanId, '--columns', 'scanId,repositoryId,status,finished,issueCounts.open', '-o', 'table'], env);
  await step('The gate a pull request wants: only what is new since the baseline counts',
    ['gate', '--repository-ids', repo.id, '--fail-on', 'high', '--baseline', baseline], env, { expect: [0, 1] });

  say();
  say(bold('That was the real svc against a local stand-in of the service.'));
  say(`Run your own: ${bold('npm run sandbox')}, then paste the export line it prints into another shell.`);
}

/**
 * Print the command, run the real bin, let its output through; `capture` also returns stdout. An exit
 * code outside `expect` (default: 0 only) ends the tour as a failure; an expected non-zero one is shown.
 */
function step(title, args, env, { capture = false, expect = [0] } = {}) {
  say();
  say(dim(`# ${title}`));
  say(bold(`$ svc ${args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(' ')}`));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'] });
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (d) => { out += d; process.stdout.write(d); });
    child.on('error', reject);
    child.on('close', (code) => {
      if (!expect.includes(code)) return reject(new Error(`'svc ${args.join(' ')}' exited ${code}`));
      if (code !== 0) say(dim(`(exit ${code})`));
      resolve(out);
    });
  });
}

/** Direct calls for the glue of the tour (ids, before/after numbers). */
async function api(info, path, body) {
  const res = await fetch(`${info.baseUrl}/api/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-token-id': info.tokenId, 'x-service-api-token-secret': info.tokenSecret },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

/** `svc sandbox --port 0 -o json` in the background; resolves with its ready line. */
function startSandbox() {
  const child = spawn(process.execPath, [BIN, 'sandbox', '--port', '0', '-o', 'json', '--quiet', '--scan-duration', '800'], {
    env: baseEnv, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      try {
        resolve({ info: JSON.parse(line), stop: async () => { child.kill('SIGTERM'); await exited; } });
      } catch (err) {
        reject(new Error(`the sandbox printed something unexpected: ${line}`));
      }
    });
    exited.then((code) => reject(new Error(`the sandbox exited (${code}) before it was ready: ${stderr.trim()}`)));
  }).catch((err) => {
    process.stderr.write(`demo: error: ${err.message}\n`);
    child.kill('SIGTERM');
    process.exit(1);
  });
}
