/**
 * Commands that change things, one at a time (src/commands/operation/run.ts): what they send, what
 * they refuse before sending, and what they say when the answer leaves the change's fate unknown.
 */
import { describe, expect, it } from 'vitest';
import { useFakeServer } from '../../../helpers/fake-server.js';
import { runCli } from '../../../helpers/host.js';

const fake = useFakeServer({ mock: true });
const run = (argv: string[]) => runCli([...argv, '--org', 'org_1'], { env: fake.env, dispatcher: fake.dispatcher });
const SET = '/api/v1/repositories/set-show-check-status';

describe('a change whose answer svc cannot read', () => {
  it.each([
    ['not JSON', { text: '{"ok":tr', type: 'application/json' }],
    ['a list where an object is documented', { json: [{ ok: true }] }],
    ['a key twice', { text: '{"ok":true,"ok":false}', type: 'application/json' }],
  ])('%s: exit 7, sent once, and says the change may or may not have been made (not "try again")', async (_name, reply) => {
    fake.stub(SET, reply);
    const r = await run(['repos', 'set-show-check-status', 'repo_1', '--show-check-status', '-o', 'json']);
    expect(r.code, r.stderr).toBe(7);
    expect(fake.hits(SET)).toBe(1);
    expect(r.stderr).toMatch(/the change may or may not have been made: check before repeating it/);
    expect(r.stderr).not.toMatch(/try again/);
  });

  it('a read keeps its own words (nothing was changed)', async () => {
    fake.stub('/api/v1/issues/get', [{ text: '{"ok":tr', type: 'application/json' }]);
    const r = await run(['issues', 'get', 'iss_1', '-o', 'json', '--retries', '0']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).not.toMatch(/may or may not have been made/);
  });
});

describe('bad values of a change: one line, exit 2, nothing sent', () => {
  it.each([
    [['repos', 'set-scan-branch', 'repo_1', '--default-scan-target-branch', 'my branch'], /--default-scan-target-branch: is not a git branch name: it holds white space/],
    [['repos', 'set-scan-branch', 'repo_1', '--default-scan-target-branch', 'feat..x'], /is not a git branch name: it holds '\.\.'/],
    [['repos', 'set-scan-branch', 'repo_1', '--default-scan-target-branch', 'main.lock'], /is not a git branch name: it ends with '\.lock'/],
    [['repos', 'set-pr-title-template', 'repo_1', '--pr-title-template', 'Fix\nit'], /--pr-title-template: must be one line/],
  ])('%j', async (argv, says) => {
    const r = await run(argv as string[]);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(says);
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    [['repos', 'set-scan-branch', 'repo_1', '--default-scan-target-branch', 'release/v1.2'], '/api/v1/repositories/set-scan-branch', { defaultScanTargetBranch: 'release/v1.2' }],
    [['repos', 'set-pr-title-template', 'repo_1', '--pr-title-template', 'Security fix: {title}'], '/api/v1/repositories/set-pr-title-template', { prTitleTemplate: 'Security fix: {title}' }],
    [['issues', 'update-severity', 'iss_1', '--severity', '7.5'], '/api/v1/issues/update-severity', { severity: 7.5 }],
    // The spec states no range for severity (public clients use 0 to 10): any number is sent.
    [['issues', 'update-severity', 'iss_1', '--severity', '11'], '/api/v1/issues/update-severity', { severity: 11 }],
  ])('a good value is sent: %j', async (argv, path, part) => {
    fake.stub(path, { json: { ok: true } });
    const r = await run([...(argv as string[]), '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(fake.to(path)[0].body).toMatchObject({ ...part, organizationId: 'org_1' });
  });
});

describe('scans start without --wait, on a table', () => {
  it.each([
    ['scanId', { scanId: 'sc_1' }],
    ['id (some clients fall back to it)', { id: 'sc_1' }],
  ])('an answer naming the scan by %s shows its id and how to follow it', async (_name, json) => {
    fake.stub('/api/v1/scans/start', { json });
    const r = await run(['scans', 'start', '--repository-ids', 'repo_1', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Scan started/);
    expect(r.stdout).toMatch(/Scan\s+sc_1/);
    expect(r.stdout).toContain('svc scans list --scan-id sc_1');
    expect(fake.hits('/api/v1/scans/start')).toBe(1);
  });

  it('an answer naming it both ways shows one Scan line, the scanId (it showed two)', async () => {
    fake.stub('/api/v1/scans/start', { json: { scanId: 'sc_1', id: 'other' } });
    const r = await run(['scans', 'start', '--repository-ids', 'repo_1', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').filter((l) => /^Scan {2,}/.test(l))).toEqual([expect.stringMatching(/^Scan {2,}sc_1$/)]);
  });

  it('the help of a command that deletes says where its organization comes from (it said SVC_ORGANIZATION_ID and the profile, which it never reads)', async () => {
    for (const args of [['repos', 'delete', '--help'], ['repos', 'reset-scanner-settings', '--help']]) {
      const r = await runCli(args, { env: {} });
      expect(r.code).toBe(0);
      expect(r.stdout.replace(/\s+/g, ' ')).toContain('a command that deletes takes none from SVC_ORGANIZATION_ID or the profile');
    }
  });
});
