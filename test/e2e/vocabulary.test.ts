/**
 * One vocabulary and one truth (issue 36.6), in-process against the sandbox, in a pipe unless said:
 * --columns takes any field the answer has; the words people bring (--severity, --limit) lead
 * somewhere; "open" counts the same in every stats operation.
 */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

describe('--columns takes any field the answer has (it refused fields -o json shows)', () => {
  it('repos list --columns id,source and --columns createdAt: the answer\'s own fields, table, CSV and JSON', async () => {
    const repos = await sb.runJson<Array<{ id: string; source: string; createdAt: string }>>(['repos', 'list']);
    expect(repos[0].source).toBeTruthy();
    const csv = await sb.run(['repos', 'list', '--columns', 'id,source', '-o', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe(['id,source', ...repos.map((r) => `${r.id},${r.source}`)].join('\n') + '\n');
    const table = await sb.run(['repos', 'list', '--columns', 'createdAt', '-o', 'table']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[0]).toBe('CREATED');
    const json = await sb.runJson<Array<Record<string, unknown>>>(['repos', 'list', '--columns', 'id,createdAt']);
    expect(json).toEqual(repos.map((r) => ({ id: r.id, createdAt: r.createdAt })));
  });

  it('with --all too (the columns are checked on page 1)', async () => {
    const r = await sb.run(['scans', 'list', '--all', '--page-size', '10', '--columns', 'scanId,createdAt', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe('scanId,createdAt');
    expect(r.stdout.split('\n')[1]).toMatch(/^scan_\w+,\d{4}-\d{2}-\d{2}T/);
  });

  it('a name no field has is still exit 2 with the nearest, nothing on stdout; a change checks before it is made', async () => {
    const r = await sb.run(['repos', 'list', '--columns', 'id,sourse']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^svc: error: unknown column 'sourse' for repos list \(did you mean 'source'\?\)/);
    const all = await sb.run(['scans', 'list', '--all', '--columns', 'scanId,nope', '-o', 'csv']);
    expect(all.code).toBe(2);
    expect(all.stdout).toBe('');
    const open = await sb.runJson<{ issues: Array<{ id: string; status: string }> }>(['issues', 'search', '--types', 'open', '--page-size', '1']);
    const change = await sb.run(['issues', 'archive', open.issues[0].id, '--columns', 'nope']);
    expect(change.code).toBe(2);
    expect((await sb.runJson<{ status: string }>(['issues', 'get', open.issues[0].id])).status).toBe('open');
  });
});

describe('the words people bring', () => {
  it('--severity high suggests --level', async () => {
    const r = await sb.run(['issues', 'search', '--severity', 'high']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown option '--severity' for 'svc issues search' \(did you mean --level or --severities-min\?\)/);
  });

  it('stats top-issues --limit N: the N highest-scoring; too few sent is said; a bad N is exit 2 before sending', async () => {
    const all = await sb.runJson<Array<{ id: string; score: number }>>(['stats', 'top-issues']);
    const three = await sb.run(['stats', 'top-issues', '--limit', '3', '-o', 'json']);
    expect(three.code, three.stderr).toBe(0);
    expect((JSON.parse(three.stdout) as Array<{ id: string }>).map((i) => i.id)).toEqual([...all].sort((a, b) => b.score - a.score).slice(0, 3).map((i) => i.id));
    const many = await sb.run(['stats', 'top-issues', '--limit', String(all.length + 5), '-o', 'json']);
    expect(JSON.parse(many.stdout)).toHaveLength(all.length);
    expect(many.stderr).toContain(`note: the service sent ${all.length}, fewer than --limit ${all.length + 5}`);
    const bad = await sb.run(['stats', 'top-issues', '--limit', '0', '--verbose']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).not.toContain('POST');
  });
});

describe('"open" means one thing across stats: the status open', () => {
  it('the posture series\' last point, issues-by-severity, -by-repository, the summary and the search agree', async () => {
    const summary = await sb.runJson<{ issues: { open: number; processing: number } }>(['stats', 'summary']);
    // The sandbox has issues in processing: they are not open anywhere.
    expect(summary.issues.processing).toBeGreaterThan(0);
    const search = await sb.runJson<{ totalCount: number }>(['issues', 'search', '--types', 'open', '--page-size', '1']);
    const severity = await sb.runJson<{ total: number }>(['stats', 'issues-by-severity']);
    const byRepo = await sb.runJson<{ total: number }>(['stats', 'issues-by-repository']);
    const posture = await sb.runJson<{ series: Array<{ total: number }> }>(['stats', 'security-posture']);
    const counts = { summary: summary.issues.open, search: search.totalCount, severity: severity.total, byRepo: byRepo.total, posture: posture.series.at(-1)!.total };
    expect(new Set(Object.values(counts)).size, JSON.stringify(counts)).toBe(1);
  });
});
