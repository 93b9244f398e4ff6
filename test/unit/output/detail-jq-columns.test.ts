/** Detail views, --columns (one parser, checked against the schema, projecting JSON) and --jq. */
import { describe, expect, it } from 'vitest';
import { detailView } from '../../../src/output/detail.js';
import { parseColumns, resolveColumns } from '../../../src/output/columns.js';
import { projectData, render } from '../../../src/output/render.js';
import { checkJq, jqText, jqValues } from '../../../src/output/jq.js';
import { fieldPaths, rowSchema } from '../../../src/operations/fields.js';
import { issues } from '../../../src/operations/issues.js';
import { repositories } from '../../../src/operations/repositories.js';
import { stats } from '../../../src/operations/stats.js';
import { scans } from '../../../src/operations/scans.js';
import { UsageError } from '../../../src/core/errors.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const ESC = '\u001b';
const op = (list: typeof issues, name: string) => list.find((o) => o.name === name)!;

const issue = {
  id: 'iss_67bbf9d1', generatedTitle: 'SQL injection in getUserById', score: 97, severity: 9.2, status: 'open',
  repositoryName: 'payments-api', repositoryId: 'repo_73870c2d', affectedFile: 'lib/upload.js', startLine: 49, endLine: 56,
  vulnClass: 'SQL Injection', cwes: ['CWE-89'], generatedDescription: 'The value of `file` reaches a query without validation.',
  sastCodeSegment: 'function getUserById(req) {\n\tdb.query("SELECT " + req.id);\n}', createdAt: '2026-05-29T12:00:00Z',
  patch: { prLink: 'https://hosta.example/team/api/pull/9', pullRequestStatus: 'OPEN', gitDiff: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new' },
};

describe('detail views (declared by the row)', () => {
  const view = op(issues, 'get').detail!;

  it('a value the service sent is quoted in a next step\'s command: it pastes as one word, never as shell syntax', async () => {
    const hostile = { id: 'sched_1', repositoryId: 'repo_1 $(touch /tmp/x)', executionCriteriaCrontab: '0 3 * * 1', timezone: "UTC; rm -rf ~ #", isEnabled: true };
    const text = await detailView(hostile, op(scans, 'get-schedule').detail!, { color: false, pretty: true, now: NOW, width: 400 });
    const cmd = text.split('\n').find((l) => l.includes('$ svc scans upsert-schedule'))!;
    expect(cmd).toContain("upsert-schedule 'repo_1 $(touch /tmp/x)' --execution-criteria-crontab");
    expect(cmd).toContain("--timezone 'UTC; rm -rf ~ #' --is-enabled");
    const plain = await detailView({ ...hostile, repositoryId: 'repo_73870c2d', timezone: 'America/New_York' }, op(scans, 'get-schedule').detail!, { color: false, pretty: true, now: NOW, width: 400 });
    expect(plain).toContain("$ svc scans upsert-schedule repo_73870c2d --execution-criteria-crontab '0 3 * * 1' --timezone America/New_York --is-enabled");
  });

  it('get-schedule\'s upsert-schedule hint keeps the schedule as it is: its crontab, its --timezone, enabled or not; never a guessed UTC (issue 36.6)', async () => {
    const schedule = op(scans, 'get-schedule').detail!;
    const hint = async (record: Record<string, unknown>) => (await detailView(record, schedule, { color: false, pretty: true, now: NOW, width: 400 })).split('\n').find((l) => l.includes('$ svc scans upsert-schedule'))!.trim();
    expect(await hint({ repoId: 'repo_1', executionCriteriaCrontab: '30 1 * * 1-5', timezone: 'Asia/Tokyo', isEnabled: false }))
      .toBe("$ svc scans upsert-schedule repo_1 --execution-criteria-crontab '30 1 * * 1-5' --timezone Asia/Tokyo --no-is-enabled");
    // The spec's record names no time zone: the hint keeps --timezone, with ZONE (refused until a zone is put there), not UTC.
    const spec = await hint({ repoId: 'repo_1', executionCriteriaCrontab: '0 2 * * *', isEnabled: true });
    expect(spec).toBe("$ svc scans upsert-schedule repo_1 --execution-criteria-crontab '0 2 * * *' --timezone ZONE --is-enabled");
    expect(spec).not.toContain('UTC');
  });

  it('next steps fit the width: texts wrap, a long command continues with ` \\` and pastes the same', async () => {
    const schedule = { id: 'sched_1', repositoryId: 'repo_73870c2d', executionCriteriaCrontab: '30 1 * * 1-5', timezone: 'America/New_York', isEnabled: true };
    const severity = { ok: true };
    for (const [record, v, request] of [
      [schedule, op(scans, 'get-schedule').detail!, undefined],
      [severity, op(issues, 'update-severity').detail!, { issueId: 'iss_adddc17e', severity: 5 }],
    ] as const) {
      const narrow = await detailView(record, v, { color: false, pretty: true, now: NOW, width: 80, request });
      const wide = await detailView(record, v, { color: false, pretty: true, now: NOW, width: 400, request });
      expect(narrow.split('\n').filter((l) => l.length > 80), narrow).toEqual([]);
      const next = (t: string) => t.slice(t.indexOf('Next:')).replace(/ \\\n +/g, ' ').replace(/\n  (?![ $])/g, ' ');
      expect(next(narrow)).toBe(next(wide));
    }
  });

  it('an issue: title, level and score, status, repository, location, CWE links, texts, patch, PR, next step', async () => {
    const text = await detailView(issue, view, { color: false, pretty: true, now: NOW, width: 80 });
    const lines = text.split('\n');
    expect(lines[0]).toBe('SQL injection in getUserById');
    for (const line of ['ID          iss_67bbf9d1', 'Level       critical (score 97, severity 9.2)', 'Status      open',
      'Repository  payments-api (repo_73870c2d)', 'Location    lib/upload.js:49-56', 'CWE         CWE-89  https://cwe.mitre.org/data/definitions/89.html',
      'Found       3 days ago (2026-05-29T12:00:00Z)', 'PR          https://hosta.example/team/api/pull/9', '  +new', '  -old',
      '      db.query("SELECT " + req.id);', '    $ svc issues approve-patch iss_67bbf9d1']) {
      expect(lines).toContain(line);
    }
    expect(text).toMatch(/\nDescription\n  The value of `file` reaches/);
    expect(text).not.toContain(ESC);
    expect(lines.every((l) => l.length <= 80)).toBe(true);
  });

  it('a severity sent as text is shown on the Level line as it came, as a numeric one is', async () => {
    // It was left out: only a number made "(score 97, severity 9.2)".
    for (const [severity, said] of [['8.5', 'severity 8.5'], [' 9 ', 'severity 9'], ['High', 'severity High']] as const) {
      const text = await detailView({ ...issue, severity }, view, { color: false, pretty: true, now: NOW, width: 80 });
      expect(text.split('\n')).toContain(`Level       critical (score 97, ${said})`);
    }
    for (const severity of ['', null, { n: 1 }]) {
      const text = await detailView({ ...issue, severity }, view, { color: false, pretty: true, now: NOW, width: 80 });
      expect(text.split('\n')).toContain('Level       critical (score 97)');
    }
  });

  it('colours the level, the status and the diff only with colour on', async () => {
    const text = await detailView(issue, view, { color: true, pretty: true, now: NOW });
    expect(text).toContain(`${ESC}[31m${ESC}[1mcritical`);
    expect(text).toContain(`${ESC}[32m+new`);
    expect(text).toContain(`${ESC}[31m-old`);
  });

  it('an issue without a patch suggests asking for one; hostile text is cleaned', async () => {
    const text = await detailView({ ...issue, patch: null, generatedTitle: `x${ESC}]0;pwned\u0007y` }, view, { color: false, pretty: false, now: NOW });
    expect(text).toContain('$ svc issues generate-patch iss_67bbf9d1');
    expect(text).not.toContain('approve-patch');
    expect(text.split('\n')[0]).toBe('xy');
    expect(text).toContain('2026-05-29T12:00:00Z');
  });

  it('approve-patch shows the PR link and what to do next, from the response and the request', async () => {
    const text = await detailView({ ok: true, patchId: 'patch_1', pullRequestStatus: 'OPEN', prLink: 'https://hosta.example/pr/1' }, op(issues, 'approve-patch').detail!,
      { color: false, pretty: false, now: NOW, request: { issueId: 'iss_1' } });
    expect(text).toContain('Patch approved.');
    expect(text).toContain('PR         https://hosta.example/pr/1');
    expect(text).toContain('Issue      iss_1');
    expect(text).toContain('$ svc issues get iss_1');
  });

  it('an action says it was done, unless the service answered ok: false', async () => {
    const archive = op(issues, 'archive').detail!;
    const o = { color: false, pretty: false, now: NOW, request: { issueId: 'iss_9' } };
    expect(await detailView({ ok: true }, archive, o)).toBe('Issue archived.\n\nIssue  iss_9\n\nNext:\n  See the issue:\n    $ svc issues get iss_9\n');
    expect(await detailView({ ok: false }, archive, o)).toMatch(/^The service answered ok: false: the action may not have been done\.\n/);
  });

  it('stats security-posture shows the exposure, the series and the risk scores, not only the rows', async () => {
    const posture = (stats as typeof issues).find((o) => o.name === 'securityPosture')!;
    const data = {
      timeGranularity: 'week', exposure: { oldestCriticalAge: 448, oldestHighAge: 1 },
      series: [{ date: '2026-11-15', critical: 3, high: 5, medium: 0, low: 1, info: 0, total: 9 }],
      repositoryRiskScores: [{ id: 'repo_1', name: 'api', riskScore: 80, criticalIssues: 3, highIssues: 5, mediumIssues: 0, lowIssues: 1 }],
    };
    const out: string[] = [];
    await render(data, { format: 'table', columns: posture.columns, rowsPath: posture.rows, pretty: false, color: false, detail: posture.detail, width: 80 }, { out: (t) => out.push(t), note: () => {} });
    const text = out.join('');
    expect(text).toMatch(/\nOldest critical +448 days\n/);
    expect(text).toMatch(/\nOldest high +1 day\n/);
    // The series is a chart (one stacked bar a period), ending with the change over the range.
    expect(text).toMatch(/\nOpen issues over time\n  2026-11-15  █+▓+░+ +9\n/);
    expect(text).toContain('  One period (2026-11-15): no change to show.');
    expect(text).toMatch(/\nRepositories by risk\n  ID +NAME +RISK SCORE +CRITICAL +HIGH +MEDIUM +LOW\n  repo_1 +api +80/);
    // Scripts still get the rows: ndjson is one risk score a line.
    out.length = 0;
    await render(data, { format: 'ndjson', columns: [], rowsPath: posture.rows, pretty: false, color: false, detail: posture.detail }, { out: (t) => out.push(t), note: () => {} });
    expect(out.join('')).toBe(`${JSON.stringify(data.repositoryRiskScores[0])}\n`);
  });

  it('a list of one repository renders as its detail view; of two, as a table', async () => {
    const list = op(repositories as typeof issues, 'list');
    const repo = { id: 'repo_1', name: 'api', defaultScanTargetBranch: 'main', isPrScanningEnabled: true, issueCounts: { open: 3, patched: 1 } };
    const out: string[] = [];
    const o = { format: 'table' as const, columns: list.columns, pretty: false, color: false, detail: list.detail, now: NOW };
    await render([repo], o, { out: (t) => out.push(t), note: () => {} });
    expect(out.join('')).toMatch(/\nIssues +open 3, patched 1\n/);
    expect(out.join('')).toContain('$ svc issues search --repository-ids repo_1 --types open');
    out.length = 0;
    await render([repo, { ...repo, id: 'repo_2' }], o, { out: (t) => out.push(t), note: () => {} });
    expect(out.join('').split('\n')[0].split(/\s{2,}/)).toEqual(['ID', 'NAME', 'BRANCH', 'PR SCANS', 'OPEN', 'PATCHED']);
  });
});

describe('--columns', () => {
  it('one parser: dot paths, empty names refused', () => {
    expect(parseColumns(' id , issueCounts.open ')).toEqual(['id', 'issueCounts.open']);
    expect(() => parseColumns('a,,b')).toThrow(UsageError);
    expect(() => parseColumns('')).toThrow('--columns is empty');
    expect(() => parseColumns('a..b')).toThrow(UsageError);
  });

  it('an unknown name for a schema that declares its fields is exit 2 with the nearest and a short list', () => {
    const search = op(issues, 'search');
    const valid = fieldPaths(rowSchema(search.response, search.rows))!;
    expect(valid).toContain('score');
    expect(valid).toContain('patch.prLink');
    expect(resolveColumns(['id', 'patch.prLink', 'cwes'], valid, 'issues search')).toEqual(['id', 'patch.prLink', 'cwes']);
    let err: UsageError | undefined;
    try { resolveColumns(['id', 'scroe'], valid, 'issues search', search.columns); } catch (e) { err = e as UsageError; }
    expect(err).toBeInstanceOf(UsageError);
    expect(err!.exitCode).toBe(2);
    expect(err!.message).toBe("unknown column 'scroe' for issues search (did you mean 'score'?)");
    // Short enough to read at 80 columns: the default columns by the names people type first.
    expect(err!.hint).toMatch(/^columns: id, level, score, status, class, repository, file, line, title, .*\(any field of -o json, nested with dots\)$/);
    expect(err!.hint!.length).toBeLessThan(240);
    // A list response (repos list) and its nested counts.
    const repos = op(repositories as typeof issues, 'list');
    expect(fieldPaths(rowSchema(repos.response, repos.rows))).toContain('issueCounts.open');
  });

  it('a schema that declares no fields takes any path', () => {
    const s = (stats as typeof issues).find((o) => o.name === 'issuesByRepository')!;
    expect(fieldPaths(rowSchema(s.response, s.rows))).toBeUndefined();
    expect(resolveColumns(['anything.at.all'], undefined, 'stats issues-by-repository')).toEqual(['anything.at.all']);
  });

  it('cuts JSON rows down to the columns, nesting kept, missing values null', () => {
    const data = { issues: [{ id: 'a', score: 1, issueCounts: { open: 2, patched: 0 }, x: 1 }], totalCount: 1 };
    expect(projectData(data, { rowsPath: 'issues', columns: ['id', 'issueCounts.open', 'nope'] }))
      .toEqual({ issues: [{ id: 'a', issueCounts: { open: 2 }, nope: null }], totalCount: 1 });
    expect(projectData([{ id: 'a', b: 1 }], { columns: ['id'] })).toEqual([{ id: 'a' }]);
  });
});

describe('--jq', () => {
  const data = { issues: [{ id: 'iss_1', score: 9 }, { id: 'iss_2', score: 3 }], totalCount: 2 };

  it('is jq: strings raw one per line, other values as JSON', async () => {
    expect(jqText(await jqValues(data, '.issues[].id'), false)).toBe('iss_1\niss_2\n');
    expect(jqText(await jqValues(data, '[.issues[] | select(.score > 5) | .id]'), false)).toBe('["iss_1"]\n');
    expect(jqText(await jqValues(data, '.totalCount'), false)).toBe('2\n');
    expect(jqText(await jqValues(data, '.issues | map({id}) | first'), true)).toBe('{\n  "id": "iss_1"\n}\n');
  });

  it('a bad expression is exit 2 with jq\'s message, before anything is sent', async () => {
    const err = await checkJq('.issues[] |||').catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.exitCode).toBe(2);
    // Positions are the user's own: the column in their text and what stands there.
    expect(err.message).toBe("--jq '.issues[] |||': syntax error, unexpected '|' at column 12: '||'");
    const early = await checkJq('.issues[').catch((e) => e);
    expect(early.message).toBe("--jq '.issues[': syntax error, the expression ends too early (an unclosed (, [ or {, or nothing after a |)");
    // With --all the expression runs on each item: one that starts from the page's list is exit 2,
    // naming the per-item form.
    const perItem = { perItem: { items: 'issues', example: '.id' } };
    const page = await checkJq('.issues[].id', perItem).catch((e) => e);
    expect(page).toBeInstanceOf(UsageError);
    expect(page.message).toBe("--jq '.issues[].id' with --all: the expression runs on each item (one of .issues), not on the page");
    expect(page.hint).toBe("use the per-item form: --jq '.id'");
    expect((await checkJq('.issues[] | select(.score > 5) | .id', perItem).catch((e) => e)).hint).toBe("use the per-item form: --jq 'select(.score > 5) | .id'");
    await expect(checkJq('.id', perItem)).resolves.toBeUndefined();
    // A field of the page under --all would print null for every item: exit 2, saying to drop --all.
    const counts = { perItem: { items: 'issues', example: '.id', pageFields: ['totalCount', 'categoryCounts'] } };
    const total = await checkJq('.totalCount', counts).catch((e) => e);
    expect(total).toBeInstanceOf(UsageError);
    expect(total.message).toBe("--jq '.totalCount' with --all: the expression runs on each item, and .totalCount is a field of the page, not of an item");
    expect(total.hint).toBe("drop --all to read it from one page: --jq '.totalCount'");
    expect((await checkJq('.categoryCounts.open', counts).catch((e) => e)).message).toMatch(/\.categoryCounts is a field of the page/);
    await expect(checkJq('.totalCountX', counts)).resolves.toBeUndefined();
    await expect(checkJq('.id', counts)).resolves.toBeUndefined();
    await expect(checkJq('.issues[].id')).resolves.toBeUndefined();
    // A run-time error on the real data is exit 2 too.
    await expect(jqValues(data, '.issues[].id.x')).rejects.toThrow(/Cannot index string/);
  });

  it('render: -o json --jq filters the (projected) data; ndjson filters each row', async () => {
    const out: string[] = [];
    const sink = { out: (t: string) => out.push(t), note: () => {} };
    await render(data, { format: 'json', columns: ['id'], project: true, rowsPath: 'issues', pretty: false, color: false, jq: '.issues' }, sink);
    expect(out.join('')).toBe('[{"id":"iss_1"},{"id":"iss_2"}]\n');
    out.length = 0;
    await render(data, { format: 'ndjson', columns: [], rowsPath: 'issues', pretty: false, color: false, jq: '.score' }, sink);
    expect(out.join('')).toBe('9\n3\n');
  });
});
