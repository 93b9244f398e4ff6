/**
 * What a person at a terminal sees: prompts on a real pseudo-terminal (hidden secret input,
 * confirmation of destructive operations: one operation on the pty, the others on an in-process
 * terminal, the same prompt), and the --yes rule when not on a terminal (in-process: stdin and
 * stdout are pipes there, as in CI).
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

  // The first on a real pseudo-terminal (the process, its terminal and the keys typed); the others,
  // whose prompt is the same code, on an in-process terminal (a TTY host, the answer on its stdin).
  const cases: Array<[string, string[], string, 'pty' | 'in-process']> = [
    ['orgs delete', ['orgs', 'delete', 'org_9'], '/api/v1/orgs/delete', 'pty'],
    ['repos delete', ['repos', 'delete', 'repo_9'], '/api/v1/repositories/delete', 'in-process'],
    ['repos reset-scanner-settings', ['repos', 'reset-scanner-settings', '--repository-ids', 'repo_1,repo_2'], '/api/v1/repositories/reset-scanner-settings', 'in-process'],
  ];

  /** The operation on a terminal, answering the confirmation with `key`: what the terminal showed and the exit code. */
  async function onTerminal(args: string[], key: 'y' | 'n', how: 'pty' | 'in-process'): Promise<{ output: string; code: number }> {
    if (how === 'pty') {
      const r = await runOnPty(args, [['[y/N] ', `${key}\r`]], { env });
      expect(r.unanswered).toEqual([]);
      return r;
    }
    const r = await runCli(args, { env, tty: true, stdin: `${key}\n` });
    return { output: r.stdout + r.stderr, code: r.code };
  }

  describe.each(cases)('svc %s', (_name, args, path, how) => {
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

    it.runIf(how === 'in-process' || ptyAvailable())('on a terminal: answering n sends nothing', async () => {
      const r = await onTerminal(args, 'n', how);
      expect(r.output).toMatch(/cannot be undone\. Continue\? \[y\/N\]/);
      expect(r.output).toMatch(/svc: error: cancelled: nothing was changed/);
      expect(r.code).toBe(2);
      expect(server.requests).toHaveLength(0);
    });

    it.runIf(how === 'in-process' || ptyAvailable())('on a terminal: answering y sends the request', async () => {
      const r = await onTerminal(args, 'y', how);
      expect(r.output).toMatch(/cannot be undone\. Continue\? \[y\/N\]/);
      expect(r.code).toBe(0);
      expect(server.requests.map((q) => q.path)).toEqual([path]);
    });
  });

  it('the confirmation names what is deleted, and the request carries it', async () => {
    const r = await onTerminal(['orgs', 'delete', 'org_9'], 'y', 'in-process');
    expect(r.output).toContain('organizationId="org_9"');
    expect(server.requests[0].body).toEqual({ organizationId: 'org_9' });
  });
});
