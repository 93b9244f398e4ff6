/**
 * Issue 21, class 8, and issue 33: where `svc issues search`, `stats` and `--all` print data, an answer
 * svc cannot read (a 2xx other than 200, a key with two values) is exit 7; one that contradicts itself
 * or the request in a way a real service plausibly might (counts over another scope, an error beside
 * complete data, an item outside a filter) is shown as it came with one warning line per kind; --all
 * refuses a listing its answers prove incomplete. A search scoped to a repository the organization
 * does not have is exit 4 (not "No results.").
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

describe('issues search (one page) and --all: what cannot be read is refused, the rest shown with a warning', () => {
  it('control: a clean answer is shown', async () => {
    fake.stub(SEARCH, { json: answer([issue()]) });
    const r = await svc(['issues', 'search', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).issues).toHaveLength(1);
  });

  const cases: Array<[string, () => void, string]> = [
    ['HTTP 206', () => fake.stub(SEARCH, { status: 206, json: answer([issue()]) }), 'HTTP 206, not 200'],
    ['a key twice with two values', () => fake.stub(SEARCH, { text: JSON.stringify(answer([issue()])).replace('"score":50', '"score":50,"score":5'), type: 'application/json' }), "score' twice with two values"],
  ];
  const shown: Array<[string, () => void, string]> = [
    ['an error key next to data', () => fake.stub(SEARCH, { json: { ...answer([issue()]), error: 'partial results' } }), 'partial results'],
    ['totalCountAllCategories < totalCount', () => fake.stub(SEARCH, { json: answer([issue()], { totalCountAllCategories: 0 }) }), 'smaller than totalCount'],
  ];
  for (const [name, stub, message] of shown) {
    for (const all of [false, true]) {
      it(`${name}${all ? ' (--all)' : ''}: shown, with a warning (exit 0)`, async () => {
        stub();
        const r = await svc(['issues', 'search', ...(all ? ['--all'] : []), '-o', 'json']);
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toMatch(new RegExp(`^warning: .*${message}`, 'm'));
        expect(r.stdout).toContain('iss-1');
      });
    }
  }
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

  it('an issue of a repository not asked for: shown, with a warning naming it (one page and --all)', async () => {
    fake.stub(SEARCH, { json: answer([issue(), issue({ id: 'iss-2', repositoryId: 'repo-9' })]) });
    for (const all of [[], ['--all']]) {
      const r = await svc(['issues', 'search', '--repository-ids', 'repo-1', ...all, '-o', 'json']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('iss-2');
      expect(r.stderr).toContain("'iss-2' of repository 'repo-9'");
    }
  });

  it('an issue of a status not asked for with --types: shown, with a warning; --verbose says more', async () => {
    fake.stub(SEARCH, { json: answer([issue({ status: 'patched' }), issue({ id: 'iss-2', status: 'processing' })]) });
    const r = await svc(['issues', 'search', '--types', 'open', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).issues).toHaveLength(2);
    // One line for the kind, naming both.
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('warning: '));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/of status 'patched'.*of status 'processing'/);
    const v = await svc(['issues', 'search', '--types', 'open', '-o', 'json', '--verbose']);
    expect(v.stderr).toMatch(/^ {2}- page 1 holds item 'iss-2' of status 'processing'/m);
    expect(v.stderr).toMatch(/^ {2}why: the request's `types`/m);
  });
});

describe('stats: a contradicting answer is shown, with a warning', () => {
  it('control', async () => {
    fake.stub(BY_SEVERITY, { json: { severityCounts: { critical: 1, high: 2, medium: 0, low: 0, info: 0 }, total: 3 } });
    const r = await svc(['stats', 'issues-by-severity', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
  });
  it('total against severityCounts: shown, with a warning', async () => {
    fake.stub(BY_SEVERITY, { json: { severityCounts: { critical: 1, high: 2, medium: 0, low: 0, info: 0 }, total: 0 } });
    const r = await svc(['stats', 'issues-by-severity', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('total is 0 but severityCounts add up to 3');
  });
  it('an error key with a 200: shown, with a warning', async () => {
    fake.stub(BY_SEVERITY, { json: { severityCounts: { critical: 0, high: 0, medium: 0, low: 0, info: 0 }, total: 0, error: 'stats backend timed out' } });
    const r = await svc(['stats', 'issues-by-severity', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
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
  it('shown, with a warning naming it; the control has none', async () => {
    fake.stub(TOP, [{ json: [{ id: 'iss-1', title: 't', vulnClass: 'XSS', score: 91, cwes: [], status: 'open' }] }, { json: [{ id: 'iss-2', title: 't', vulnClass: 'XSS', score: 91, cwes: [], status: 'patched' }] }]);
    const ok = await svc(['stats', 'top-issues', '--type', 'open', '-o', 'json']);
    expect([ok.code, ok.stderr]).toEqual([0, '']);
    const r = await svc(['stats', 'top-issues', '--type', 'open', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain("'iss-2' of status 'patched'");
  });
});

describe('svc api stays raw (issue 33): the answer as it came', () => {
  it('no check of an operation applies (counts, scope): no warning; only what cannot be read is refused', async () => {
    fake.stub(SEARCH, { json: answer([issue({ status: 'patched', repositoryId: 'repo-9' })], { totalCount: 1, categoryCounts: { open: 15 } }) });
    const r = await svc(['api', 'issues/search', '-F', 'types=["open"]', '-F', 'repositoryIds=["repo-1"]', '-o', 'json']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(JSON.parse(r.stdout).categoryCounts).toEqual({ open: 15 });
    fake.stub(SEARCH, { text: JSON.stringify(answer([issue()])).replace('"score":50', '"score":50,"score":5'), type: 'application/json' });
    const twice = await svc(['api', 'issues/search', '-o', 'json']);
    expect(twice.code).toBe(7);
    expect(twice.stderr).toContain('twice with two values');
  });
});
