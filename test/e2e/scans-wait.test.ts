import { afterAll, describe, expect, it } from 'vitest';
import { startFakeService, type FakeService, type ScanPlan } from '../helpers/fake-service.js';
import { runCli, testHost, until } from '../helpers/host.js';

// The waits between polls run on the test's clock (clock: 'fake': sleeps end at once and are
// recorded), but for Ctrl-C, which interrupts a real wait.

const services: FakeService[] = [];
afterAll(async () => { await Promise.all(services.splice(0).map((s) => s.close())); });

async function fake(plan: ScanPlan = {}): Promise<FakeService> {
  const s = await startFakeService({ mock: true });
  Object.assign(s.scan, plan);
  services.push(s);
  return s;
}

const START = ['scans', 'start', '--repository-ids', 'repo-1,repo-2'];
const polls = (s: FakeService) => s.requests.filter((r) => r.path === '/api/v1/scans/list');

describe('svc scans start --wait', () => {
  it.concurrent('waits until the scan completes, prints its id on stdout and progress lines on stderr', async () => {
    const s = await fake({ pollsUntilDone: 2 });
    const r = await runCli([...START, '--wait', '--poll-interval', '0.1'], { env: s.env, dispatcher: s.dispatcher, clock: 'fake' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('scan-new-1\n');
    expect(s.requests[0]).toMatchObject({ path: '/api/v1/scans/start', body: { organizationId: 'org-1', repositoryIds: ['repo-1', 'repo-2'] } });
    expect(polls(s)).toHaveLength(3);
    expect(polls(s)[0].body).toEqual({ scanId: 'scan-new-1', page: 1, pageSize: 10, organizationId: 'org-1' });
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^waiting for scan scan-new-1 \(status every 0\.1s, up to 3600s; --wait-timeout\)$/);
    expect(lines.slice(1).map((l) => l.replace(/ \(\d+s\)$/, ''))).toEqual([
      'scan scan-new-1: queued', 'scan scan-new-1: running', 'scan scan-new-1: completed', 'scan scan-new-1 completed, 3 open issues',
    ]);
  });

  it.concurrent('-o json prints the final scan record', async () => {
    const s = await fake({ pollsUntilDone: 1, outcome: 'finished' });
    const r = await runCli([...START, '--wait', '--poll-interval', '0.1', '-o', 'json'], { env: s.env, dispatcher: s.dispatcher, clock: 'fake' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ scanId: 'scan-new-1', status: 'finished', finished: true, issueCounts: { open: 3 } });
  });

  it.concurrent('takes the scan id from `id` when the service answers that way', async () => {
    const s = await fake({ pollsUntilDone: 0, startIdField: 'id' });
    const r = await runCli([...START, '--wait', '--poll-interval', '0.1'], { env: s.env, dispatcher: s.dispatcher, clock: 'fake' });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('scan-new-1\n');
  });

  it.concurrent('a failed scan: exit 1 with the service\'s message; the record is still printed with -o json', async () => {
    const s = await fake({ pollsUntilDone: 1, outcome: 'failed' });
    const r = await runCli([...START, '--wait', '--poll-interval', '0.1', '-o', 'json'], { env: s.env, dispatcher: s.dispatcher, clock: 'fake' });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'failed', errorMessage: 'clone failed: repository not reachable' });
    expect(r.stderr.trimEnd().split('\n').pop()).toBe('svc: error: scan scan-new-1 failed: clone failed: repository not reachable; see `svc scans list --scan-id scan-new-1`; do not gate on a failed scan');
  });

  it.concurrent('a wait that times out: exit 6, naming --wait-timeout', async () => {
    const s = await fake({ outcome: 'never' });
    const r = await runCli([...START, '--wait', '--poll-interval', '0.2', '--wait-timeout', '1'], { env: s.env, dispatcher: s.dispatcher, clock: 'fake' });
    expect(r.code).toBe(6);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n').pop()).toMatch(/^svc: error: timed out waiting for scan scan-new-1 after 1s \(--wait-timeout 1\); last status: running; the scan goes on in the service: raise --wait-timeout/);
    // On the test's clock: a poll at 0, 0.2, ... 1.0 s, then the deadline.
    expect(polls(s)).toHaveLength(6);
    expect(r.host.sleeps).toEqual([200, 200, 200, 200, 200]);
  });

  it.concurrent('rides out a few failing polls', async () => {
    const s = await fake({ pollsUntilDone: 1, failingPolls: 1 });
    const r = await runCli([...START, '--wait', '--poll-interval', '0.1', '--retries', '0'], { env: s.env, dispatcher: s.dispatcher, clock: 'fake' });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: checking scan scan-new-1 failed \(scans\/list failed: HTTP 503: busy\); trying again/);
  });

  it.concurrent('401 while polling: exit 3', async () => {
    const s = await fake();
    s.faults.status = 401;
    s.faults.statusPath = '/api/v1/scans/list';
    const r = await runCli([...START, '--wait', '--poll-interval', '0.1'], { env: s.env, dispatcher: s.dispatcher, clock: 'fake' });
    expect(r.code).toBe(3);
  });

  it.concurrent('wait flags are checked before anything is sent', async () => {
    const s = await fake();
    for (const args of [['--poll-interval', '5'], ['--wait', '--wait-timeout', '0'], ['--wait', '--poll-interval', 'x']]) {
      const r = await runCli([...START, ...args], { env: s.env, dispatcher: s.dispatcher, clock: 'fake' });
      expect(r.code, args.join(' ')).toBe(2);
    }
    expect(s.requests).toEqual([]);
  });

  it.concurrent('without --wait it just starts the scan', async () => {
    const s = await fake();
    const r = await runCli([...START, '-o', 'json'], { env: s.env, dispatcher: s.dispatcher, clock: 'fake' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ scanId: 'scan-new-1' });
    expect(polls(s)).toHaveLength(0);
  });

  it.concurrent('Ctrl-C while waiting: exit 130', async () => {
    const s = await fake({ outcome: 'never' });
    const host = testHost({ env: s.env, dispatcher: s.dispatcher });
    const running = runCli([...START, '--wait', '--poll-interval', '5'], { host });
    await until(() => /scan scan-new-1: queued/.test(host.stderr), 'the first poll');
    host.abort('SIGINT');
    const { code, stderr } = await running;
    expect(code).toBe(130);
    expect(stderr).toContain('svc: error: interrupted by SIGINT');
  });
});

