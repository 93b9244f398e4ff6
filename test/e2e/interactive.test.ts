/**
 * What a person at a terminal sees: prompts on a real pseudo-terminal (hidden secret input,
 * confirmation of destructive operations), and the --yes rule when not on a terminal (in-process:
 * stdin and stdout are pipes there, as in CI).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runOnPty, ptyAvailable } from '../helpers/pty.js';
import { startFakeServer, type FakeServer } from '../helpers/fake-server.js';
import { runCli } from '../helpers/host.js';
import { tempDir } from '../helpers/temp.js';

const SECRET = 'S3cr3t-typed-value-9f2c';

describe.runIf(ptyAvailable())('svc auth login on a terminal', () => {
  it('prompts for the token id and the secret; the secret is not echoed and is saved', async () => {
    const cfg = tempDir('svc-login-');
    const r = await runOnPty(['auth', 'login', '--no-verify'], [['Token id: ', 'tok_abcdefgh1234\r'], ['(hidden): ', `${SECRET}\r`]], { env: { SVC_CONFIG_DIR: cfg } });
    expect(r.unanswered).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.output).toContain('tok_abcdefgh1234');
    expect(r.output).not.toContain(SECRET);
    expect(r.output).not.toContain(SECRET.slice(0, 6));
    expect(r.output).toMatch(/Logged in: profile "default"/);
    const saved = JSON.parse(readFileSync(join(cfg, 'config.json'), 'utf8'));
    expect(saved.profiles.default).toMatchObject({ tokenId: 'tok_abcdefgh1234', tokenSecret: SECRET });
  });
});

describe('destructive operations', () => {
  let server: FakeServer;
  let env: Record<string, string>;
  beforeEach(async () => {
    server = await startFakeServer({ fallback: { json: { ok: true } } });
    env = { SVC_BASE_URL: server.url, SVC_API_TOKEN_ID: 'tok_test_1234', SVC_API_TOKEN_SECRET: 'secret_test_1234', SVC_ORGANIZATION_ID: 'org_1' };
  });
  afterEach(async () => { await server.close(); });

  const cases: Array<[string, string[], string]> = [
    ['orgs delete', ['orgs', 'delete', 'org_9'], '/api/v1/orgs/delete'],
    ['repos delete', ['repos', 'delete', 'repo_9'], '/api/v1/repositories/delete'],
    ['repos reset-scanner-settings', ['repos', 'reset-scanner-settings', '--repository-ids', 'repo_1,repo_2'], '/api/v1/repositories/reset-scanner-settings'],
  ];

  describe.each(cases)('svc %s', (_name, args, path) => {
    it('not on a terminal: refuses without --yes (exit 2, nothing sent)', async () => {
      const r = await runCli(args, { env });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^svc: error: .*needs --yes when not run on a terminal; add --yes to confirm\n$/);
      expect(server.requests).toHaveLength(0);
    });

    it('not on a terminal with --yes: sends the request', async () => {
      const r = await runCli([...args, '--yes'], { env });
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(server.requests.map((q) => q.path)).toEqual([path]);
    });

    it.runIf(ptyAvailable())('on a terminal: answering n sends nothing', async () => {
      const r = await runOnPty(args, [['[y/N] ', 'n\r']], { env });
      expect(r.unanswered).toEqual([]);
      expect(r.output).toMatch(/cannot be undone\. Continue\? \[y\/N\]/);
      expect(r.output).toMatch(/svc: error: cancelled: nothing was changed/);
      expect(r.code).toBe(2);
      expect(server.requests).toHaveLength(0);
    });

    it.runIf(ptyAvailable())('on a terminal: answering y sends the request', async () => {
      const r = await runOnPty(args, [['[y/N] ', 'y\r']], { env });
      expect(r.unanswered).toEqual([]);
      expect(r.code).toBe(0);
      expect(server.requests.map((q) => q.path)).toEqual([path]);
    });
  });

  it('the confirmation names what is deleted, and the request carries it', async () => {
    if (!ptyAvailable()) return;
    const r = await runOnPty(['orgs', 'delete', 'org_9'], [['[y/N] ', 'y\r']], { env });
    expect(r.output).toContain('organizationId="org_9"');
    expect(server.requests[0].body).toEqual({ organizationId: 'org_9' });
  });
});
