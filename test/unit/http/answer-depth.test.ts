/**
 * An answer nested deeper than any renderer can walk (src/answers/json-text.ts checkDepth, called
 * where answers are parsed): exit 7 "nested too deeply", whatever the output format or --jq, never
 * an empty table with exit 0 nor a --jq usage error (exit 2 says nothing was sent).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/host.js';
import { useFakeServer } from '../../helpers/fake-server.js';
import { MAX_ANSWER_DEPTH } from '../../../src/answers/json-text.js';
import { jqValues } from '../../../src/output/jq.js';
import { CliError } from '../../../src/core/errors.js';

const fake = useFakeServer({ mock: true });
const run = (argv: string[]) => runCli(argv, { env: { ...fake.env, SVC_ORGANIZATION_ID: 'org_a' }, dispatcher: fake.dispatcher });
const nested = (levels: number, inner = '') => '['.repeat(levels) + inner + ']'.repeat(levels);
const DEEP = nested(100_000);
const TOO_DEEP = /^svc: error: [\w/]+: the data is nested too deeply to process \(more than 1000 levels of lists and objects\); check the response with --verbose\n$/;

describe('an answer nested 100,000 levels deep', () => {
  const cases: Array<[string, string[]]> = [
    ['/api/v1/orgs/list', ['api', 'orgs/list', '--jq', '.[0]']],
    ['/api/v1/orgs/list', ['api', 'orgs/list', '-o', 'table']],
    ['/api/v1/orgs/list', ['api', 'orgs/list', '-o', 'json']],
    ['/api/v1/stats/timeSaved', ['stats', 'time-saved', '--jq', '.x']],
    ['/api/v1/stats/timeSaved', ['stats', 'time-saved', '-o', 'table']],
    ['/api/v1/stats/timeSaved', ['stats', 'time-saved', '-o', 'csv']],
    ['/api/v1/stats/timeSaved', ['stats', 'time-saved', '-o', 'ndjson']],
  ];
  for (const [path, argv] of cases) {
    it(`svc ${argv.join(' ')}: exit 7, nothing on stdout`, async () => {
      fake.stub(path, { text: DEEP, type: 'application/json' });
      const r = await run(argv);
      expect(r.code, r.stderr).toBe(7);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(TOO_DEEP);
    });
  }

  it('an item of a page read with --all (decoded item by item): exit 7 too', async () => {
    const page = `{"issues":[{"id":"iss_1","status":"open","score":95,"x":${nested(100_000)}}],"totalCount":1,"currentPage":1,"pageSize":100}`;
    fake.stub('/api/v1/issues/search', { text: page, type: 'application/json' });
    const r = await run(['issues', 'search', '--all', '-o', 'table']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain('the data is nested too deeply to process');
  });
});

describe('the limit itself', () => {
  it(`an answer exactly ${MAX_ANSWER_DEPTH} levels deep is shown by every format and --jq; one more level is refused`, async () => {
    fake.stub('/api/v1/orgs/list', { text: nested(MAX_ANSWER_DEPTH, '1'), type: 'application/json' });
    for (const out of [['-o', 'json'], ['-o', 'table'], ['-o', 'csv'], ['--jq', '.[0]|length']]) {
      const r = await run(['api', 'orgs/list', ...out]);
      expect(r.code, `${out.join(' ')}: ${r.stderr}`).toBe(0);
    }
    fake.stub('/api/v1/orgs/list', { text: nested(MAX_ANSWER_DEPTH + 1, '1'), type: 'application/json' });
    expect((await run(['api', 'orgs/list', '-o', 'json'])).code).toBe(7);
  });

  it('--jq on data too deep for JSON.stringify (not an answer: no parse check before it) blames the data, exit 7, not the expression', async () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const err = await jqValues(deep, '.[0]').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(7);
    expect((err as CliError).message).toBe('the data is nested too deeply to process');
  });
});
