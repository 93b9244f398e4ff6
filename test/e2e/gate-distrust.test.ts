/**
 * Issue 21: the gate believes nothing it cannot check. Answers that contradict themselves or the
 * request, values outside the spec, scans that disagree with themselves: exit 7 (or 8), never PASSED.
 * Issue 33: a doubt blocks only what it could make wrong. A plausible answer a real service could give
 * reaches a result (decided, with a warning), a doubt that could hide a breaking issue stops a PASS,
 * and a proven FAIL stands. Each case is a clean answer with one thing changed; the clean answer itself
 * passes (the control). test/e2e/answer-checks.test.ts holds a case per row of the table of checks.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useFakeServer } from '../helpers/fake-server.js';
import { runCli } from '../helpers/host.js';
import { runSvc } from '../helpers/run-svc.js';

const fake = useFakeServer();
const SEARCH = '/api/v1/issues/search';

type Json = Record<string, unknown>;

function issue(over: Json = {}): Json {
  return {
    id: 'iss-1', status: 'open', score: 5, generatedTitle: 'Weak hash', vulnClass: 'Weak Crypto', affectedFile: 'src/a.ts',
    repositoryId: 'repo-1', createdAt: '2026-11-20T10:00:00Z', codeScan: { id: 'scan-1', scanTargetBranchCommitSha: 'abcdef0123456789' }, ...over,
  };
}

function answer(issues: Json[], over: Json = {}): Json {
  return {
    issues, totalCount: issues.length, totalCountAllCategories: issues.length + 2,
    categoryCounts: { open: issues.length, patched: 2, falsePositive: 0, archived: 0, processing: 0, silenced: 0, closed: 0 },
    currentPage: 1, pageSize: 500, ...over,
  };
}

const gate = (args: string[] = [], env: Record<string, string> = {}) => runCli(['gate', '--fail-on', 'high', ...args], { env: { ...fake.env, ...env } });

describe('class 1: answers that contradict themselves or the spec (exit 7, never a verdict)', () => {
  it('control: the clean answer passes', async () => {
    fake.stub(SEARCH, { json: answer([issue()]) });
    const r = await gate();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/PASSED/);
  });

  for (const status of [206, 202, 203, 201]) {
    it(`HTTP ${status} with a listing in it is not a listing`, async () => {
      fake.stub(SEARCH, { status, json: answer([issue()]) });
      const r = await gate();
      expect(r.code, r.stdout).toBe(7);
      expect(r.stderr).toContain(`HTTP ${status}, not 200`);
      expect(r.stdout).not.toMatch(/PASSED/);
    });
  }

  it('the service\'s error key next to data (a string)', async () => {
    fake.stub(SEARCH, { json: { ...answer([issue()]), error: 'index degraded, results partial' } });
    const r = await gate();
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('index degraded, results partial');
  });

  it('the service\'s error key next to data (an object)', async () => {
    fake.stub(SEARCH, { json: { ...answer([]), error: { message: 'shard 3 down', code: 'PARTIAL' } } });
    const r = await gate();
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('shard 3 down');
  });

  // No record of the spec has `errors` or `success`: an error-shaped 200 from something between svc
  // and the service (a gateway, a search proxy) beside data that may be partial.
  it.each([
    ['success: false with a message', { success: false, message: 'partial results, shard down' }, 'partial results, shard down'],
    ['a non-empty errors list', { errors: [{ message: 'shard 2 timed out', code: 'PARTIAL' }] }, 'shard 2 timed out'],
  ])('an error-shaped answer beside the data (%s): exit 7, naming it', async (_, extra, said) => {
    fake.stub(SEARCH, { json: { ...answer([issue()]), ...extra } });
    const r = await gate();
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).toContain(said);
    expect(r.stdout).not.toContain('PASSED');
  });

  it('an empty errors list and success: true are no error: the gate decides', async () => {
    fake.stub(SEARCH, { json: { ...answer([issue()]), errors: [], success: true } });
    const r = await gate();
    expect(r.code, r.stderr).toBe(0);
  });

  it('totalCount against categoryCounts of the statuses asked for', async () => {
    fake.stub(SEARCH, { json: answer([issue()], { categoryCounts: { open: 40, patched: 0 }, totalCountAllCategories: 40 }) });
    const r = await gate();
    expect(r.code).toBe(7);
    expect(r.stderr).toContain('totalCount is 1 but categoryCounts gives 40 open issues');
  });

  it('categoryCounts without the status asked for (sparse counts): read as 0, decided, with a warning (it was exit 7)', async () => {
    fake.stub(SEARCH, { json: answer([issue()], { categoryCounts: { patched: 0 } }) });
    const r = await gate();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('categoryCounts gives no open (asked for with types), read as 0');
  });

  it('totalCountAllCategories smaller than totalCount: every listed issue is read, decided with a warning (it was exit 7)', async () => {
    fake.stub(SEARCH, { json: answer([issue()], { totalCountAllCategories: 0, categoryCounts: undefined }) });
    const r = await gate();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('totalCountAllCategories 0 (issues of every status) is smaller than totalCount 1');
  });

  it('an issue with the same key twice (two scores: JSON would keep the harmless last one)', async () => {
    const text = JSON.stringify(answer([issue({ score: 95 })])).replace('"score":95', '"score":95,"score":5');
    fake.stub(SEARCH, { text, type: 'application/json' });
    const r = await gate();
    expect(r.code).toBe(7);
    expect(r.stderr).toContain("'score' twice");
  });

  it('an issue with the same key twice, one of them written with escapes', async () => {
    const text = JSON.stringify(answer([issue({ score: 95 })])).replace('"status":"open"', '"status":"open","st\\u0061tus":"patched"');
    fake.stub(SEARCH, { text, type: 'application/json' });
    const r = await gate();
    expect(r.code).toBe(7);
    expect(r.stderr).toContain("'status' twice");
  });

  it('the answer with the same key twice at its top level', async () => {
    const text = JSON.stringify(answer([issue()])).replace('"currentPage":1', '"currentPage":1,"totalCountAllCategories":0');
    fake.stub(SEARCH, { text, type: 'application/json' });
    const r = await gate();
    expect(r.code).toBe(7);
    expect(r.stderr).toContain("'totalCountAllCategories' twice");
  });

  it('a currentPage other than the page asked for (a 0-based page number): decided, with a warning (it was exit 7); pages that repeat are caught by their ids', async () => {
    fake.stub(SEARCH, { json: answer([issue()], { currentPage: 0 }) });
    const r = await gate();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('page 1 was asked for, it says currentPage 0');
  });

  it('an issue whose id is empty: counted, but no PASS (it could be matched to no baseline or policy entry, nor shown to be listed once); of score 95: FAIL', async () => {
    fake.stub(SEARCH, { json: answer([issue({ id: '' })]) });
    const r = await gate();
    expect(r.code, r.stdout).toBe(7);
    expect(r.stderr).toContain('no PASS: page 1 holds an item without a usable id');
    fake.stub(SEARCH, { json: answer([issue({ id: '', score: 95 })]) });
    expect((await gate()).code).toBe(1);
  });

  it('more issues than totalCount', async () => {
    fake.stub(SEARCH, { json: answer([issue(), issue({ id: 'iss-2' })], { totalCount: 1, categoryCounts: { open: 1 } }) });
    const r = await gate();
    expect(r.code).toBe(7);
    expect(r.stdout).not.toMatch(/PASSED/);
  });
});

describe('class 2: values outside the spec in verdict fields (counted fail closed and named; a status svc does not know stops a PASS)', () => {
  // A status svc does not know, in a gate that would otherwise pass: no PASS (the lie of issue 21 stays).
  const unknown: unknown[] = ['Open', 'OPEN', ' open', 'open\u200b', 'оpen' /* Cyrillic o */, 'reopened', 1, true, { v: 'open' }, ['open']];
  for (const status of unknown) {
    it(`status ${JSON.stringify(status)} in an open-only search: no PASS (exit 7); of score 95 it is counted, and FAILs`, async () => {
      fake.stub(SEARCH, { json: answer([issue({ status })]) });
      const r = await gate();
      expect(r.code, r.stdout).toBe(7);
      expect(r.stderr).toMatch(/no PASS: page 1 holds item 'iss-1' of status/);
      fake.stub(SEARCH, { json: answer([issue({ status, score: 95 })]) });
      const f = await gate();
      expect(f.code, f.stderr).toBe(1);
      expect(f.stdout).toMatch(/iss-1[\s\S]*of status/);
    });
  }

  it('status "patched" (one the spec knows) in an open-only search: counted, fail closed, and named; decided', async () => {
    fake.stub(SEARCH, { json: answer([issue({ status: 'patched' })]) });
    const r = await gate();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("of status 'patched', not the one asked for ('open')");
    fake.stub(SEARCH, { json: answer([issue({ status: 'patched', score: 95 })]) });
    expect((await gate()).code).toBe(1);
  });

  for (const score of [-5, 101, 1e9, '95', 'high', true, null, { v: 95 }, [95]]) {
    it(`score ${JSON.stringify(score)}: counted as critical, named (exit 1 with --fail-on high)`, async () => {
      fake.stub(SEARCH, { json: answer([issue({ score })]) });
      const r = await gate();
      expect(r.code, r.stdout).toBe(1);
      expect(r.stdout).toContain("issue 'iss-1' has score");
      expect(r.stdout).toContain('counted as critical');
    });
  }

  it('score 1e400 (JSON.parse reads Infinity): counted as critical; the message says what was sent, not "null"', async () => {
    for (const [sent, said] of [['1e400', 'a number too large to read'], ['-1e400', 'a negative number too large to read']]) {
      fake.stub(SEARCH, { text: JSON.stringify(answer([issue({ score: 42 })])).replace('"score":42', `"score":${sent}`), type: 'application/json' });
      const r = await gate();
      expect(r.code, r.stdout).toBe(1);
      expect(r.stdout).toContain(`issue 'iss-1' has score ${said}, not a number from 0 to 100: counted as critical`);
    }
  });

  for (const createdAt of ['2026-13-45T10:00:00Z', '1795000000', 1795000000, 'yesterday', '2026-11-31T10:00:00Z', '2026-11-20', true]) {
    it(`createdAt ${JSON.stringify(createdAt)} with --new-since: counted as new, named`, async () => {
      fake.stub(SEARCH, { json: answer([issue({ createdAt, score: 95 })]) });
      const r = await gate(['--new-since', '2026-11-01']);
      expect(r.code, r.stdout).toBe(1);
      expect(r.stdout).toContain('counted as new');
    });
  }

  // The runner's TZ is the process's: the run a wrong zone would change spawns bin/svc with it (a
  // worker thread cannot change it). East of UTC a local reading puts 03:00 before the 02:00Z cut
  // (a failure turned into a pass). (West of it, a local reading could only make an issue newer, and
  // one without a zone up to 12 h before the cut is counted as new anyway: created-no-zone.) The
  // other run, which no zone changes, is the control that the cut itself works (in-process).
  for (const [tz, spawned] of [['Asia/Tokyo', 'after'], ['America/Los_Angeles', 'before']] as const) {
    it(`a date-time without a zone is read as UTC, whatever TZ says (TZ=${tz})`, async () => {
      // 03:00 UTC is after the 02:00Z cut: a new issue (score 95) that fails the gate.
      fake.stub(SEARCH, [{ json: answer([issue({ createdAt: '2026-11-20T03:00:00', score: 95 })]) }, { json: answer([issue({ createdAt: '2026-11-19T13:00:00', score: 95 })]) }]);
      const args = ['gate', '--fail-on', 'high', '--new-since', '2026-11-20T02:00:00Z'];
      const run = (real: boolean) => real ? runSvc(args, { env: { ...fake.env, TZ: tz } }) : runCli(args, { env: { ...fake.env, TZ: tz } });
      const r = await run(spawned === 'after');
      expect(r.code, r.stdout + r.stderr).toBe(1);
      // 13:00 the day before is 13 h before it: old in every zone, left out, the gate passes.
      const p = await run(spawned === 'before');
      expect(p.code, p.stdout + p.stderr).toBe(0);
    });
  }
});

