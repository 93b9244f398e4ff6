/**
 * A body compressed though svc asked for none (src/http/raw-answer.ts notJsonError): exit 7 naming
 * the encoding, not a message quoting the compressed bytes ("starts \u001f...").
 */
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { runCli } from '../../helpers/host.js';
import { useFakeServer } from '../../helpers/fake-server.js';

const fake = useFakeServer();
const gzipped = (json: unknown) => (_req: unknown, res: import('node:http').ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
  res.end(gzipSync(JSON.stringify(json)));
};

it('a call answered with content-encoding: gzip: exit 7 naming the encoding', async () => {
  fake.stub('/api/v1/orgs/list', gzipped([{ id: 'org_a' }]));
  const r = await runCli(['orgs', 'list', '-o', 'json'], { env: fake.env });
  expect(r.code, r.stderr).toBe(7);
  expect(r.stdout).toBe('');
  expect(r.stderr).toContain('orgs/list: the response is not valid JSON: it came with content-encoding: gzip, which svc did not ask for and does not decode (application/json, ');
  expect(r.stderr).not.toContain('\\u001f');
  expect(fake.requests[0].headers['accept-encoding'] ?? 'identity').not.toMatch(/gzip/);
});

it('a page of --all (read as raw bytes) compressed the same way: the same message', async () => {
  fake.stub('/api/v1/issues/search', gzipped({ issues: [], totalCount: 0, currentPage: 1, pageSize: 100 }));
  const r = await runCli(['issues', 'search', '--all', '-o', 'json'], { env: { ...fake.env, SVC_ORGANIZATION_ID: 'org_a' } });
  expect(r.code, r.stderr).toBe(7);
  expect(r.stderr).toContain('issues/search: the response is not valid JSON: it came with content-encoding: gzip');
});
