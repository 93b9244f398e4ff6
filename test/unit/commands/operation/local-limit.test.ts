/**
 * `stats top-issues --limit N` (commands/operation/run.ts limitRows): the N highest-scoring, ranked
 * by the same number the table's LEVEL and SCORE columns read.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../helpers/host.js';
import { useFakeServer } from '../../../helpers/fake-server.js';

const fake = useFakeServer({ mock: true });
const run = (argv: string[]) => runCli(argv, { env: { ...fake.env, SVC_ORGANIZATION_ID: 'org_a' }, dispatcher: fake.dispatcher });

describe('stats top-issues --limit', () => {
  it('a score sent as text ("72", shown as high with a warning) ranks as 72, not last', async () => {
    fake.stub('/api/v1/stats/topIssues', { json: [
      { id: 'i1', title: 'SQLi', score: 95, status: 'open' },
      { id: 'i2', title: 'XSS', score: '72', status: 'open' },
      { id: 'i3', title: 'weak', score: 55.5, status: 'open' },
      { id: 'i4', title: 'none', score: null, status: 'open' },
    ] });
    const r = await run(['stats', 'top-issues', '--limit', '2', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Array<{ id: string }>).map((x) => x.id)).toEqual(['i1', 'i2']);
    expect(r.stderr).toContain('1.score expected a number');
  });
});