describe('class 3: the scope was not honoured', () => {
  const REPOS = '/api/v1/repositories/list';
  const ORGS = '/api/v1/orgs/list';
  const SCANS = '/api/v1/scans/list';

  it('an issue of another repository than --repository-ids', async () => {
    fake.stub(REPOS, { json: [{ id: 'repo-1' }, { id: 'repo-2' }] });
    fake.stub(SEARCH, { json: answer([issue(), issue({ id: 'iss-9', repositoryId: 'repo-2' })]) });
    const r = await gate(['--repository-ids', 'repo-1']);
    expect(r.code, r.stdout).toBe(7);
    expect(r.stderr).toContain("'iss-9' of repository 'repo-2'");
  });

  it('an issue of another organization', async () => {
    fake.stub(ORGS, { json: [{ id: 'org-1' }, { id: 'org-2' }] });
    fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
    fake.stub(SEARCH, { json: answer([issue({ organizationId: 'org-2' })]) });
    const r = await gate([], { SVC_ORGANIZATION_ID: 'org-1' });
    expect(r.code, r.stdout).toBe(7);
    expect(r.stderr).toContain("of organization 'org-2'");
  });

  it('an issue of another scan than --scan-id (re-detected, it names the scan that first found it): counted, named, decided', async () => {
    fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
    fake.stub(SCANS, { json: { codeScans: [{ scanId: 'scan-1', status: 'completed', finished: true }], totalCount: 1 } });
    fake.stub(SEARCH, { json: answer([issue({ codeScan: { id: 'scan-7' } })]) });
    const r = await gate(['--scan-id', 'scan-1']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("of scan 'scan-7'");
  });

  it('a scan record without an id is never "the" scan', async () => {
    fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
    fake.stub(SCANS, { json: { codeScans: [{ status: 'completed', finished: true }], totalCount: 1 } });
    const r = await gate(['--scan-id', 'scan-1']);
    expect(r.code, r.stdout).toBe(7);
    expect(r.stderr).toContain('a scan without an id');
  });

  for (const scan of [
    { status: 'running', finished: true },
    { status: 'running', codeScanFinished: true },
    { status: 'completed', finished: false },
    { status: 'completed', finished: true, codeScanFinished: false },
  ]) {
    it(`a scan whose status and flags disagree is pending: ${JSON.stringify(scan)}`, async () => {
      fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
      fake.stub(SCANS, { json: { codeScans: [{ scanId: 'scan-1', ...scan }], totalCount: 1 } });
      const r = await gate(['--scan-id', 'scan-1']);
      expect(r.code, r.stdout).toBe(8);
      expect(r.stdout).not.toMatch(/PASSED/);
    });
  }
});

describe('the rules are documented where users look', () => {
  it('svc gate --help gives the exit code of each rule; docs/security.md lists them', async () => {
    const r = await runCli(['gate', '--help']);
    expect(r.stdout).toContain('What the gate does not trust (docs/security.md, the table of checks)');
    expect(r.stdout).toMatch(/8 {2}a scan whose status and finished-flags disagree/);
    expect(r.stdout).toContain('--counts wide');
    const doc = readFileSync(new URL('../../docs/security.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('## What svc does not trust in an answer'), doc.indexOf('## Cases that depend on the machine'));
    for (const rule of ['a status other than 200', 'a key given twice', 'categoryCounts', 'status svc does not know', 'from 0 to 100', 'without a zone is read as UTC', 'scan record without an id', 'finished-flags disagree', '`--counts wide`', 'inferred', '7 hex digits', 'svc/unknown', 'leaves the repository', 'dangling or looping symlink', 'hard links', '16 MiB', 'exit 9 in every format', 'exit 4 naming']) {
      expect(section, rule).toContain(rule);
    }
  });
});

describe('a proven FAIL stands (issue 33): a breaking issue read in scope is exit 1, whatever a later page does', () => {
  const paged = (later: (page: number) => Json | { status: number; json?: unknown }) => (req: { body: { page: number } }) => {
    const page = req.body.page;
    if (page === 1) return { json: answer([issue({ id: 'iss-1', score: 95 })], { totalCount: 3, totalCountAllCategories: 5, categoryCounts: { open: 3, patched: 2, falsePositive: 0, archived: 0, processing: 0, silenced: 0, closed: 0 }, pageSize: 1 }) };
    return later(page);
  };
  for (const [what, later, says] of [
    ['a 206 on page 2', () => ({ status: 206, json: {} }), 'HTTP 206, not 200'],
    ['a 503 on page 2 (after the retries)', () => ({ status: 503, json: { error: 'down' } }), 'HTTP 503'],
    ['a count that changes on page 2', (page: number) => ({ json: answer([issue({ id: `iss-${page}` })], { totalCount: 4, pageSize: 1 }) }), 'the listing changed while it was read'],
  ] as const) {
    it(`${what}: FAILED, the summary says the listing was incomplete`, async () => {
      fake.stub(SEARCH, paged(later as never) as never);
      const r = await gate(['--page-size', '1', '--concurrency', '1', '--retries', '0']);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toMatch(/svc gate: FAILED/);
      expect(r.stdout).toMatch(new RegExp(`The listing was incomplete \\(.*${says}`));
      // What was read, of the total page 1 gave.
      expect(r.stdout).toMatch(/read \d+ of 3 \(totalCount\)/);
      expect(r.stderr).toMatch(/gate failed: .*on the issues read: the listing was incomplete/);
      // Without the breaking issue: no verdict (exit 7 or 6), never PASSED.
      fake.stub(SEARCH, ((req: { body: { page: number } }) => (req.body.page === 1 ? { json: answer([issue()], { totalCount: 3, totalCountAllCategories: 5, categoryCounts: { open: 3, patched: 2, falsePositive: 0, archived: 0, processing: 0, silenced: 0, closed: 0 }, pageSize: 1 }) } : (later as (p: number) => unknown)(req.body.page))) as never);
      const p = await gate(['--page-size', '1', '--concurrency', '1', '--retries', '0']);
      expect([6, 7]).toContain(p.code);
      expect(p.stdout).not.toMatch(/PASSED/);
    });
  }
});
