/**
 * A Retry-After beyond svc's cap (MAX_RETRY_AFTER_MS, src/http/retry.ts): the wait message says the
 * wait svc keeps, not the service's absurd figure (`1666666666666666500 min 36 s`).
 */
import { expect, it } from 'vitest';
import { runCli, testHost } from '../../helpers/host.js';
import { useFakeServer } from '../../helpers/fake-server.js';

const fake = useFakeServer({ mock: true });

it('Retry-After: 99999999999999999999: waits 60 s, and says so; the final error does not spell the figure out', async () => {
  fake.stub('/api/v1/orgs/list', { status: 429, headers: { 'retry-after': '99999999999999999999' }, json: {} });
  const host = testHost({ env: fake.env, dispatcher: fake.dispatcher, clock: 'fake' });
  const r = await runCli(['orgs', 'list', '--retries', '1', '-o', 'json'], { host });
  expect(r.code, r.stderr).toBe(6);
  expect(host.sleeps).toEqual([60_000]);
  expect(r.stderr).not.toMatch(/\d{7,}/);
  expect(r.stderr).toContain('(HTTP 429, Retry-After: more than a day)');
  expect(r.stderr).toContain('retrying in 60.0 s (retry 1 of 1; svc waits at most 60 s, whatever Retry-After says)');
});

it('a Retry-After within the cap is waited and said as given', async () => {
  fake.stub('/api/v1/orgs/list', [{ status: 429, headers: { 'retry-after': '7' }, json: {} }, { json: [] }]);
  const host = testHost({ env: fake.env, dispatcher: fake.dispatcher, clock: 'fake' });
  const r = await runCli(['orgs', 'list', '--retries', '1', '-o', 'json'], { host });
  expect(r.code, r.stderr).toBe(0);
  expect(host.sleeps).toEqual([7_000]);
  expect(r.stderr).toContain('Retry-After: 7 s): {}; retrying in 7.0 s (retry 1 of 1)\n');
});
