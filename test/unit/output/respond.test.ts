/**
 * The shared tail of every API command (src/output/respond.ts): an answer saying `ok: false` is the
 * service saying it did not do it (exit 5, on stderr, nothing on stdout), in single calls, bulk
 * actions and `svc api`; `ok` missing or not a boolean where the schema wants one is exit 7.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/host.js';
import { useFakeServer } from '../../helpers/fake-server.js';

const fake = useFakeServer({ mock: true });
const run = (argv: string[]) => runCli(argv, { env: { ...fake.env, SVC_ORGANIZATION_ID: 'org_a' }, dispatcher: fake.dispatcher });

describe('an answer of ok: false is never a success', () => {
  for (const format of ['table', 'json']) {
    it(`issues archive ID -o ${format}: exit 5, the message on stderr, nothing on stdout`, async () => {
      fake.stub('/api/v1/issues/archive', { json: { ok: false } });
      const r = await run(['issues', 'archive', 'iss_1', '--yes', '-o', format]);
      expect(r.code, r.stderr).toBe(5);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^svc: error: issues archive: the service answered "ok": false, so it did not do this; /);
    });
  }

  it("orgs delete: exit 5 (not a table saying 'ok false'), the service's message named", async () => {
    fake.stub('/api/v1/orgs/delete', { json: { ok: false, message: 'org has\u001b[31m repositories' } });
    const r = await run(['orgs', 'delete', 'org_a', '--yes', '-o', 'table']);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('orgs delete: the service answered "ok": false, so it did not do this ("org has repositories")');
  });

  it('svc api on an operation answering ok: false: exit 5', async () => {
    fake.stub('/api/v1/orgs/delete', { json: { ok: false } });
    const r = await run(['api', 'orgs/delete', '-F', 'organizationId=org_a', '-o', 'json']);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('svc api orgs/delete: the service answered "ok": false');
  });

  it('ok: true is still a success (exit 0), and approve-patch without ok too', async () => {
    fake.stub('/api/v1/issues/archive', { json: { ok: true } });
    expect((await run(['issues', 'archive', 'iss_1', '--yes', '-o', 'json'])).code).toBe(0);
    fake.stub('/api/v1/issues/approve-patch', { json: { patchId: 'p1' } });
    expect((await run(['issues', 'approve-patch', 'iss_1', '--yes', '-o', 'json'])).code).toBe(0);
  });

  it('approve-patch answering ok: false (its ok is optional): exit 5', async () => {
    fake.stub('/api/v1/issues/approve-patch', { json: { ok: false, patchId: 'p1' } });
    const r = await run(['issues', 'approve-patch', 'iss_1', '--yes', '-o', 'json']);
    expect(r.code, r.stderr).toBe(5);
  });

  for (const [what, answer] of [['missing', {}], ['a string', { ok: 'yes' }], ['null', { ok: null }]] as const) {
    it(`ok ${what} in an OkResponse: exit 7, whether the change was made is unknown`, async () => {
      fake.stub('/api/v1/issues/archive', { json: answer });
      const r = await run(['issues', 'archive', 'iss_1', '--yes', '-o', 'json']);
      expect(r.code, r.stderr).toBe(7);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/issues archive: the answer's ok is (missing|"yes"|null), so whether it was done is unknown/);
    });
  }
});

describe('bulk actions: an id answered ok: false failed', () => {
  const cases = [['archive', 'archived'], ['mark-true-positive', 'marked true positive'], ['generate-patch', 'patches requested']] as const;
  for (const [action, done] of cases) {
    it(`issues ${action} iss_1 iss_2: both failed (code 5), exit 5, not "2 ${done}"`, async () => {
      fake.stub(`/api/v1/issues/${action}`, { json: { ok: false } });
      const r = await run(['issues', action, 'iss_1', 'iss_2', '--yes', '-o', 'json']);
      expect(r.code, r.stderr).toBe(5);
      const records = JSON.parse(r.stdout) as Array<{ id: string; outcome: string; code: number; error: string }>;
      expect(records.map((x) => [x.id, x.outcome, x.code])).toEqual([['iss_1', 'failed', 5], ['iss_2', 'failed', 5]]);
      expect(records[0].error).toContain('"ok": false');
      expect(r.stderr).toContain(`0 ${done}, 2 failed`);
    });
  }

  it('-o table: the summary counts them failed; one done and one refused gives exit 5', async () => {
    fake.stub('/api/v1/issues/archive', (req) => ({ json: { ok: req.body.issueId === 'iss_1' } }));
    const r = await run(['issues', 'archive', 'iss_1', 'iss_2', '--yes', '-o', 'table']);
    expect(r.code, r.stderr).toBe(5);
    expect(r.stderr).toContain('1 archived, 1 failed: iss_2 (rejected: ');
  });

  it('an answer without ok (the wrong shape): that id failed with 7', async () => {
    fake.stub('/api/v1/issues/archive', { json: { done: true } });
    const r = await run(['issues', 'archive', 'iss_1', 'iss_2', '--yes', '-o', 'json']);
    expect(r.code, r.stderr).toBe(7);
    expect((JSON.parse(r.stdout) as Array<{ code: number }>).map((x) => x.code)).toEqual([7, 7]);
  });
});

describe('a number too large to read in an answer', () => {
  it('issues search with score 1e400: shown as the service sent it, with a warning saying what the gate says of it ("a number too large to read")', async () => {
    fake.stub('/api/v1/issues/search', { text: '{"issues":[{"id":"iss_1","status":"open","score":1e400}],"totalCount":1,"currentPage":1,"pageSize":10}', type: 'application/json' });
    const r = await run(['issues', 'search', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('"score":1e400');
    expect(r.stderr).toContain('issues.0.score expected a number, got a number too large to read');
  });
});

describe('a declared record with an extra list of records (fields beyond the spec are kept)', () => {
  // The one-list rule is for shapes the spec does not show: an issue carrying `comments: [...]`
  // was drawn as a table of its comments (table empty, CSV a row of empty cells): the issue lost.
  const issue = { id: 'iss_1', status: 'open', score: 95, generatedTitle: 'SQL injection in login', comments: [{ author: 'bob', text: 'looking' }] };
  it('issues get -o table shows the issue, not its comments', async () => {
    fake.stub('/api/v1/issues/get', { json: issue });
    const r = await run(['issues', 'get', 'iss_1', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('SQL injection in login');
    expect(r.stdout).toMatch(/ID\s+iss_1/);
  });

  it('issues get -o csv: the issue as its one row', async () => {
    fake.stub('/api/v1/issues/get', { json: { ...issue, comments: [...issue.comments, { author: 'al', text: 'x' }] } });
    const r = await run(['issues', 'get', 'iss_1', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[1]).toMatch(/^iss_1,open,95,/);
  });

  it('scans get-schedule with an extra list of runs: the schedule shown', async () => {
    fake.stub('/api/v1/scans/get-schedule', { json: { id: 'sch_1', repoId: 'r1', executionCriteriaCrontab: '0 3 * * 1', timezone: 'UTC', isEnabled: true, recentRuns: [{ at: '2026-01-05T03:00:00Z', scanId: 's1' }] } });
    const r = await run(['scans', 'get-schedule', 'r1', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Schedule\s+0 3 \* \* 1/);
  });

  it('a shape the spec does not show still shows its one list as the rows (stats time-saved)', async () => {
    fake.stub('/api/v1/stats/timeSaved', { json: { byRepository: [{ repositoryId: 'r1', hours: 10 }, { repositoryId: 'r2', hours: 2.5 }] } });
    const r = await run(['stats', 'time-saved', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('repository,hours\nr1,10\nr2,2.5\n');
  });
});

describe('an answer of a shape the spec does not show, not where the row guessed its rows', () => {
  // The row's default columns (name, isDefault; id, criticalIssues...) were drawn over rows that
  // have none of them: every value dropped, empty rows left.
  for (const [what, answer] of [['a bare list of names', ['main', 'develop']], ['branches as names', { branches: ['main', 'develop'] }]] as const) {
    it(`repos branches answered ${what}: the names shown (table and CSV)`, async () => {
      fake.stub('/api/v1/repositories/branches', { json: answer });
      const table = await run(['repos', 'branches', 'r1', '-o', 'table']);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).toBe('VALUE\nmain\ndevelop\n');
      fake.stub('/api/v1/repositories/branches', { json: answer });
      const csv = await run(['repos', 'branches', 'r1', '-o', 'csv']);
      expect(csv.stdout).toBe('value\nmain\ndevelop\n');
    });
  }

  it('repos branches answered { items: [...] }: the items are the rows', async () => {
    fake.stub('/api/v1/repositories/branches', { json: { items: [{ name: 'main' }, { name: 'dev' }] } });
    const r = await run(['repos', 'branches', 'r1', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('name,default\nmain,\ndev,\n');
  });

  it('stats security-posture answered a list of periods: -o csv shows their fields', async () => {
    fake.stub('/api/v1/stats/securityPosture', { json: [{ date: '2026-01-05', critical: 2, high: 1 }, { date: '2026-01-12', critical: 1, high: 0 }] });
    const r = await run(['stats', 'security-posture', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('date,critical,high\n2026-01-05,2,1\n2026-01-12,1,0\n');
  });

  it('stats answered a list of one: -o table shows its fields (it showed the heading alone)', async () => {
    fake.stub('/api/v1/stats/securityPosture', { json: [{ date: '2026-01-05', critical: 2, high: 1 }] });
    const r = await run(['stats', 'security-posture', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n').map((l) => l.trimEnd())).toEqual(['DATE        CRITICAL  HIGH', '2026-01-05  2         1', '']);
    fake.stub('/api/v1/stats/issuesByRepository', { json: [{ repositoryId: 'r1', repositoryName: 'payments-api', critical: 1, total: 3 }] });
    const byRepo = await run(['stats', 'issues-by-repository', '-o', 'table']);
    expect(byRepo.stdout).toMatch(/^r1 +payments-api +1 +3$/m);
  });

  it('stats security-posture without repositoryRiskScores: -o csv gives its fields, not a row of empty cells', async () => {
    fake.stub('/api/v1/stats/securityPosture', { json: { exposure: { oldestCriticalAge: 3 }, totalOpen: 5 } });
    const r = await run(['stats', 'security-posture', '-o', 'csv']);
    expect(r.stdout).toBe('oldest critical age,total open\n3,5\n');
  });

  it('stats time-saved answered a bare number: -o csv gives it', async () => {
    fake.stub('/api/v1/stats/timeSaved', { json: 42.5 });
    const r = await run(['stats', 'time-saved', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('value\n42.5\n');
  });

  it('--columns chosen are kept as chosen, and an empty list keeps the default header', async () => {
    fake.stub('/api/v1/repositories/branches', { json: { branches: [] } });
    expect((await run(['repos', 'branches', 'r1', '-o', 'csv'])).stdout).toBe('name,default\n');
    fake.stub('/api/v1/repositories/branches', { json: { branches: [{ sha: 'abc' }] } });
    expect((await run(['repos', 'branches', 'r1', '-o', 'csv', '--columns', 'sha'])).stdout).toBe('sha\nabc\n');
  });
});

describe('keys that hold a dot (a map keyed by repository or file name)', () => {
  // leafPaths joins keys with dots and getPath split them again: `{ "web.app": 4 }` showed its key
  // with no value in a table, and an empty CSV cell.
  it('stats issues-by-vuln-class answered a map keyed by names with dots: every value shown', async () => {
    fake.stub('/api/v1/stats/issuesByVulnClass', { json: { 'acme/web.app': 4, 'api.v2': { critical: 1 } } });
    const table = await run(['stats', 'issues-by-vuln-class', '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toBe('acme/web.app     4\napi.v2.critical  1\n');
    fake.stub('/api/v1/stats/issuesByVulnClass', { json: { 'acme/web.app': 4, 'api.v2': { critical: 1 } } });
    const csv = await run(['stats', 'issues-by-vuln-class', '-o', 'csv']);
    expect(csv.stdout.split('\n')[1]).toBe('4,1');
  });

  it('shownAt reads a dotted key back; getPath (what svc decides on) does not', async () => {
    const { getPath, shownAt } = await import('../../../src/output/field-paths.js');
    expect(shownAt({ 'hours.saved': 3 }, 'hours.saved')).toBe(3);
    expect(shownAt({ a: { 'b.c': { d: 1 } } }, 'a.b.c.d')).toBe(1);
    expect(shownAt({ hours: { saved: 2 }, 'hours.saved': 3 }, 'hours.saved')).toBe(2);
    expect(shownAt({ issueCounts: { open: 1 } }, 'issueCounts.patched')).toBeUndefined();
    expect(getPath({ 'codeScan.id': 's1' }, 'codeScan.id')).toBeUndefined();
  });
});

describe('fields of an answer the spec does not show are never dropped from a table', () => {
  // The stats views name the fields public clients were seen to read; any other field of the
  // service's answer was left out of -o table without a word (a map by repository: a bare heading).
  it('stats issues-by-repository answered a map keyed by repository: its counts listed', async () => {
    fake.stub('/api/v1/stats/issuesByRepository', { json: { r1: { critical: 1, high: 2 }, r2: { critical: 0, high: 1 } } });
    const r = await run(['stats', 'issues-by-repository', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('Open issues by repository\n\nOther fields\n  r1.critical  1\n  r1.high      2\n  r2.critical  0\n  r2.high      1\n');
  });

  it('stats security-posture with a field of its own: listed under the view', async () => {
    fake.stub('/api/v1/stats/securityPosture', { json: { exposure: { oldestCriticalAge: 3 }, totalOpen: 5 } });
    const r = await run(['stats', 'security-posture', '-o', 'table']);
    expect(r.stdout).toBe('Security posture\n\nOldest critical  3 days\n\nOther fields\n  totalOpen  5\n');
  });

  it('stats time-saved: the fields beside the one list shown above its rows', async () => {
    fake.stub('/api/v1/stats/timeSaved', { json: { timeSaved: { hours: 12, minutes: 30 }, byRepository: [{ repositoryId: 'r1', hours: 10 }, { repositoryId: 'r2', hours: 2.5 }] } });
    const r = await run(['stats', 'time-saved', '-o', 'table']);
    expect(r.stdout).toBe('timeSaved.hours    12\ntimeSaved.minutes  30\n\nREPOSITORY  HOURS\nr1          10\nr2          2.5\n');
  });

  it('repos branches: the fields beside its branches shown above their rows', async () => {
    fake.stub('/api/v1/repositories/branches', { json: { repositoryId: 'r1', defaultBranch: 'main', branches: [{ name: 'main', isDefault: true }, { name: 'dev', isDefault: false }] } });
    const r = await run(['repos', 'branches', 'r1', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('repositoryId   r1\ndefaultBranch  main\n\nNAME  DEFAULT\nmain  true\ndev   false\n');
  });

  it('repos branches answered a record with no list: its fields, not the empty default columns', async () => {
    fake.stub('/api/v1/repositories/branches', { json: { defaultBranch: 'main', count: 2 } });
    const r = await run(['repos', 'branches', 'r1', '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('defaultBranch  main\ncount          2\n');
  });

  // IdResponse: the spec does not show its field list; `id` is svc's inference. The table showed an
  // empty ID for any other name, and the id the service gave was lost on a terminal.
  it('an IdResponse without `id`: its own fields in the table, not an empty ID; `id` when it is there', async () => {
    fake.stub('/api/v1/repositories/create-standalone', { json: { repositoryId: 'repo_9', created: true } });
    const other = await run(['repos', 'create-standalone', '-F', 'organizationId=org_a', '-o', 'table']);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stdout).toBe('repositoryId  repo_9\ncreated       true\n');
    fake.stub('/api/v1/repositories/create-standalone', { json: { id: 'repo_9', created: true } });
    const named = await run(['repos', 'create-standalone', '-F', 'organizationId=org_a', '-o', 'table']);
    expect(named.stdout).toBe('id  repo_9\n');
    fake.stub('/api/v1/repositories/create-standalone', { json: {} });
    const empty = await run(['repos', 'create-standalone', '-F', 'organizationId=org_a', '-o', 'table']);
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toBe('');
    expect(empty.stderr).toContain('The answer is an empty record ({}).');
  });

  it('a declared record keeps its curated view (issues get lists no other fields)', async () => {
    fake.stub('/api/v1/issues/get', { json: { id: 'iss_1', status: 'open', score: 95, generatedTitle: 'SQLi', internalRank: 3 } });
    const r = await run(['issues', 'get', 'iss_1', '-o', 'table']);
    expect(r.stdout).not.toContain('Other fields');
  });
});

describe('scans list items named by `id`, not `scanId` (item-id-field: some clients fall back to `id`)', () => {
  // The SCAN column was empty and the warning said "without a usable scanId": idsShown filled only a column `id`.
  const answer = { codeScans: [{ id: 's1', repositoryId: 'r1', status: 'completed' }, { scanId: 's2', id: 'x', repositoryId: 'r2', status: 'running' }], totalCount: 2 };
  for (const all of [false, true]) {
    const flags = all ? ['--all'] : [];
    it(`scans list${all ? ' --all' : ''} -o table and csv: the SCAN column shows the id; the warning names the alias`, async () => {
      fake.stub('/api/v1/scans/list', { json: answer });
      const table = await run(['scans', 'list', ...flags, '-o', 'table']);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).toMatch(/^s1\s+r1\s+completed/m);
      expect(table.stdout).toMatch(/^s2\s+r2\s+running/m);
      expect(table.stderr).toContain("holds an item without 'scanId' that gives 'id' 's1': read as its id [item-id-field, inferred");
      expect(table.stderr).not.toContain('usable scanId');
      fake.stub('/api/v1/scans/list', { json: answer });
      const csv = await run(['scans', 'list', ...flags, '-o', 'csv']);
      expect(csv.stdout.split('\n').slice(1, 3)).toEqual(['s1,r1,,completed,,,', 's2,r2,,running,,,']);
    });
  }

  it('-o json: the items as they came', async () => {
    fake.stub('/api/v1/scans/list', { json: answer });
    const r = await run(['scans', 'list', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(answer);
  });
});

describe('CSV headers of keys that are data (a map keyed by vuln class or repository, in an answer the spec does not show)', () => {
  // `XSS` became `xss`, `SQLInjection` `sql injection`, `acme/web.app` `app` (the text after its dot).
  it('stats issues-by-vuln-class answered a map keyed by class: the keys as written', async () => {
    fake.stub('/api/v1/stats/issuesByVulnClass', { json: { XSS: 3, SQLInjection: 2, 'acme/web.app': 4, 'Path Traversal': 1, 'x\u001b[31m\ny': 5 } });
    const r = await run(['stats', 'issues-by-vuln-class', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('XSS,SQLInjection,acme/web.app,Path Traversal,x y\n3,2,4,1,5\n');
  });

  it('a map of records keyed by repository: each key as written, the field after it in words', async () => {
    fake.stub('/api/v1/stats/timeSaved', { json: { byRepository: { 'acme/web.app': { hoursSaved: 3 }, api: { hoursSaved: 1 } } } });
    const r = await run(['stats', 'time-saved', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('acme/web.app hours saved,api hours saved\n3,1\n');
  });

  it('field names are still words (a record, not a map), and a declared record keeps its headers', async () => {
    fake.stub('/api/v1/stats/securityPosture', { json: { exposure: { oldestCriticalAge: 3 }, totalOpen: 5 } });
    expect((await run(['stats', 'security-posture', '-o', 'csv'])).stdout).toBe('oldest critical age,total open\n3,5\n');
    fake.stub('/api/v1/issues/get', { json: { id: 'iss_1', status: 'open', generatedTitle: 'T', 'X-Extra': 1 } });
    expect((await run(['issues', 'get', 'iss_1', '-o', 'csv'])).stdout.split('\n')[0]).toMatch(/^id,status,.*,title$/);
  });
});

describe('scans list: a PR scan with only prTargetBranch (field notes) in the BRANCH column', () => {
  // Its BRANCH cell was empty: the column reads scanTargetBranch only.
  const answer = { codeScans: [
    { scanId: 's1', repositoryId: 'r1', status: 'completed', codeScanType: 'PrScan', prTargetBranch: 'main' },
    { scanId: 's2', repositoryId: 'r1', status: 'completed', codeScanType: 'FullScan', scanTargetBranch: 'develop', prTargetBranch: 'x' },
  ], totalCount: 2 };
  for (const all of [false, true]) {
    it(`scans list${all ? ' --all' : ''}: the PR's target branch, marked; a scan's own branch wins`, async () => {
      fake.stub('/api/v1/scans/list', { json: answer });
      const table = await run(['scans', 'list', ...(all ? ['--all'] : []), '-o', 'table']);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).toMatch(/^s1\s+r1\s+PrScan\s+(completed\s+)?main \(PR target\)$/m);
      expect(table.stdout).toMatch(/^s2\s+r1\s+FullScan\s+(completed\s+)?develop$/m);
      fake.stub('/api/v1/scans/list', { json: answer });
      const csv = await run(['scans', 'list', ...(all ? ['--all'] : []), '-o', 'csv']);
      expect(csv.stdout).toBe('scan,repository,type,status,branch,open,created\ns1,r1,PrScan,completed,main (PR target),,\ns2,r1,FullScan,completed,develop,,\n');
    });
  }

  it('-o json: as it came', async () => {
    fake.stub('/api/v1/scans/list', { json: answer });
    expect(JSON.parse((await run(['scans', 'list', '-o', 'json'])).stdout)).toEqual(answer);
  });
});
