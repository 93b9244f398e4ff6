/**
 * Search by what the gate uses (issue 24, item 7): `issues search --min-score`, `--level` and
 * `--created-after` are filtered by svc (the search has no score or date filter), on one page and
 * with --all, in every format; the service's unfiltered totals are never shown as the count of what
 * is; bad values are exit 2 before any request.
 */
import { describe, expect, it } from 'vitest';
import { MockAgent } from 'undici';
import { useSandbox } from '../../helpers/sandbox.js';
import { runCli } from '../../helpers/host.js';
import { levelOf } from '../../../src/operations/levels.js';

const sb = useSandbox({ issues: 120 });

interface Issue { id: string; score: number; createdAt: string }

/** Lines of stderr as a terminal shows them: a spinner's frames overwritten (each redraw starts at column 1). */
// eslint-disable-next-line no-control-regex
const shown = (text: string) => text.split('\n').map((l) => l.split('\u001b[1G').at(-1)!.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''));

describe('issues search --min-score / --level / --created-after', () => {
  it('one page at 80 columns: the rows of the page that match, a note that svc filtered it, no unfiltered total', async () => {
    const page = await sb.runJson<{ issues: Issue[]; totalCount: number }>(['issues', 'search', '--page-size', '20', '--sort-by', 'createdAt']);
    const want = page.issues.filter((i) => i.score >= 70);
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(page.issues.length);
    const r = await sb.run(['issues', 'search', '--page-size', '20', '--sort-by', 'createdAt', '--level', 'high', '--columns', 'id,score'], { tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    const ids = r.stdout.split('\n').map((l) => /iss_\w+/.exec(l)?.[0]).filter(Boolean);
    expect(ids).toEqual(want.map((i) => i.id));
    // One short note (issue 36.6: it took five lines at 80 columns), saying how many pages are left.
    const note = r.stderr.replace(/\s+/g, ' ');
    const pages = Math.ceil(page.totalCount / 20) - 1;
    expect(note).toContain(`note: --level high (filtered by svc): ${want.length} of page 1's 20 issues; ${pages} more pages (--all reads them)`);
    expect(shown(r.stderr).filter((l) => l.startsWith('note:') || l.startsWith('  '))).toHaveLength(2);
    expect(note).not.toMatch(/Showing \d+ of/);
    expect(shown(r.stderr).filter((l) => l.length > 80)).toEqual([]);

    const json = await sb.run(['issues', 'search', '--page-size', '20', '--sort-by', 'createdAt', '--level', 'high', '-o', 'json']);
    const data = JSON.parse(json.stdout) as Record<string, unknown>;
    expect((data.issues as Issue[]).map((i) => i.id)).toEqual(want.map((i) => i.id));
    // The service's totals count unfiltered issues: left out rather than shown as the count of these.
    expect(data).not.toHaveProperty('totalCount');
    expect(data).not.toHaveProperty('categoryCounts');
    expect(data.currentPage).toBe(1);
    // In a pipe the note is one line.
    expect(json.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('--level is the gate\'s: that level and above by its cut-offs; --min-score is the score itself', async () => {
    const all = (await sb.run(['issues', 'search', '--all', '-o', 'ndjson'])).stdout.trim().split('\n').map((l) => JSON.parse(l) as Issue);
    for (const level of ['critical', 'medium'] as const) {
      const r = await sb.run(['issues', 'search', '--all', '--level', level, '-o', 'ndjson']);
      expect(r.code, r.stderr).toBe(0);
      const atLeast = level === 'critical' ? ['critical'] : ['critical', 'high', 'medium'];
      expect(r.stdout.trim().split('\n').map((l) => (JSON.parse(l) as Issue).id)).toEqual(all.filter((i) => atLeast.includes(levelOf(i.score))).map((i) => i.id));
    }
    const r = await sb.run(['issues', 'search', '--all', '--min-score', '55.5', '-o', 'csv', '--columns', 'id,score']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n').slice(1).map((l) => l.split(',')[0])).toEqual(all.filter((i) => i.score >= 55.5).map((i) => i.id));
  });

  it('--all with small pages: every page read, only matches written (JSON, NDJSON, CSV, table), a note of how many', async () => {
    const all = (await sb.run(['issues', 'search', '--all', '-o', 'ndjson'])).stdout.trim().split('\n').map((l) => JSON.parse(l) as Issue);
    const sorted = [...all].sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const cut = sorted[Math.floor(sorted.length / 2)].createdAt.slice(0, 10);
    const want = all.filter((i) => Date.parse(i.createdAt) > Date.parse(cut) && i.score >= 40).map((i) => i.id);
    expect(want.length).toBeGreaterThan(3);
    const args = ['issues', 'search', '--all', '--page-size', '20', '--created-after', cut, '--level', 'medium'];
    const json = await sb.run([...args, '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    expect((JSON.parse(json.stdout) as Issue[]).map((i) => i.id)).toEqual(want);
    expect(json.stderr).toContain(`note: --level medium --created-after ${cut} (filtered by svc): ${want.length} of the ${all.length} issues read`);
    const ndjson = await sb.run([...args, '-o', 'ndjson']);
    expect(ndjson.stdout.trim().split('\n').map((l) => (JSON.parse(l) as Issue).id)).toEqual(want);
    const csv = await sb.run([...args, '-o', 'csv', '--columns', 'id']);
    expect(csv.stdout.trim().split('\n')).toEqual(['id', ...want]);
    const table = await sb.run([...args, '--columns', 'id,level'], { tty: true, columns: 80 });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n').map((l) => /iss_\w+/.exec(l)?.[0]).filter(Boolean)).toEqual(want);
    expect(shown(table.stderr).filter((l) => l.length > 80)).toEqual([]);
    expect(shown(table.stderr).join(' ').replace(/\s+/g, ' ')).toContain(`${want.length} of the ${all.length} issues read`);
    // A duration back from now works too.
    const recent = await sb.run(['issues', 'search', '--all', '--created-after', '36500d', '-o', 'ndjson']);
    expect(recent.stdout.trim().split('\n')).toHaveLength(all.length);
  });

  it('--dry-run sends no filter it cannot express, and says so', async () => {
    const r = await sb.run(['issues', 'search', '--level', 'high', '--min-score', '75', '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).body).toEqual({});
    expect(r.stderr).toContain('note: --min-score 75 --level high is not sent: svc filters the answer itself');
  });
});

describe('bad values are exit 2 before any request', () => {
  it.each([
    [['--min-score', 'abc'], "--min-score expects a number from 0 to 100, got 'abc'"],
    [['--min-score', '101'], "--min-score expects a number from 0 to 100, got '101'"],
    [['--level', 'urgent'], '--level: unknown level "urgent" (expected one of critical, high, medium, low, info)'],
    [['--created-after', '2026-13-01'], "--created-after: '2026-13-01' is not a calendar date"],
    [['--created-after', '0d'], "--created-after: '0d' is not a positive duration"],
    [['--created-after', 'yesterday'], "--created-after expects a date (2026-11-01), a date-time with a zone (2026-11-01T12:00:00Z) or a duration (90m, 12h, 7d, 2w), got 'yesterday'"],
    [['--created-after', '2999-01-01'], "--created-after '2999-01-01' is in the future: every issue would be left out"],
  ])('%j', async (flags, message) => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const env = { SVC_BASE_URL: 'https://api.svc.test', SVC_API_TOKEN_ID: 'tid_1', SVC_API_TOKEN_SECRET: 'secret-1' };
    const r = await runCli(['issues', 'search', '--all', ...flags], { env, dispatcher: agent, columns: 80 });
    await agent.close();
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`svc: error: ${message}\n`);
  });
});
