/** `svc issues triage` in-process (src/commands/triage/run.ts): an action answered `ok: false` is a failure, not "done". */
import { PassThrough } from 'node:stream';
import { expect, it } from 'vitest';
import { runCli, testHost, until } from '../../../helpers/host.js';
import { useFakeServer } from '../../../helpers/fake-server.js';

const fake = useFakeServer({ mock: true });

it('t on an issue the service answers ok: false for: that action failed, exit 5, the summary counts it failed', async () => {
  fake.stub('/api/v1/issues/search', { json: { issues: [{ id: 'iss_1', status: 'open', score: 90, generatedTitle: 'SQLi' }], totalCount: 1 } });
  fake.stub('/api/v1/issues/mark-true-positive', { json: { ok: false } });
  const keys = new PassThrough();
  const host = testHost({ env: { ...fake.env, SVC_ORGANIZATION_ID: 'org_a' }, dispatcher: fake.dispatcher, tty: { stdout: true, stdin: true, stderr: false }, stdin: keys });
  const running = runCli(['issues', 'triage'], { host });
  await until(() => host.stdout.includes('1/1'), 'the first issue on screen');
  keys.write('t');
  await until(() => host.stdout.includes('FAILED'), 'the failure on screen');
  keys.write('q');
  const r = await running;
  expect(r.code, r.stderr).toBe(5);
  expect(r.stderr).toContain('triage: 1 failed');
  expect(r.stderr).toContain('iss_1 (true positive: issues mark-true-positive: the service answered "ok": false');
  expect(r.stdout).not.toContain('true positive (done)');
});
