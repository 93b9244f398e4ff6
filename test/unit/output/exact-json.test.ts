/**
 * Numbers a JSON double does not hold (the red team's finding): the service answers `1e400`,
 * `-1e400`, `1e-400`, `-0` and `12345678901234567890`. JSON and NDJSON (one call, `--all`, `svc api`)
 * write them as the service sent them, never null or 0; a table and CSV show the service's text;
 * --jq (doubles) and --columns say on stderr, per number, what the service sent. A canonical answer
 * is written byte for byte as before.
 */
import { describe, expect, it } from 'vitest';
import { useFakeServer, type FakeRequest } from '../../helpers/fake-server.js';
import { runCli } from '../../helpers/host.js';

const fake = useFakeServer();

const ODD = '{"hours":1e400,"neg":-1e400,"tiny":1e-400,"z":-0,"i":12345678901234567890,"plain":2.5}';
const json = (text: string) => ({ text, type: 'application/json' });

function issue(i: number, confidence: string): string {
  return `{"id":"iss_${i}","repositoryId":"repo_a","status":"open","generatedTitle":"t${i}","vulnClass":"SQL Injection","score":20,"affectedFile":"a.js","startLine":${i + 1},"createdAt":"2026-11-20T10:00:0${i}Z","confidence":${confidence}}`;
}
const CONF = ['12345678901234567890', '1e-400', '0.5'];
/** A page of issues whose confidences are CONF (pageSize 3: one page). */
function issuesPage(req: FakeRequest) {
  const page = (req.body as { page?: number }).page ?? 1;
  const items = page === 1 ? CONF.map((c, i) => issue(i, c)) : [];
  return json(`{"issues":[${items.join(',')}],"totalCount":3,"currentPage":${page},"pageSize":3}`);
}

