/** Repositories by name, owner/name or URL wherever a repository id is taken (src/request/repository-names.ts). */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers/sandbox.js';
import { useFakeServer } from '../../helpers/fake-server.js';
import { runCli } from '../../helpers/host.js';

describe('against the sandbox', () => {
  const sb = useSandbox();
  const repoIds = async (args: string[]) => new Set((await sb.runJson(['issues', 'search', '--all', ...args])).map((i: { repositoryId: string }) => i.repositoryId));

  it('-R NAME, owner/name and the URL find the same issues as the id', async () => {
    const repo = (await sb.runJson(['repos', 'list', '--no-get-counts'])).find((r: { name: string }) => r.name === 'payments-api');
    const byId = await sb.runJson(['issues', 'search', '--all', '--repository-ids', repo.id]);
    expect(byId.length).toBeGreaterThan(0);
    for (const given of ['payments-api', 'acme-platform/payments-api', repo.url, `${repo.url}.git`]) {
      const r = await sb.run(['issues', 'search', '--all', '-R', given, '-o', 'json']);
      expect(r.code, `${given}: ${r.stderr}`).toBe(0);
      expect(JSON.parse(r.stdout).map((i: { id: string }) => i.id)).toEqual(byId.map((i: { id: string }) => i.id));
    }
    expect(await repoIds(['-R', 'payments-api,web-frontend'])).toEqual(new Set([repo.id, (await sb.runJson(['repos', 'list', '--no-get-counts'])).find((r: { name: string }) => r.name === 'web-frontend').id]));
  });

  it('a positional repository id may be a name (repos get, scans)', async () => {
    const r = await sb.run(['stats', 'summary', '--repository-id', 'billing-service', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const del = await sb.run(['repos', 'delete', 'notification-worker', '--yes', '-o', 'json']);
    expect(del.code, del.stderr).toBe(0);
    const left = (await sb.runJson(['repos', 'list', '--no-get-counts'])).map((x: { name: string }) => x.name);
    expect(left).not.toContain('notification-worker');
    expect(left).toContain('billing-service');
  });

  it('an unknown name: exit 4 with the closest names', async () => {
    const r = await sb.run(['issues', 'search', '-R', 'payment-api']);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("-R/--repository-ids 'payment-api' not found".replace('-R/', ''));
    expect(r.stderr).toMatch(/closest: payments-api \(repo_\w+\)/);
    expect(r.stdout).not.toContain('No results');
  });

  it('a name of another organization the token sees: exit 4 naming that organization', async () => {
    const r = await sb.run(['issues', 'search', '-R', 'auth-gateway']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/is a repository of organization Acme Labs \(org_\w+\), not of the organization in use/);
  });

  it('the hint for a repository of another organization works when followed: --organization-id where that set it', async () => {
    const orgs = await sb.runJson(['orgs', 'list']);
    const labs = orgs.find((o: { name: string }) => o.name === 'Acme Labs').id;
    const platform = orgs.find((o: { name: string }) => o.name === 'Acme Platform').id;
    for (const args of [['issues', 'search', '-R', 'payments-api'], ['gate', '-R', 'payments-api', '--fail-on', 'critical']]) {
      // --org in front of --organization-id changes nothing: the hint names the flag that set it.
      const r = await sb.run([...args, '--organization-id', labs, '-o', 'json']);
      expect(r.code, r.stderr).toBe(4);
      expect(r.stderr).toContain(`--organization-id ${platform}`);
      const followed = await sb.run([...args, '--organization-id', platform, '-o', 'json']);
      expect([0, 1], followed.stderr).toContain(followed.code);
      // From --org: --org is the hint.
      const byOrg = await sb.run([...args, '--org', labs, '-o', 'json']);
      expect(byOrg.code).toBe(4);
      expect(byOrg.stderr).toContain(`add --org ${platform}`);
    }
  });

  it('the gate takes a name in its scope', async () => {
    const r = await sb.run(['gate', '-R', 'payments-api', '--fail-on', 'critical', '-o', 'json']);
    expect([0, 1], r.stderr).toContain(r.code);
    expect(r.stdout).toMatch(/repo_\w+/);
    const bad = await sb.run(['gate', '-R', 'paymnts-api', '--fail-on', 'critical']);
    expect(bad.code).toBe(4);
    expect(bad.stderr).toContain('closest: payments-api');
  });

  it('--dry-run looks nothing up: the name is shown as given', async () => {
    const r = await sb.run(['issues', 'search', '-R', 'payments-api', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).body.repositoryIds).toEqual(['payments-api']);
  });

  it('--where repository-ids takes names too', async () => {
    const r = await sb.run(['issues', 'archive', '--where', 'repository-ids=data-pipeline', '--where', 'types=open', '--dry-run', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).length).toBeGreaterThan(0);
  });
});

describe('ambiguous names', () => {
  const fake = useFakeServer();
  it('two repositories of one name: exit 2 listing both with their ids, nothing searched', async () => {
    fake.stub('/api/v1/repositories/list', { json: [
      { id: 'repo_a1', name: 'api', url: 'https://hosta.example/team-a/api' },
      { id: 'repo_b2', name: 'api', url: 'https://hostb.example/team-b/api' },
    ] });
    const r = await runCli(['issues', 'search', '-R', 'api', '--org', 'org_1'], { env: fake.env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("'api' names 2 repositories: api (repo_a1), api (repo_b2)");
    expect(fake.hits('/api/v1/issues/search')).toBe(0);
    // owner/name tells them apart, and the list is read once for the run.
    fake.stub('/api/v1/issues/search', { json: { issues: [], totalCount: 0 } });
    const ok = await runCli(['issues', 'search', '-R', 'team-b/api,team-a/api', '--org', 'org_1', '-o', 'json'], { env: fake.env });
    expect(ok.code, ok.stderr).toBe(0);
    expect(fake.to('/api/v1/issues/search')[0].body.repositoryIds).toEqual(['repo_b2', 'repo_a1']);
    expect(fake.requests.slice(0, 3).map((q) => q.path)).toEqual(['/api/v1/repositories/list', '/api/v1/repositories/list', '/api/v1/issues/search']);
  });
});

describe('a repository whose id the service writes as a number', () => {
  const fake = useFakeServer();
  it('found by its name, sent as the id\'s text (it was exit 4 "not found"); one a double does not hold is not taken', async () => {
    fake.stub('/api/v1/repositories/list', { type: 'application/json', text: '[{"id":42,"name":"web-frontend"},{"id":12345678901234567890123,"name":"huge"},{"id":"repo_1","name":"payments-api"}]' });
    fake.stub('/api/v1/issues/search', { json: { issues: [], totalCount: 0 } });
    const r = await runCli(['issues', 'search', '-R', 'web-frontend', '--org', 'org_1', '-o', 'json'], { env: fake.env });
    expect(r.code, r.stderr).toBe(0);
    expect(fake.to('/api/v1/issues/search')[0].body.repositoryIds).toEqual(['42']);
    fake.stub('/api/v1/orgs/list', { json: [{ id: 'org_1', name: 'Acme' }] });
    const huge = await runCli(['issues', 'search', '-R', 'huge', '--org', 'org_1', '-o', 'json'], { env: fake.env });
    expect(huge.code, huge.stderr).toBe(4);
  });
});

describe('setters name the repository by name at an 80-column terminal (issue 24, item 4)', () => {
  const BASE = 'https://api.svc.test';
  const env = { SVC_BASE_URL: BASE, SVC_API_TOKEN_ID: 'tid_1', SVC_API_TOKEN_SECRET: 'secret-1' };
  const json = { headers: { 'content-type': 'application/json' } };
  const repos = [{ id: 'repo_1', name: 'payments-api' }, { id: 'repo_2', name: 'web-frontend' }];

  async function withAgent(fn: (agent: import('undici').MockAgent) => Promise<void>) {
    const { MockAgent } = await import('undici');
    const agent = new MockAgent();
    agent.disableNetConnect();
    try {
      await fn(agent);
    } finally {
      await agent.close();
    }
  }

  it('an id given: one repositories/list lookup, and the name in what changed', () => withAgent(async (agent) => {
    agent.get(BASE).intercept({ path: '/api/v1/repositories/set-pr-scanning', method: 'POST' }).reply(200, { ok: true }, json);
    agent.get(BASE).intercept({ path: '/api/v1/repositories/list', method: 'POST' }).reply(200, repos, json);
    const r = await runCli(['repos', 'set-pr-scanning', 'repo_1', '--is-pr-scanning-enabled'], { env, dispatcher: agent, tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0]).toBe('PR scanning: on for payments-api');
    agent.assertNoPendingInterceptors();
  }));

  it('a name given: the one lookup that resolved it serves the heading too', () => withAgent(async (agent) => {
    agent.get(BASE).intercept({ path: '/api/v1/repositories/list', method: 'POST' }).reply(200, repos, json);
    let sent: unknown;
    agent.get(BASE).intercept({ path: '/api/v1/repositories/set-pr-scanning', method: 'POST' }).reply(200, (o) => { sent = JSON.parse(String(o.body)); return { ok: true }; }, json);
    const r = await runCli(['repos', 'set-pr-scanning', 'web-frontend', '--no-is-pr-scanning-enabled'], { env, dispatcher: agent, tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    expect(sent).toEqual({ repositoryId: 'repo_2', isPrScanningEnabled: false });
    expect(r.stdout.replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0]).toBe('PR scanning: off for web-frontend');
    agent.assertNoPendingInterceptors();
  }));

  it('a lookup that fails leaves the id (the change is done: exit 0); JSON looks nothing up', () => withAgent(async (agent) => {
    agent.get(BASE).intercept({ path: '/api/v1/repositories/set-pr-scanning', method: 'POST' }).reply(200, { ok: true }, json).times(2);
    agent.get(BASE).intercept({ path: '/api/v1/repositories/list', method: 'POST' }).reply(403, { error: 'no' }, json);
    const r = await runCli(['repos', 'set-pr-scanning', 'repo_1', '--is-pr-scanning-enabled', '--retries', '0'], { env, dispatcher: agent, tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.replace(/\u001b\[[0-9;]*m/g, '').split('\n')[0]).toBe('PR scanning: on for repo_1');
    const data = await runCli(['repos', 'set-pr-scanning', 'repo_1', '--is-pr-scanning-enabled', '-o', 'json'], { env, dispatcher: agent });
    expect(data.stdout).toBe('{"ok":true}\n');
    agent.assertNoPendingInterceptors();
  }));
});
