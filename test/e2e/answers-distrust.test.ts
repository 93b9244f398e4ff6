/**
 * Issue 21, class 8: where `svc issues search`, `stats` and `--all` print data, an answer that
 * contradicts itself or the request is exit 7 (not a table of wrong data), and a search scoped to a
 * repository the organization does not have is exit 4 (not "No results.").
 */
import { describe, expect, it } from 'vitest';
import { useFakeServer } from '../helpers/fake-server.js';
import { runCli } from '../helpers/host.js';

// On a MockAgent: these answers need no socket (flag -> request -> what svc makes of the answer).
const fake = useFakeServer({ mock: true });
const SEARCH = '/api/v1/issues/search';
const REPOS = '/api/v1/repositories/list';
const BY_SEVERITY = '/api/v1/stats/issuesBySeverity';

type Json = Record<string, unknown>;
const issue = (over: Json = {}): Json => ({ id: 'iss-1', status: 'open', score: 50, repositoryId: 'repo-1', generatedTitle: 't', ...over });
const answer = (issues: Json[], over: Json = {}): Json => ({ issues, totalCount: issues.length, totalCountAllCategories: issues.length, currentPage: 1, pageSize: 10, ...over });
const svc = (args: string[]) => runCli(args, { env: fake.env, dispatcher: fake.dispatcher });

describe('issues search (one page) and --all refuse a contradicting answer', () => {
  it('control: a clean answer is shown', async () => {
    fake.stub(SEARCH, { json: answer([issue()]) });
    const r = await svc(['issues', 'search', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).issues).toHaveLength(1);
  });

  const cases: Array<[string, () => void, string]> = [
    ['HTTP 206', () => fake.stub(SEARCH, { status: 206, json: answer([issue()]) }), 'HTTP 206, not 200'],
    ['an error key next to data', () => fake.stub(SEARCH, { json: { ...answer([issue()]), error: 'partial results' } }), 'partial results'],
    ['totalCountAllCategories < totalCount', () => fake.stub(SEARCH, { json: answer([issue()], { totalCountAllCategories: 0 }) }), 'smaller than totalCount'],
    ['a key twice', () => fake.stub(SEARCH, { text: JSON.stringify(answer([issue()])).replace('"score":50', '"score":50,"score":5'), type: 'application/json' }), "score' twice"],
  ];
  for (const [name, stub, message] of cases) {
    for (const all of [false, true]) {
      it(`${name}${all ? ' (--all)' : ''}: exit 7`, async () => {
        stub();
        const r = await svc(['issues', 'search', ...(all ? ['--all'] : []), '-o', 'json']);
        expect(r.code, r.stdout).toBe(7);
        expect(r.stderr).toContain(message);
        expect(r.stdout).toBe('');
      });
    }
  }

  it('an issue of a repository not asked for: exit 7 naming it (one page and --all)', async () => {
    fake.stub(SEARCH, { json: answer([issue(), issue({ id: 'iss-2', repositoryId: 'repo-9' })]) });
    for (const all of [[], ['--all']]) {
      const r = await svc(['issues', 'search', '--repository-ids', 'repo-1', ...all, '-o', 'json']);
      expect(r.code, r.stdout).toBe(7);
      expect(r.stderr).toContain("'iss-2' of repository 'repo-9'");
    }
  });

  it('an issue of a status not asked for with --types: exit 7', async () => {
    fake.stub(SEARCH, { json: answer([issue({ status: 'patched' })]) });
    const r = await svc(['issues', 'search', '--types', 'open', '-o', 'json']);
    expect(r.code, r.stdout).toBe(7);
    expect(r.stderr).toContain("of status 'patched'");
  });
});

describe('stats refuse a contradicting answer', () => {
  it('control', async () => {
    fake.stub(BY_SEVERITY, { json: { severityCounts: { critical: 1, high: 2, medium: 0, low: 0, info: 0 }, total: 3 } });
    const r = await svc(['stats', 'issues-by-severity', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
  });
  it('total against severityCounts: exit 7', async () => {
    fake.stub(BY_SEVERITY, { json: { severityCounts: { critical: 1, high: 2, medium: 0, low: 0, info: 0 }, total: 0 } });
    const r = await svc(['stats', 'issues-by-severity', '-o', 'json']);
    expect(r.code, r.stdout).toBe(7);
    expect(r.stderr).toContain('total is 0 but severityCounts add up to 3');
  });
  it('an error key with a 200: exit 7', async () => {
    fake.stub(BY_SEVERITY, { json: { severityCounts: { critical: 0, high: 0, medium: 0, low: 0, info: 0 }, total: 0, error: 'stats backend timed out' } });
    const r = await svc(['stats', 'issues-by-severity', '-o', 'json']);
    expect(r.code, r.stdout).toBe(7);
    expect(r.stderr).toContain('stats backend timed out');
  });
});

describe('issues search --repository-ids naming a repository the organization does not have', () => {
  for (const all of [false, true]) {
    it(`empty answer: exit 4 naming it${all ? ' (--all)' : ''}`, async () => {
      fake.stub(SEARCH, { json: answer([]) });
      fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
      const r = await svc(['issues', 'search', '--repository-ids', 'repo-1,repo_typo', ...(all ? ['--all'] : [])]);
      expect(r.code, r.stdout).toBe(4);
      expect(r.stderr).toContain("'repo_typo' not found");
      expect(r.stdout).not.toContain('No results');
    });
  }
  it('empty answer for repositories that exist: "No results.", exit 0', async () => {
    fake.stub(SEARCH, { json: answer([]) });
    fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
    const r = await svc(['issues', 'search', '--repository-ids', 'repo-1']);
    expect(r.code, r.stderr).toBe(0);
  });
  it('a non-empty answer costs no lookup', async () => {
    fake.stub(SEARCH, { json: answer([issue()]) });
    const r = await svc(['issues', 'search', '--repository-ids', 'repo-1', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(fake.hits(REPOS)).toBe(0);
  });
});

describe('stats top-issues: an issue of another status than the type asked for', () => {
  const TOP = '/api/v1/stats/topIssues';
  it('exit 7 naming it; the control passes', async () => {
    fake.stub(TOP, [{ json: [{ id: 'iss-1', title: 't', vulnClass: 'XSS', score: 91, cwes: [], status: 'open' }] }, { json: [{ id: 'iss-2', title: 't', vulnClass: 'XSS', score: 91, cwes: [], status: 'patched' }] }]);
    const ok = await svc(['stats', 'top-issues', '--type', 'open', '-o', 'json']);
    expect(ok.code, ok.stderr).toBe(0);
    const r = await svc(['stats', 'top-issues', '--type', 'open', '-o', 'json']);
    expect(r.code, r.stdout).toBe(7);
    expect(r.stderr).toContain("'iss-2' of status 'patched'");
  });
});