describe('a number a double does not hold is written as the service sent it', () => {
  it('stats time-saved -o json: the service\'s text, no null, no warning', async () => {
    fake.stub('/api/v1/stats/timeSaved', json(ODD));
    const r = await runCli(['stats', 'time-saved', '-o', 'json'], { env: fake.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${ODD}\n`);
    expect(r.stderr).not.toMatch(/warning/);
  });

  it('-o ndjson, and the pretty JSON of a terminal, keep the text too', async () => {
    fake.stub('/api/v1/stats/timeSaved', json(ODD));
    const r = await runCli(['stats', 'time-saved', '-o', 'ndjson'], { env: fake.env });
    expect(r.stdout).toBe(`${ODD}\n`);
    const t = await runCli(['stats', 'time-saved', '-o', 'json'], { env: fake.env, tty: { stdout: true } });
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toContain('"hours": 1e400,\n  "neg": -1e400,\n  "tiny": 1e-400,\n  "z": -0,\n  "i": 12345678901234567890,');
  });

  it('issues search -o json / -o ndjson: confidence as sent', async () => {
    fake.stub('/api/v1/issues/search', issuesPage);
    const j = await runCli(['issues', 'search', '-o', 'json'], { env: fake.env });
    expect(j.code, j.stderr).toBe(0);
    expect(j.stdout).toContain('"confidence":12345678901234567890}');
    expect(j.stdout).toContain('"confidence":1e-400}');
    const n = await runCli(['issues', 'search', '-o', 'ndjson'], { env: fake.env });
    expect(n.stdout.trim().split('\n').map((l) => /"confidence":([^}]*)\}$/.exec(l)?.[1])).toEqual(CONF);
  });

  it('issues search --all -o json / -o ndjson / -o csv: confidence as sent', async () => {
    fake.stub('/api/v1/issues/search', issuesPage);
    const j = await runCli(['issues', 'search', '--all', '-o', 'json'], { env: fake.env });
    expect(j.code, j.stderr).toBe(0);
    expect(j.stdout).toContain('"confidence":12345678901234567890}');
    expect(j.stdout).toContain('"confidence":1e-400}');
    expect(j.stdout).toContain('"confidence":0.5}');
    const n = await runCli(['issues', 'search', '--all', '-o', 'ndjson'], { env: fake.env });
    expect(n.stdout.trim().split('\n').map((l) => /"confidence":([^}]*)\}$/.exec(l)?.[1])).toEqual(CONF);
    // On a terminal NDJSON is not copied from the bytes: written item by item, and still exact.
    const t = await runCli(['issues', 'search', '--all', '-o', 'ndjson'], { env: fake.env, tty: { stdout: true } });
    expect(t.stdout.trim().split('\n').map((l) => /"confidence":([^}]*)\}$/.exec(l)?.[1])).toEqual(CONF);
    const c = await runCli(['issues', 'search', '--all', '-o', 'csv', '--columns', 'id,confidence'], { env: fake.env });
    expect(c.stdout).toBe('id,confidence\niss_0,12345678901234567890\niss_1,1e-400\niss_2,0.5\n');
    const q = await runCli(['issues', 'search', '--all', '--jq', '.confidence'], { env: fake.env });
    expect(q.stdout).toBe('12345678901234567000\n0\n0.5\n');
    expect(q.stderr).toContain('warning: confidence: the service sent the number 12345678901234567890, which a double does not hold; --jq computes with doubles and sees 12345678901234567000');
    expect(q.stderr).toContain('warning: confidence: the service sent the number 1e-400, which a double does not hold; --jq computes with doubles and sees 0');
  });

  it('a page filtered by svc (--min-score) keeps them, and --jq on it warns', async () => {
    fake.stub('/api/v1/issues/search', issuesPage);
    const j = await runCli(['issues', 'search', '--min-score', '10', '-o', 'json'], { env: fake.env });
    expect(j.code, j.stderr).toBe(0);
    expect(j.stdout).toContain('"confidence":12345678901234567890}');
    const q = await runCli(['issues', 'search', '--min-score', '10', '--jq', '.issues[].confidence'], { env: fake.env });
    expect(q.stdout).toBe('12345678901234567000\n0\n0.5\n');
    expect(q.stderr).toContain('warning: issues[1].confidence: the service sent the number 1e-400');
  });

  it('svc api issues/search: confidence as sent', async () => {
    fake.stub('/api/v1/issues/search', issuesPage);
    const r = await runCli(['api', 'issues/search', '-o', 'json'], { env: fake.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"confidence":12345678901234567890}');
    expect(r.stdout).toContain('"confidence":1e-400}');
  });

  it('svc api: an answer that is itself such a number is written as sent; --jq warns', async () => {
    fake.stub('/api/v1/stats/timeSaved', json('12345678901234567890'));
    const r = await runCli(['api', 'stats/timeSaved', '-o', 'json'], { env: fake.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('12345678901234567890\n');
    const q = await runCli(['api', 'stats/timeSaved', '--jq', '.'], { env: fake.env });
    expect(q.stdout).toBe('12345678901234567000\n');
    expect(q.stderr).toContain('warning: (the answer): the service sent the number 12345678901234567890, which a double does not hold; --jq computes with doubles and sees 12345678901234567000');
  });

  it('a table and CSV show the service\'s text (CSV with no formula guard on a number)', async () => {
    fake.stub('/api/v1/stats/timeSaved', json(ODD));
    const c = await runCli(['stats', 'time-saved', '-o', 'csv'], { env: fake.env });
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toBe('hours,neg,tiny,z,i,plain\n1e400,-1e400,1e-400,-0,12345678901234567890,2.5\n');
    const t = await runCli(['stats', 'time-saved', '-o', 'table'], { env: fake.env });
    expect(t.code, t.stderr).toBe(0);
    for (const s of ['1e400', '-1e400', '1e-400', '12345678901234567890']) expect(t.stdout).toContain(s);
    expect(t.stdout).not.toMatch(/Infinity|12345678901234567000/);
  });

  it('--jq works on doubles and says so, per number, naming the field and the text sent', async () => {
    fake.stub('/api/v1/stats/timeSaved', json(ODD));
    const r = await runCli(['stats', 'time-saved', '--jq', '.hours'], { env: fake.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('null\n');
    expect(r.stderr).toContain('warning: hours: the service sent the number 1e400, which a double does not hold; --jq computes with doubles and sees null');
    expect(r.stderr).toContain('warning: i: the service sent the number 12345678901234567890, which a double does not hold; --jq computes with doubles and sees 12345678901234567000');
    expect(r.stderr).toContain('warning: z: the service sent the number -0,');
    expect(r.stderr.split('\n').filter((l) => l.startsWith('warning:'))).toHaveLength(5);
  });

  it('--columns keeps them in the rows it cuts down (one call and --all, JSON and NDJSON)', async () => {
    fake.stub('/api/v1/issues/search', issuesPage);
    for (const args of [['-o', 'json'], ['-o', 'ndjson'], ['--all', '-o', 'json'], ['--all', '-o', 'ndjson']]) {
      const r = await runCli(['issues', 'search', ...args, '--columns', 'id,confidence'], { env: fake.env });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, args.join(' ')).toContain('{"id":"iss_0","confidence":12345678901234567890}');
      expect(r.stdout, args.join(' ')).toContain('{"id":"iss_1","confidence":1e-400}');
      expect(r.stderr).not.toMatch(/warning/);
    }
  });

  it('a canonical answer is written as before, byte for byte, with no warning', async () => {
    const text = '{"hours":12.5,"neg":-3,"big":9007199254740991,"small":1e-7,"e":1e+21}';
    fake.stub('/api/v1/stats/timeSaved', json(text));
    const r = await runCli(['stats', 'time-saved', '-o', 'json'], { env: fake.env });
    expect(r.stdout).toBe(`${text}\n`);
    const q = await runCli(['stats', 'time-saved', '--jq', '.big'], { env: fake.env });
    expect(q.stdout).toBe('9007199254740991\n');
    expect(q.stderr).not.toMatch(/warning/);
  });
});