describe('svc scans start --wait of several repositories', () => {
  it('waits for every scan the answer lists (scanIds), not the first alone (it exited 0 with one still running)', async () => {
    const { startTestSandbox } = await import('../helpers/sandbox.js');
    const sb = await startTestSandbox({ scanDurationMs: 300 });
    try {
      const repos = (await sb.runJson(['repos', 'list'])) as Array<{ id: string }>;
      const ids = repos.slice(0, 2).map((r) => r.id);
      const r = await sb.run(['scans', 'start', '--repository-ids', ids.join(','), '--wait', '--poll-interval', '0.1']);
      expect(r.code, r.stderr).toBe(0);
      const started = r.stdout.trim().split('\n');
      expect(started).toHaveLength(2);
      // Both have finished when svc says so.
      for (const id of started) {
        const [scan] = ((await sb.runJson(['scans', 'list', '--scan-id', id])) as { codeScans: Array<{ status: string; repositoryId: string }> }).codeScans;
        expect(scan.status).toBe('completed');
      }
      expect(r.stderr).toContain(`waiting for scan ${started[1]}`);
      // -o json: the records, as one list.
      const j = await sb.run(['scans', 'start', '--repository-ids', ids.join(','), '--wait', '--poll-interval', '0.1', '-o', 'json']);
      expect(j.code, j.stderr).toBe(0);
      expect((JSON.parse(j.stdout) as Array<{ status: string }>).map((x) => x.status)).toEqual(['completed', 'completed']);
    } finally {
      await sb.close();
    }
  });
});
