/**
 * The CI job of the README, as a CI runner would run it: a bash script with `svc` on PATH (a
 * symlink, as `npm install --global` makes), the credentials in the environment only, and two
 * commands, run against the sandbox: start a scan and wait for it, then gate with a SARIF report.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/run-svc.js';
import { archiveWhere, busiestRepo, countLevels, levelOf, startGateSandbox, type GateSandbox } from '../helpers/sandbox-scope.js';
import { oasisRegionProblems, schemaErrors } from '../unit/gate/reports/sarif-schema.js';
import { tempDir } from '../helpers/temp.js';

const JOB = `#!/usr/bin/env bash
# Credentials come from the environment (the CI's secret store): SVC_BASE_URL, SVC_API_TOKEN_ID, SVC_API_TOKEN_SECRET.
set -euo pipefail
svc scans start --repository-ids "$REPO_ID" --wait --poll-interval 0.2
svc gate --repository-ids "$REPO_ID" --fail-on high --sarif out.sarif
`;

const sandboxes: GateSandbox[] = [];
afterAll(async () => { await Promise.all(sandboxes.splice(0).map((s) => s.close())); });

/** A job directory: the script, and `svc` on a bin directory of its own. */
function jobDir(): { dir: string; path: string } {
  const dir = tempDir('svc-ci-job-');
  mkdirSync(join(dir, 'bin'));
  symlinkSync(BIN, join(dir, 'bin', 'svc'));
  writeFileSync(join(dir, 'job.sh'), JOB, { mode: 0o755 });
  return { dir, path: [join(dir, 'bin'), dirname(process.execPath), process.env.PATH].join(':') };
}

function runJob(sb: GateSandbox, repoId: string, secret = sb.tokenSecret) {
  const { dir, path } = jobDir();
  const env = cleanEnv({ SVC_BASE_URL: sb.url, SVC_API_TOKEN_ID: sb.tokenId, SVC_API_TOKEN_SECRET: secret, REPO_ID: repoId, PATH: path, CI: 'true' });
  return new Promise<{ code: number | null; stdout: string; stderr: string; dir: string }>((resolve, reject) => {
    const child = spawn('bash', [join(dir, 'job.sh')], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, dir }));
  });
}

async function sandbox(seed = 23): Promise<GateSandbox> {
  const sb = await startGateSandbox({ seed, scanDurationMs: 400 });
  sandboxes.push(sb);
  return sb;
}

/** The open issues of the repository in the sandbox now, by level. */
const openNow = (sb: GateSandbox, repoId: string) => sb.state.issues.filter((i) => i.repositoryId === repoId && i.status === 'open');

describe('the three-line CI job against the sandbox', () => {
  it.concurrent('open high issues: the scan completes, the gate fails the job (exit 1), out.sarif validates', async () => {
    const sb = await sandbox();
    const { repoId, counts } = await busiestRepo(sb);
    const r = await runJob(sb, repoId);
    expect(r.code, r.stderr).toBe(1);
    const [scanId, ...rest] = r.stdout.split('\n');
    expect(sb.state.scan(scanId)).toMatchObject({ status: 'completed', repositoryId: repoId });
    expect(rest[0]).toBe('svc gate: FAILED');
    expect(r.stderr).toContain(`scan ${scanId}: completed`);
    const open = openNow(sb, repoId);
    const now = countLevels(open.map((i) => i.score));
    expect(now.total).toBe(counts.total + sb.state.issues.filter((i) => i.scanId === scanId).length);
    expect(r.stderr.trimEnd().split('\n').at(-1)).toBe(`svc: error: gate failed: ${now.critical + now.high} issues at high or above (fail-on high)`);

    const sarif = JSON.parse(readFileSync(join(r.dir, 'out.sarif'), 'utf8'));
    expect(schemaErrors(sarif)).toEqual([]);
    expect(oasisRegionProblems(sarif)).toEqual([]);
    expect(sarif.runs[0].results).toHaveLength(now.total);
    expect(sarif.runs[0].results.filter((x: { level: string }) => x.level === 'error')).toHaveLength(now.critical + now.high);
    expect(`${r.stdout}${r.stderr}`).not.toContain(sb.tokenSecret);
  });

  it.concurrent('no open high issue after the scan: the job passes (exit 0) with a valid, clean out.sarif', async () => {
    const sb = await sandbox(8);
    const { repoId } = await busiestRepo(sb, { everyLevel: false });
    expect(archiveWhere(sb, repoId, (i) => levelOf(i.score) === 'critical' || levelOf(i.score) === 'high')).toBeGreaterThan(0);
    const r = await runJob(sb, repoId);
    const scanId = r.stdout.split('\n')[0];
    const added = sb.state.issues.filter((i) => i.scanId === scanId);
    // The scan's new issues are seeded: with seed 8 there are three, none of them high or above.
    expect(added.length).toBeGreaterThan(0);
    expect(added.map((i) => levelOf(i.score)).filter((l) => l === 'critical' || l === 'high'), 'seed data').toEqual([]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[1]).toMatch(/^svc gate: PASSED/);
    const sarif = JSON.parse(readFileSync(join(r.dir, 'out.sarif'), 'utf8'));
    expect(schemaErrors(sarif)).toEqual([]);
    expect(sarif.runs[0].results).toHaveLength(openNow(sb, repoId).length);
    expect(sarif.runs[0].results.filter((x: { level: string }) => x.level === 'error')).toEqual([]);
    expect(sarif.runs[0].properties.gate).toMatchObject({ passed: true });
  });

  it.concurrent('a wrong secret: the job stops at the scan with exit 3, no scan started, no report', async () => {
    const sb = await sandbox();
    const { repoId } = await busiestRepo(sb);
    const scans = sb.state.scans.length;
    const r = await runJob(sb, repoId, 'wrong-secret-for-the-job');
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(/^svc: error: scans\/start failed: HTTP 401: invalid API token/)]);
    expect(sb.state.scans.length).toBe(scans);
    expect(existsSync(join(r.dir, 'out.sarif'))).toBe(false);
  });
});
