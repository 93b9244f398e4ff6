/**
 * A test per row of the one table of answer checks (src/answers/checks.ts, issue 33): the plausible
 * answer a real service could give (shown with a warning, or decided) and the lie (refused where it
 * could mislead). Every row has its cases here (the first test says so), and each case runs the CLI
 * in-process against scripted answers.
 */
import { describe, expect, it } from 'vitest';
import { useFakeServer } from '../helpers/fake-server.js';
import { runCli } from '../helpers/host.js';
import { checkIds, checkTable, type AnswerCheck, type CheckId } from '../../src/answers/checks.js';

const fake = useFakeServer({ mock: true });
const SEARCH = '/api/v1/issues/search';
const REPOS = '/api/v1/repositories/list';
const ORGS = '/api/v1/orgs/list';
const SCANS = '/api/v1/scans/list';

type Json = Record<string, unknown>;
const issue = (over: Json = {}): Json => ({
  id: 'iss-1', status: 'open', score: 5, repositoryId: 'repo-1', generatedTitle: 'Weak hash', vulnClass: 'Weak Crypto',
  createdAt: '2026-11-20T10:00:00Z', codeScan: { id: 'scan-1', scanTargetBranchCommitSha: 'abcdef0123456789' }, ...over,
});
const OPEN_ONLY = { open: 0, patched: 0, falsePositive: 0, archived: 0, processing: 0, silenced: 0, closed: 0 };
/** A search answer whose counts agree with its issues (all open). */
const answer = (issues: Json[], over: Json = {}): Json => ({
  issues, totalCount: issues.length, totalCountAllCategories: issues.length,
  categoryCounts: { ...OPEN_ONLY, open: issues.length }, currentPage: 1, pageSize: 500, ...over,
});
const svc = (args: string[], env: Record<string, string> = {}) => runCli(args, { env: { ...fake.env, ...env }, dispatcher: fake.dispatcher });
const gate = (args: string[] = [], env: Record<string, string> = {}) => svc(['gate', '--fail-on', 'high', ...args], env);
/** The warning lines of a run's stderr. */
const warnings = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('warning: '));

/** Exit 0, the data on stdout, and one warning line naming the row's doubt and `says`. */
function shownWithWarning(r: Awaited<ReturnType<typeof svc>>, id: CheckId, says: string | RegExp): void {
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).not.toBe('');
  const lines = warnings(r.stderr).filter((l) => l.includes(`[${id}, `));
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(says);
}

/** Exit `code`, nothing on stdout, the error naming `says`. */
function refused(r: Awaited<ReturnType<typeof svc>>, says: string | RegExp, code = 7): void {
  expect(r.code, r.stderr + r.stdout).toBe(code);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(says);
}

/** --all: exit 7 naming `says`; the pages written before it are never presented as the whole listing (no closing `]`). */
function allRefused(r: Awaited<ReturnType<typeof svc>>, says: string | RegExp): void {
  expect(r.code, r.stderr).toBe(7);
  expect(r.stdout.trimEnd().endsWith(']')).toBe(false);
  expect(r.stderr).toMatch(says);
}

interface Case { plausible?: () => Promise<void>; lie?: () => Promise<void> }

const CASES: Record<CheckId, Case> = {
  'status': {
    async lie() {
      fake.stub(SEARCH, { status: 206, json: answer([issue()]) });
      refused(await svc(['issues', 'search', '-o', 'json']), 'HTTP 206, not 200');
      refused(await gate(), 'HTTP 206, not 200');
    },
  },
  'not-json': {
    async lie() {
      fake.stub(SEARCH, { text: '<html>Sign in</html>', type: 'text/html' });
      refused(await svc(['issues', 'search', '-o', 'json']), 'not valid JSON');
    },
  },
  'top-level': {
    async lie() {
      fake.stub(SEARCH, { json: [] });
      refused(await svc(['issues', 'search', '-o', 'json']), 'does not have the documented shape');
      fake.stub(ORGS, { json: { organizations: [] } });
      refused(await svc(['orgs', 'list', '-o', 'json']), 'does not have the documented shape');
    },
  },
  'too-deep': {
    async lie() {
      fake.stub(SEARCH, { text: `{"issues":[],"totalCount":0,"x":${'['.repeat(1200)}${']'.repeat(1200)}}`, type: 'application/json' });
      refused(await svc(['issues', 'search', '-o', 'json']), 'nested too deeply');
    },
  },
  'key-twice': {
    async lie() {
      const text = JSON.stringify(answer([issue({ score: 95 })])).replace('"score":95', '"score":95,"score":5');
      fake.stub(SEARCH, { text, type: 'application/json' });
      refused(await gate(), /'(issues\.)?score' twice with two values/);
      refused(await svc(['issues', 'search', '-o', 'json']), /'(issues\.)?score' twice with two values/);
    },
  },
  'key-repeated': {
    async plausible() {
      const text = JSON.stringify(answer([issue()])).replace('"totalCount":1', '"totalCount":1,"totalCount":1');
      fake.stub(SEARCH, { text, type: 'application/json' });
      shownWithWarning(await svc(['issues', 'search', '-o', 'json']), 'key-repeated', "'totalCount' twice, the same value each time");
      expect((await gate()).code).toBe(0);
    },
  },
  'error-beside-data': {
    async plausible() {
      // An empty error beside complete data says there is none: no doubt at all.
      for (const none of ['', 0, '0', {}, null, false]) {
        fake.stub(SEARCH, { json: { ...answer([issue()]), error: none } });
        const clean = await svc(['issues', 'search', '-o', 'json']);
        expect([clean.code, warnings(clean.stderr)]).toEqual([0, []]);
        expect((await gate()).code).toBe(0);
      }
      fake.stub(SEARCH, { json: { ...answer([issue()]), error: 'index degraded' } });
      shownWithWarning(await svc(['issues', 'search', '-o', 'json']), 'error-beside-data', 'index degraded');
    },
    async lie() {
      fake.stub(SEARCH, { json: { ...answer([issue()]), error: 'partial results, shard 3 down' } });
      refused(await gate(), /gate: no PASS: .*partial results, shard 3 down/);
      // A breaking issue read beside it: the FAIL stands.
      fake.stub(SEARCH, { json: { ...answer([issue({ score: 95 })]), errors: [{ message: 'shard 3 down' }] } });
      const r = await gate();
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toMatch(/FAILED[\s\S]*shard 3 down/);
    },
  },
  'shape': {
    async plausible() {
      fake.stub(REPOS, { json: [{ id: 'repo-1', projectId: 'p', name: 'a', defaultScanTargetBranch: 'main', isPrScanningEnabled: true, isPrScanSummaryEnabled: true, isVulnInfoInPRComment: true, showCheckStatus: true, validationThreshold: 1, validationThresholdName: 'High' }] });
      shownWithWarning(await svc(['repos', 'list', '-o', 'json']), 'shape', /0\.url expected a string/);
      // The gate: a field its reports show, of another type, is a warning (it said nothing); decided.
      fake.stub(SEARCH, { json: answer([issue({ generatedTitle: 5, startLine: '10' })]) });
      const r = await gate();
      expect(r.code, r.stderr).toBe(0);
      const said = warnings(r.stderr).filter((l) => l.includes('[shape, '));
      expect(said.join('\n')).toContain("issue 'iss-1': generatedTitle is 5, not a string");
      expect(said.join('\n')).toContain("startLine is \"10\", not a whole number");
    },
  },
  'ok-unreadable': {
    async lie() {
      fake.stub('/api/v1/issues/archive', { json: {} });
      refused(await svc(['issues', 'archive', 'iss-1', '--yes', '-o', 'json']), "the answer's ok is missing, so whether it was done is unknown");
    },
  },
  'items-key': {
    async plausible() {
      fake.stub(SCANS, { json: { scans: [{ scanId: 'scan-1', status: 'completed' }], totalCount: 1 } });
      shownWithWarning(await svc(['scans', 'list', '-o', 'json']), 'items-key', "no 'codeScans' list");
      // The table and CSV show the scans read there (the table was the answer as one record of headers).
      const csv = await svc(['scans', 'list', '-o', 'csv', '--columns', 'scanId,status']);
      expect(csv.stdout.trim().split('\n')).toEqual(['scanId,status', 'scan-1,completed']);
      const table = await svc(['scans', 'list', '-o', 'table']);
      expect(table.stdout).toMatch(/^SCAN .*STATUS.*\nscan-1 +.*completed/);
      const all = await svc(['scans', 'list', '--all', '-o', 'ndjson']);
      expect(all.code, all.stderr).toBe(0);
      expect(JSON.parse(all.stdout.trim()).scanId).toBe('scan-1');
      expect(all.stderr).toContain("its one list, 'scans', is read as the items");
    },
    async lie() {
      fake.stub(SCANS, { json: { totalCount: 1 } });
      allRefused(await svc(['scans', 'list', '--all', '-o', 'ndjson']), "no 'codeScans' list");
    },
  },
  'items-null': {
    async plausible() {
      for (const empty of [{ issues: null }, {}]) {
        fake.stub(SEARCH, { json: { ...answer([]), issues: undefined, ...empty } });
        shownWithWarning(await svc(['issues', 'search', '-o', 'json']), 'items-null', "'issues' is");
        const r = await gate();
        expect(r.code, r.stderr).toBe(0);
        expect(r.stderr).toContain('[items-null, ');
      }
    },
    async lie() {
      fake.stub(SEARCH, { json: { ...answer([]), issues: null, totalCount: 3 } });
      refused(await svc(['issues', 'search', '-o', 'json']), "no 'issues' list");
      refused(await gate(), "no 'issues' list");
    },
  },
  'no-total': {
    async plausible() {
      fake.stub(SEARCH, { json: { issues: [issue()] } });
      const r = await svc(['issues', 'search', '--all', '-o', 'ndjson']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('the service reported no totalCount: pages are read until a short one');
      // One page: shown, with a warning (it was silent).
      for (const total of [undefined, null]) {
        fake.stub(SEARCH, { json: { issues: [issue()], totalCount: total } });
        shownWithWarning(await svc(['issues', 'search', '-o', 'json']), 'no-total', 'the answer has no totalCount: how many match is not known');
      }
    },
    async lie() {
      fake.stub(SEARCH, { json: { issues: [issue()] } });
      refused(await gate(), /gate: no PASS: the service reported no totalCount/);
      fake.stub(SEARCH, { json: { issues: [issue({ score: 95 })] } });
      expect((await gate()).code).toBe(1);
    },
  },
  'past-total': {
    async plausible() {
      // A service that caps at 2 a page and gives the page's count as totalCount: 3 issues exist.
      const capped = (req: { body: Json }) => {
        const all = [issue(), issue({ id: 'iss-2' }), issue({ id: 'iss-3' })];
        const at = ((req.body.page as number) - 1) * 2;
        const items = all.slice(at, at + 2);
        return { json: { issues: items, totalCount: items.length, pageSize: 2 } };
      };
      fake.stub(SEARCH, capped);
      const r = await svc(['issues', 'search', '--all', '-o', 'ndjson']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual(['iss-1', 'iss-2', 'iss-3']);
      expect(r.stderr).toContain('page 2 holds 1 more item after the 2 that totalCount gives');
      // A total that holds (the page after a full last page is empty): one request more, no warning.
      const two = answer([issue(), issue({ id: 'iss-2' })]);
      fake.stub(SEARCH, (req) => ({ json: { ...two, issues: req.body.page === 1 ? two.issues : [], currentPage: req.body.page } }));
      const before = fake.requests.length;
      const whole = await svc(['issues', 'search', '--all', '--page-size', '2', '-o', 'ndjson']);
      expect(whole.code, whole.stderr).toBe(0);
      expect(whole.stderr).toBe('');
      expect(fake.requests.slice(before).filter((q) => q.path === SEARCH).map((q) => q.body.page)).toEqual([1, 2]);
      // A service that answers past its last page with the last page again: the total holds, and
      // nothing is said (it was id-twice, "the order shifted").
      fake.stub(SEARCH, { json: answer([issue(), issue({ id: 'iss-2' })]) });
      const clamped = await gate();
      expect([clamped.code, warnings(clamped.stderr)]).toEqual([0, []]);
      const all = await svc(['issues', 'search', '--all', '-o', 'ndjson']);
      expect([all.code, all.stderr, all.stdout.trim().split('\n').length]).toEqual([0, '', 2]);
    },
    async lie() {
      // The page's own count as the total, 5 a page (asked for 5): the breaking issue is on page 2.
      const paged = (score: number) => (req: { body: Json }) => {
        const all = [0, 1, 2, 3, 4, 5].map((n) => issue({ id: `iss-${n}`, score: n === 5 ? score : 5 }));
        const at = ((req.body.page as number) - 1) * 5;
        const items = all.slice(at, at + 5);
        return { json: answer(items, { totalCount: items.length, pageSize: 5 }) };
      };
      fake.stub(SEARCH, paged(95));
      const failed = await gate(['--page-size', '5']);
      expect(failed.code, failed.stderr).toBe(1);
      fake.stub(SEARCH, paged(5));
      refused(await gate(['--page-size', '5']), /gate: no PASS: page 2 holds 1 more item after the 5 that totalCount gives/);
      // A cap the answer does not state (no pageSize), 2 of the 3 a page, totalCount the page's count:
      // the page is not full at the size asked (500), and the gate passed on it, the breaking one unread.
      const silent = (score: number) => (req: { body: Json }) => {
        const all = [issue(), issue({ id: 'iss-2' }), issue({ id: 'iss-3', score })];
        const at = ((req.body.page as number) - 1) * 2;
        const items = all.slice(at, at + 2);
        return { json: answer(items, { totalCount: items.length, pageSize: undefined }) };
      };
      fake.stub(SEARCH, silent(95));
      expect((await gate()).code).toBe(1);
      fake.stub(SEARCH, silent(5));
      refused(await gate(), /gate: no PASS: page 2 holds 1 more item after the 2 that totalCount gives/);
    },
  },
  'no-counts': {
    async plausible() {
      // One page needs none; several pages with a breaking issue read: the FAIL stands.
      fake.stub(SEARCH, { json: { issues: [issue()], totalCount: 1 } });
      expect((await gate()).code).toBe(0);
      fake.stub(SEARCH, (req) => ({ json: { issues: [issue({ id: `iss-${req.body.page}`, score: req.body.page === 2 ? 95 : 5 })], totalCount: 2 } }));
      expect((await gate(['--page-size', '1'])).code).toBe(1);
    },
    async lie() {
      fake.stub(SEARCH, (req) => ({ json: { issues: [issue({ id: `iss-${req.body.page}` })], totalCount: 2 } }));
      refused(await gate(['--page-size', '1']), /no PASS: the service reported no totalCountAllCategories nor categoryCounts beside totalCount/);
    },
  },
  'counts-above-total': {
    async plausible() {
      // Counts over a wider scope than the page's filters (issue 33's first answer).
      const wide = (issues: Json[]) => answer(issues, { totalCount: 2, totalCountAllCategories: 25, categoryCounts: { open: 15, patched: 5, falsePositive: 3, archived: 1, processing: 1, silenced: 0, closed: 0 } });
      fake.stub(SEARCH, { json: wide([issue(), issue({ id: 'iss-2' })]) });
      shownWithWarning(await svc(['issues', 'search', '--types', 'open', '--get-counts', '-o', 'json']), 'counts-above-total', 'totalCount is 2 but categoryCounts gives 15 open issues');
      // The gate: exit 7 naming both counts and the setting; the setting decides; a breaking issue FAILs.
      const r = await gate();
      refused(r, /gate: no PASS: totalCount is 2 but categoryCounts gives 15 open issues/);
      expect(r.stderr).toMatch(/--counts wide, or counts: wide in \.svc-policy\.yml/);
      const set = await gate(['--counts', 'wide', '-o', 'json']);
      expect(set.code, set.stderr).toBe(0);
      expect(JSON.parse(set.stdout).categoryCounts).toEqual({ scope: 'wide', from: '--counts' });
      fake.stub(SEARCH, { json: wide([issue(), issue({ id: 'iss-2', score: 95 })]) });
      expect((await gate()).code).toBe(1);
    },
    async lie() {
      // Without a total: counts above the issues read.
      fake.stub(SEARCH, { json: { issues: [issue()], categoryCounts: { ...OPEN_ONLY, open: 15 } } });
      refused(await gate(), /categoryCounts gives 15 open issues but the listing holds 1/);
    },
  },
  'counts-below-total': {
    async plausible() {
      fake.stub(SEARCH, { json: answer([issue(), issue({ id: 'iss-2' })], { categoryCounts: { ...OPEN_ONLY, open: 1 } }) });
      const r = await gate();
      expect(r.code, r.stderr).toBe(0);
      expect(warnings(r.stderr).join()).toContain('totalCount is 2 but categoryCounts gives 1 open issue');
    },
  },
  'count-absent': {
    async plausible() {
      fake.stub(SEARCH, { json: answer([], { categoryCounts: { patched: 5 }, totalCountAllCategories: 5 }) });
      const r = await gate();
      expect(r.code, r.stderr).toBe(0);
      expect(warnings(r.stderr).join()).toContain('categoryCounts gives no open (asked for with types), read as 0');
    },
  },
  'count-unreadable': {
    async plausible() {
      fake.stub(SEARCH, { json: answer([issue()], { totalCountAllCategories: '25' }) });
      shownWithWarning(await svc(['issues', 'search', '-o', 'json']), 'count-unreadable', "totalCountAllCategories is '25', not a whole number");
    },
  },
  'all-below-total': {
    async plausible() {
      fake.stub(SEARCH, { json: answer([issue()], { totalCountAllCategories: 0 }) });
      shownWithWarning(await svc(['issues', 'search', '-o', 'json']), 'all-below-total', 'totalCountAllCategories 0 (issues of every status) is smaller than totalCount 1');
      expect((await gate()).code).toBe(0);
    },
  },
  'over-total': {
    async plausible() {
      fake.stub(SEARCH, { json: answer([issue(), issue({ id: 'iss-2' })], { totalCount: 1, categoryCounts: undefined }) });
      shownWithWarning(await svc(['issues', 'search', '-o', 'json']), 'over-total', 'it lists 2 issues but totalCount is 1');
    },
    async lie() {
      fake.stub(SEARCH, { json: answer([issue(), issue({ id: 'iss-2' })], { totalCount: 1, categoryCounts: undefined }) });
      allRefused(await svc(['issues', 'search', '--all', '-o', 'ndjson']), 'it lists 2 issues but totalCount is 1');
    },
  },
  'over-page-size': {
    async plausible() {
      // (An answer whose pageSize gives its length is a service paging by its own size: page-size-capped.)
      fake.stub(SEARCH, { json: answer([issue(), issue({ id: 'iss-2' })], { pageSize: undefined }) });
      shownWithWarning(await svc(['issues', 'search', '--page-size', '1', '-o', 'json']), 'over-page-size', 'it lists 2 issues on a page of 1');
    },
    async lie() {
      fake.stub(SEARCH, { json: answer([issue(), issue({ id: 'iss-2' })], { totalCount: 3, pageSize: undefined }) });
      allRefused(await svc(['issues', 'search', '--all', '--page-size', '1', '-o', 'ndjson']), 'it lists 2 issues on a page of 1');
    },
  },
  'current-page': {
    async plausible() {
      fake.stub(SEARCH, { json: answer([issue()], { currentPage: 0 }) });
      shownWithWarning(await svc(['issues', 'search', '-o', 'json']), 'current-page', 'page 1 was asked for, it says currentPage 0');
      expect((await gate()).code).toBe(0);
    },
  },
  'page-size-capped': {
    async plausible() {
      fake.stub(SEARCH, (req) => ({ json: { issues: [issue({ id: `iss-${req.body.page}` })], totalCount: 2, pageSize: 1 } }));
      const r = await svc(['issues', 'search', '--all', '--page-size', '5', '-o', 'ndjson']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout.trim().split('\n')).toHaveLength(2);
      expect(r.stderr).toContain('the service caps the page size at 1 (asked for 5)');
      // Without a total too: page 1 full at the pageSize it states is not the last (it ended there).
      fake.stub(SEARCH, (req) => ({ json: { issues: (req.body.page as number) <= 2 ? [issue({ id: `iss-${req.body.page}` })] : [], pageSize: 1 } }));
      const noTotal = await svc(['issues', 'search', '--all', '--page-size', '5', '-o', 'ndjson']);
      expect(noTotal.code, noTotal.stderr).toBe(0);
      expect(noTotal.stdout.trim().split('\n')).toHaveLength(2);
      expect(noTotal.stderr).toContain('the service caps the page size at 1 (asked for 5)');
      // A service with a minimum page of 10 (5 asked), saying so: read at 10 a page, 23 issues, the
      // breaking one on page 3 (it was exit 7 "10 issues on a page of 5").
      const bigPages = (req: { body: Json }) => {
        const all = Array.from({ length: 23 }, (_, n) => issue({ id: `iss-${n}`, score: n === 22 ? 95 : 5 }));
        const at = ((req.body.page as number) - 1) * 10;
        return { json: answer(all.slice(at, at + 10), { totalCount: 23, totalCountAllCategories: 23, categoryCounts: { ...OPEN_ONLY, open: 23 }, pageSize: 10, currentPage: req.body.page }) };
      };
      fake.stub(SEARCH, bigPages);
      const all = await svc(['issues', 'search', '--all', '--page-size', '5', '-o', 'ndjson']);
      expect(all.code, all.stderr).toBe(0);
      expect(new Set(all.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).size).toBe(23);
      expect(all.stderr).toContain('the service answers pages of 10 (asked for 5)');
      expect((await gate(['--page-size', '5'])).code).toBe(1);
    },
  },
  'page-cap-unstated': {
    async plausible() {
      // A service that caps a page at 100 without saying so: 250 open issues, the gate's 500 asked,
      // `pageSize` echoing 500 (or left out), pages numbered by the cap. The breaking issue is the
      // last one, on page 3 (it was exit 7 "page 1 held 100 items, expected 250").
      const all = Array.from({ length: 250 }, (_, n) => issue({ id: `iss-${n}`, score: n === 249 ? 95 : 5 }));
      const asked: number[] = [];
      const capped = (echo: boolean) => (req: { body: Json }) => {
        asked.push(req.body.pageSize as number);
        const size = Math.min(req.body.pageSize as number, 100);
        const at = ((req.body.page as number) - 1) * size;
        const counts = { totalCount: 250, totalCountAllCategories: 250, categoryCounts: { ...OPEN_ONLY, open: 250 }, currentPage: req.body.page };
        return { json: answer(all.slice(at, at + size), echo ? { ...counts, pageSize: req.body.pageSize } : { ...counts, pageSize: undefined }) };
      };
      for (const echo of [true, false]) {
        fake.stub(SEARCH, capped(echo));
        asked.length = 0;
        const failed = await gate();
        expect(failed.code, failed.stderr).toBe(1);
        expect(asked).toEqual([500, 100, 100]);
        const said = warnings(failed.stderr).filter((l) => l.includes('[page-cap-unstated, '));
        expect(said, failed.stderr).toHaveLength(1);
        expect(said[0]).toContain('page 1 held 100 of 250 items (asked for 500 a page): the service seems to cap the page size at 100');
        const r = await svc(['issues', 'search', '--all', '--page-size', '500', '-o', 'ndjson']);
        expect(r.code, r.stderr).toBe(0);
        expect(new Set(r.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).size).toBe(250);
        expect(r.stderr).toContain('[page-cap-unstated, ');
      }
      // Without a total too: page 1 short of the 500 asked says nothing of a page 2, so page 2 is asked
      // at page 1's length. A cap: the rest read at 100 (it ended at 100 issues, silently short).
      const noTotal = (cap: number, of: Json[]) => (req: { body: Json }) => {
        asked.push(req.body.pageSize as number);
        const size = Math.min(req.body.pageSize as number, cap);
        const at = ((req.body.page as number) - 1) * size;
        return { json: { issues: of.slice(at, at + size) } };
      };
      fake.stub(SEARCH, noTotal(100, all));
      asked.length = 0;
      const whole = await svc(['issues', 'search', '--all', '--page-size', '500', '-o', 'ndjson']);
      expect(whole.code, whole.stderr).toBe(0);
      expect(new Set(whole.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).size).toBe(250);
      expect(asked).toEqual([500, 100, 100]);
      expect(whole.stderr).toContain('page 1 held 100 items (asked for 500 a page) and page 2 at 100 a page holds more');
      expect(whole.stderr).toContain('[no-total, ');
      asked.length = 0;
      expect((await gate()).code).toBe(1);
      expect(asked).toEqual([500, 100, 100]);
      // A last page, not a cap: page 2 at its length is empty, one request more and no cap said.
      fake.stub(SEARCH, noTotal(100, all.slice(0, 7)));
      asked.length = 0;
      const seven = await svc(['issues', 'search', '--all', '-o', 'ndjson']);
      expect(seven.code, seven.stderr).toBe(0);
      expect(seven.stdout.trim().split('\n')).toHaveLength(7);
      expect(asked).toEqual([500, 7]);
      expect(seven.stderr).not.toContain('page-cap-unstated');
      // Without the breaking issue the gate passes, with the warning.
      all[249] = issue({ id: 'iss-249', score: 5 });
      fake.stub(SEARCH, capped(true));
      const passed = await gate();
      expect(passed.code, passed.stderr).toBe(0);
      expect(passed.stderr).toContain('[page-cap-unstated, ');
    },
    async lie() {
      // A short page 1 that is not a cap: the service pages by the size asked and leaves some items
      // out of each page (2 of 3 on page 1). Read on at 2 a page, page 2 repeats an item of page 1's
      // window or misses one: refused, never a PASS.
      const all = Array.from({ length: 6 }, (_, n) => issue({ id: `iss-${n}` }));
      fake.stub(SEARCH, (req) => {
        const size = req.body.pageSize as number;
        const at = ((req.body.page as number) - 1) * size;
        return { json: answer(all.slice(at, at + size).filter((x) => x.id !== 'iss-1'), { totalCount: 6, totalCountAllCategories: 6, categoryCounts: { ...OPEN_ONLY, open: 6 } }) };
      });
      allRefused(await svc(['issues', 'search', '--all', '--page-size', '3', '-o', 'json']), /page \d held \d items, expected \d|came twice|fetched \d items but the service reported 6/);
      refused(await gate(['--page-size', '3']), /page \d held \d items, expected \d|came twice|fetched \d items but the service reported 6/);
    },
  },
  'total-changed': {
    async lie() {
      fake.stub(SEARCH, (req) => ({ json: { issues: [issue({ id: `iss-${req.body.page}` })], totalCount: req.body.page === 1 ? 2 : 3 } }));
      allRefused(await svc(['issues', 'search', '--all', '--page-size', '1', '-o', 'json']), 'the listing changed while it was read (totalCount was 2 on page 1, 3 on page 2)');
      // The gate: no PASS on it; but a breaking issue on the very page that changed proves the FAIL.
      refused(await gate(['--page-size', '1']), /gate: the listing changed while it was read/);
      fake.stub(SEARCH, (req) => ({ json: { issues: [issue({ id: `iss-${req.body.page}`, score: req.body.page === 2 ? 95 : 5 })], totalCount: req.body.page === 1 ? 2 : 3 } }));
      const failed = await gate(['--page-size', '1']);
      expect(failed.code, failed.stderr).toBe(1);
      expect(failed.stderr).toContain('the listing changed while it was read');
      // One page, then the page-2 read after it: a total grown since page 1 (an issue opened, maybe
      // the breaking one, unread) is no PASS, whether page 2 is empty or repeats part of page 1.
      const two = answer([issue(), issue({ id: 'iss-2' })]);
      for (const later of [[], [issue({ id: 'iss-2' })]]) {
        fake.stub(SEARCH, (req) => ({ json: req.body.page === 1 ? two : { ...two, issues: later, totalCount: 3, currentPage: req.body.page } }));
        refused(await gate(), /gate: the listing changed while it was read \(totalCount was 2 on page 1, 3 on page 2\)/);
      }
    },
    async plausible() {
      // Past the end of a one-page listing: an empty page with totalCount 0, or a 404 / 400 "page out
      // of range": the listing is whole (a 404 was exit 4 "check the id", a 400 exit 5).
      const two = answer([issue(), issue({ id: 'iss-2' })]);
      for (const past of [{ json: { ...two, issues: [], totalCount: 0 } }, { status: 404, json: { error: 'page out of range' } }, { status: 400, json: { error: 'page out of range' } }]) {
        fake.stub(SEARCH, (req) => (req.body.page === 1 ? { json: two } : past));
        const r = await gate();
        expect([r.code, warnings(r.stderr)], r.stderr).toEqual([0, []]);
        const all = await svc(['issues', 'search', '--all', '-o', 'ndjson']);
        expect([all.code, all.stderr]).toEqual([0, '']);
      }
    },
  },
  'counts-changed': {
    async lie() {
      fake.stub(SEARCH, (req) => ({ json: answer([issue({ id: `iss-${req.body.page}` })], { totalCount: 2, totalCountAllCategories: req.body.page === 1 ? 2 : 3, categoryCounts: undefined }) }));
      allRefused(await svc(['issues', 'search', '--all', '--page-size', '1', '-o', 'json']), 'totalCountAllCategories was 2 on page 1, 3 on page 2');
    },
  },
  'page-short': {
    async lie() {
      fake.stub(SEARCH, (req) => ({ json: { issues: req.body.page === 1 ? [issue(), issue({ id: 'iss-2' })] : [], totalCount: 3 } }));
      allRefused(await svc(['issues', 'search', '--all', '--page-size', '2', '-o', 'json']), 'page 2 held 0 items, expected 1');
    },
  },
  'id-twice': {
    async lie() {
      // The order shifted: page 2 starts with page 1's second item.
      const shifted = (score: number) => (req: { body: Json }) => ({ json: { issues: req.body.page === 1 ? [issue({ id: 'iss-0' }), issue({ score })] : [issue({ score }), issue({ id: 'iss-2' })], totalCount: 4 } });
      fake.stub(SEARCH, shifted(5));
      allRefused(await svc(['issues', 'search', '--all', '--page-size', '2', '-o', 'json']), "item 'iss-1' came twice (pages 1 and 2)");
      // The gate counts an issue once: the same breaking issue twice is not 2 over --max-critical 1.
      fake.stub(SEARCH, shifted(95));
      refused(await svc(['gate', '--max-critical', '1', '--page-size', '2']), "item 'iss-1' came twice (pages 1 and 2)");
      // A breaking issue new on the page that repeats another still proves the FAIL.
      fake.stub(SEARCH, (req) => ({ json: { issues: req.body.page === 1 ? [issue({ id: 'iss-0' }), issue()] : [issue(), issue({ id: 'iss-2', score: 95 })], totalCount: 4 } }));
      expect((await gate(['--page-size', '2'])).code).toBe(1);
    },
  },
  'page-repeated': {
    async lie() {
      // With a total: page 2 starts with page 1's first item (it was 'came twice: the order shifted').
      fake.stub(SEARCH, { json: { issues: [issue()], totalCount: 2 } });
      allRefused(await svc(['issues', 'search', '--all', '--page-size', '1', '-o', 'json']), "page 2 starts with the same item as page 1 ('iss-1'); the service seems to ignore 'page'");
      refused(await gate(['--page-size', '1']), "page 2 starts with the same item as page 1 ('iss-1'); the service seems to ignore 'page'");
      fake.stub(SEARCH, { json: { issues: [{ n: 1 }] } });
      allRefused(await svc(['issues', 'search', '--all', '--page-size', '1', '-o', 'json']), "page 2 starts with the same item as page 1; the service seems to ignore 'page'");
    },
  },
  'item-not-record': {
    async plausible() {
      fake.stub(SEARCH, { json: answer([issue(), 'iss-2' as unknown as Json]) });
      shownWithWarning(await svc(['issues', 'search', '-o', 'json']), 'item-not-record', 'page 1 holds an item that is not a record');
    },
    async lie() {
      fake.stub(SEARCH, { json: answer([issue(), 'iss-2' as unknown as Json]) });
      refused(await gate(), /no PASS: page 1 holds an item that is not a record/);
    },
  },
  'item-no-id': {
    async plausible() {
      fake.stub(SEARCH, { json: answer([issue({ id: '' })]) });
      shownWithWarning(await svc(['issues', 'search', '-o', 'json']), 'item-no-id', 'page 1 holds an item without a usable id');
      // Counted: a breaking issue without an id still FAILs.
      fake.stub(SEARCH, { json: answer([issue({ id: '', score: 95 })]) });
      expect((await gate()).code).toBe(1);
    },
    async lie() {
      fake.stub(SEARCH, { json: answer([issue({ id: '' })]) });
      refused(await gate(), /no PASS: page 1 holds an item without a usable id/);
    },
  },
  'item-id-field': {
    async plausible() {
      // A service naming its issues by `issueId` (the field notes' name in request bodies), not `id`.
      const named = (over: Json = {}) => { const { id, ...rest } = issue(over); return { issueId: id, ...rest }; };
      fake.stub(SEARCH, { json: answer([named(), named({ id: 'iss-2' })]) });
      const read = await svc(['issues', 'search', '-o', 'json']);
      shownWithWarning(read, 'item-id-field', "gives 'issueId' 'iss-1': read as its id");
      expect(warnings(read.stderr), read.stderr).toHaveLength(1);
      expect(JSON.parse(read.stdout).issues[0]).not.toHaveProperty('id');
      // The gate decides (it was exit 7: "an item without an id") and names the issues by it.
      const pass = await gate(['-o', 'json']);
      expect(pass.code, pass.stderr).toBe(0);
      fake.stub(SEARCH, { json: answer([named({ score: 95 }), named({ id: 'iss-2' })]) });
      const fail = await gate(['-o', 'json']);
      expect(fail.code, fail.stderr).toBe(1);
      expect((JSON.parse(fail.stdout) as { breaking: Json[] }).breaking.map((b) => b.id)).toEqual(['iss-1']);
      // --where acts on it by that id.
      fake.stub('/api/v1/issues/archive', { json: { ok: true } });
      const bulk = await svc(['issues', 'archive', '--where', 'types=open', '--yes', '-o', 'json']);
      expect(bulk.code, bulk.stderr).toBe(0);
      expect(fake.to('/api/v1/issues/archive').map((q) => q.body.issueId).sort()).toEqual(['iss-1', 'iss-2']);
      // Doubled across pages under its alias: still caught (page 1 again: page-repeated, by the alias).
      fake.stub(SEARCH, { json: { issues: [named()], totalCount: 2 } });
      allRefused(await svc(['issues', 'search', '--all', '--page-size', '1', '-o', 'json']), "page 2 starts with the same item as page 1 ('iss-1')");
    },
  },
  'item-status-other': {
    async plausible() {
      fake.stub(SEARCH, { json: answer([issue({ status: 'processing' })]) });
      shownWithWarning(await svc(['issues', 'search', '--types', 'open', '-o', 'json']), 'item-status-other', "item 'iss-1' of status 'processing', not the one asked for ('open')");
      fake.stub('/api/v1/stats/topIssues', { json: [{ id: 'iss-1', title: 't', vulnClass: 'XSS', score: 91, cwes: [], status: 'open' }] });
      shownWithWarning(await svc(['stats', 'top-issues', '--type', 'patched', '-o', 'json']), 'item-status-other', "of status 'open', not the one asked for ('patched')");
      // The gate counts it, fail closed, and names it: a processing issue of score 95 is a FAIL.
      fake.stub(SEARCH, { json: answer([issue({ status: 'processing', score: 95 })]) });
      const r = await gate();
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toMatch(/FAILED[\s\S]*iss-1[\s\S]*of status 'processing'/);
      fake.stub(SEARCH, { json: answer([issue({ status: 'processing' })]) });
      expect((await gate()).code).toBe(0);
    },
    async lie() {
      // issue 33: `issues archive --where types=open --yes` against a service that ignores `types`
      // never archives the patched issue it gets back: skipped, listed, exit 10.
      fake.stub(SEARCH, { json: answer([issue(), issue({ id: 'iss-2', status: 'patched' })]) });
      fake.stub('/api/v1/issues/archive', { json: { ok: true } });
      const r = await svc(['issues', 'archive', '--where', 'types=open', '--yes', '-o', 'json']);
      expect(r.code, r.stderr).toBe(10);
      expect(fake.to('/api/v1/issues/archive').map((q) => q.body.issueId)).toEqual(['iss-1']);
      expect(JSON.parse(r.stdout)).toMatchObject([
        { id: 'iss-1', outcome: 'done', code: 0 },
        { id: 'iss-2', outcome: 'skipped', code: 10, error: "not acted on: the search answered it outside --where (status 'patched', not 'open')" },
      ]);
      expect(r.stderr).toMatch(/1 archived, 1 skipped, outside --where .*: iss-2 \(status 'patched', not 'open'\)/);
    },
  },
  'item-filter-unshown': {
    async plausible() {
      // A read shows it (no doubt of this row), and the gate counts it as it is: a null status as open.
      fake.stub(SEARCH, { json: answer([issue({ status: null, score: 95 })]) });
      const read = await svc(['issues', 'search', '--types', 'open', '-o', 'json']);
      expect(read.code, read.stderr).toBe(0);
      expect(read.stderr).not.toContain('item-filter-unshown');
      expect((await gate()).code).toBe(1);
    },
    async lie() {
      // A service that ignores `types` and leaves `status` null (or out), or drops `repositoryId`:
      // `--where` cannot show those issues are ones it found, so it never acts on them.
      const { repositoryId: _dropped, ...noRepository } = issue({ id: 'iss-4' });
      fake.stub(SEARCH, { json: answer([issue(), issue({ id: 'iss-2', status: null }), issue({ id: 'iss-3', status: undefined }), noRepository]) });
      fake.stub('/api/v1/issues/archive', { json: { ok: true } });
      const r = await svc(['issues', 'archive', '--where', 'types=open', '--where', 'repository-ids=repo-1', '--yes', '-o', 'json']);
      expect(r.code, r.stderr).toBe(10);
      expect(fake.to('/api/v1/issues/archive').map((q) => q.body.issueId)).toEqual(['iss-1']);
      expect((JSON.parse(r.stdout) as Json[]).map((x) => [x.id, x.outcome])).toEqual([['iss-1', 'done'], ['iss-2', 'skipped'], ['iss-3', 'skipped'], ['iss-4', 'skipped']]);
      expect(r.stderr).toMatch(/iss-2 \(does not show a field --where asked about/);
    },
  },
  'item-status-unknown': {
    async plausible() {
      fake.stub(SEARCH, { json: answer([issue({ status: 'reopened', score: 95 })]) });
      shownWithWarning(await svc(['issues', 'search', '--types', 'open', '-o', 'json']), 'item-status-unknown', "of status 'reopened'");
      // Counted: of score 95 it FAILs.
      expect((await gate()).code).toBe(1);
    },
    async lie() {
      for (const status of ['оpen' /* a Cyrillic o */, 'Open', 'open\u200b', 7]) {
        fake.stub(SEARCH, { json: answer([issue({ status })]) });
        refused(await gate(), /gate: no PASS: .*iss-1.* of status/);
      }
    },
  },
  'item-status-absent': {
    async plausible() {
      fake.stub(SEARCH, { json: answer([issue({ status: undefined, score: 95 })]) });
      const r = await gate();
      expect(r.code).toBe(1);
      expect(r.stdout).toContain("issue 'iss-1' has no status: counted as open");
    },
  },
  'item-foreign': {
    async plausible() {
      fake.stub(SEARCH, { json: answer([issue(), issue({ id: 'iss-2', repositoryId: 'repo-9' })]) });
      shownWithWarning(await svc(['issues', 'search', '--repository-ids', 'repo-1', '-o', 'json']), 'item-foreign', "item 'iss-2' of repository 'repo-9'");
    },
    async lie() {
      fake.stub(REPOS, { json: [{ id: 'repo-1' }, { id: 'repo-9' }] });
      fake.stub(SEARCH, { json: answer([issue(), issue({ id: 'iss-2', repositoryId: 'repo-9', score: 95 })]) });
      // Not counted (repo-9's score 95 breaks nothing here), and no PASS.
      refused(await gate(['--repository-ids', 'repo-1']), /no PASS: page 1 holds item 'iss-2' of repository 'repo-9'/);
      // A breaking issue of the repository asked for: the FAIL stands.
      fake.stub(SEARCH, { json: answer([issue({ score: 95 }), issue({ id: 'iss-2', repositoryId: 'repo-9' })]) });
      expect((await gate(['--repository-ids', 'repo-1'])).code).toBe(1);
    },
  },
  'item-outside-scope': {
    async lie() {
      fake.stub(ORGS, { json: [{ id: 'org-1' }] });
      fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
      fake.stub(SEARCH, { json: answer([issue(), issue({ id: 'iss-2', repositoryId: 'repo-zzz' })]) });
      refused(await gate([], { SVC_ORGANIZATION_ID: 'org-1' }), /no PASS: page 1 holds issue 'iss-2' of repository 'repo-zzz', which is not a repository of organization 'org-1'/);
    },
  },
  'item-other-scan': {
    async plausible() {
      // Re-detected by scan B, it still names scan A.
      fake.stub(SEARCH, { json: answer([issue({ codeScan: { id: 'scan-A' } })]) });
      shownWithWarning(await svc(['issues', 'search', '--scan-id', 'scan-B', '-o', 'json']), 'item-other-scan', "of scan 'scan-A', not the one asked for ('scan-B')");
      fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
      fake.stub(SCANS, { json: { codeScans: [{ scanId: 'scan-B', status: 'completed', finished: true, repositoryId: 'repo-1' }], totalCount: 1 } });
      fake.stub(SEARCH, { json: answer([issue({ codeScan: { id: 'scan-A' }, score: 95 })]) });
      expect((await gate(['--scan-id', 'scan-B'])).code).toBe(1);
    },
  },
  'item-other-rule': {
    async plausible() {
      fake.stub(SEARCH, { json: answer([issue({ naturalLanguageRuleViolation: { ruleId: 'rule-2' } })]) });
      shownWithWarning(await svc(['issues', 'search', '--rule-id', 'rule-1', '-o', 'json']), 'item-other-rule', "of rule 'rule-2'");
    },
  },
  'item-other-filter': {
    async plausible() {
      // Another case is the language asked for (inference): no doubt.
      fake.stub(SEARCH, { json: answer([issue({ language: 'TypeScript' })]) });
      const same = await svc(['issues', 'search', '--languages', 'typescript', '-o', 'json']);
      expect([same.code, warnings(same.stderr)]).toEqual([0, []]);
      fake.stub(SEARCH, { json: answer([issue({ language: 'Python', severity: 3 })]) });
      shownWithWarning(await svc(['issues', 'search', '--languages', 'typescript', '-o', 'json']), 'item-other-filter', "of language 'Python'");
    },
    async lie() {
      // Never acted on by --where.
      fake.stub(SEARCH, { json: answer([issue({ severity: 8 }), issue({ id: 'iss-2', severity: 3 })]) });
      fake.stub('/api/v1/issues/archive', { json: { ok: true } });
      const r = await svc(['issues', 'archive', '--where', 'severities-min=7', '--yes', '-o', 'json']);
      expect(r.code, r.stderr).toBe(10);
      expect(fake.to('/api/v1/issues/archive').map((q) => q.body.issueId)).toEqual(['iss-1']);
    },
  },
  'score-absent': {
    async plausible() {
      fake.stub(SEARCH, { json: answer([issue({ score: undefined })]) });
      const r = await gate();
      expect(r.code).toBe(1);
      expect(r.stdout).toContain("issue 'iss-1' has no score: counted as critical");
    },
  },
  'score-unreadable': {
    async plausible() {
      // score: null beside a 95: the 95 proves the FAIL; the null is counted as critical and named (it was exit 7).
      fake.stub(SEARCH, { json: answer([issue({ score: null }), issue({ id: 'iss-2', score: 95 })]) });
      const r = await gate();
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain("issue 'iss-1' has score null, not a number from 0 to 100: counted as critical");
      // Below every threshold but critical: -5 is never info.
      fake.stub(SEARCH, { json: answer([issue({ score: -5 })]) });
      expect((await gate(['--fail-on', 'critical'])).code).toBe(1);
    },
  },
  'created-unreadable': {
    async plausible() {
      fake.stub(SEARCH, { json: answer([issue({ createdAt: '2026-11-31T10:00:00Z', score: 95 })]) });
      const r = await gate(['--new-since', '2026-11-01']);
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('createdAt "2026-11-31T10:00:00Z", not an ISO 8601 date-time: counted as new');
    },
  },
  'created-no-zone': {
    async plausible() {
      // 10:00 without a zone, the cut-off 12:00Z: 18:00Z in UTC-8, so it may be new: counted, named.
      fake.stub(SEARCH, { json: answer([issue({ createdAt: '2026-03-10T10:00:00', score: 95 })]) });
      const r = await gate(['--new-since', '2026-03-10T12:00:00Z']);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain('createdAt "2026-03-10T10:00:00" without a zone: before --new-since as UTC, after it in a zone west of UTC: counted as new');
      // 13 h before the cut-off as UTC: old in every zone (UTC-12 at most): not counted, no doubt.
      fake.stub(SEARCH, { json: answer([issue({ createdAt: '2026-03-09T23:00:00', score: 95 })]) });
      const old = await gate(['--new-since', '2026-03-10T12:00:00Z']);
      expect(old.code, old.stderr).toBe(0);
      expect(old.stdout).not.toContain('without a zone');
      // With a zone, the same time is old: not counted.
      fake.stub(SEARCH, { json: answer([issue({ createdAt: '2026-03-10T10:00:00Z', score: 95 })]) });
      expect((await gate(['--new-since', '2026-03-10T12:00:00Z'])).code).toBe(0);
    },
  },
  'severity-total': {
    async plausible() {
      fake.stub('/api/v1/stats/issuesBySeverity', { json: { severityCounts: { critical: 3, high: 0, medium: 0, low: 0, info: 0 }, total: 20 } });
      shownWithWarning(await svc(['stats', 'issues-by-severity', '--severities', 'critical', '-o', 'json']), 'severity-total', 'total is 20 but severityCounts add up to 3');
    },
  },
  'org-id-field': {
    async plausible() {
      fake.stub(ORGS, { json: [{ organizationId: 'org-1', name: 'A' }] });
      // orgs list shows it as it came, with this row's one warning (not a generic shape warning).
      const list = await svc(['orgs', 'list', '-o', 'json']);
      shownWithWarning(list, 'org-id-field', "gives 'organizationId' 'org-1': read as its id");
      expect(warnings(list.stderr), list.stderr).toHaveLength(1);
      expect(JSON.parse(list.stdout)).toEqual([{ organizationId: 'org-1', name: 'A' }]);
      // A table and CSV show the id in the ID column (it was empty).
      const table = await svc(['orgs', 'list', '-o', 'table']);
      expect(table.stdout).toMatch(/^ID +NAME +ROLE\s*\norg-1 +A\s*$/);
      const csv = await svc(['orgs', 'list', '-o', 'csv']);
      expect(csv.stdout.split('\n')[1]).toBe('org-1,A,');
      fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
      fake.stub(SEARCH, { json: answer([issue()]) });
      const r = await gate([], { SVC_ORGANIZATION_ID: 'org-1' });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('Verified to exist: organization org-1');
      expect(warnings(r.stderr).join()).toContain("gives 'organizationId' 'org-1': read as its id");
    },
  },
  'record-no-id': {
    async lie() {
      fake.stub(ORGS, { json: [{ name: 'A' }] });
      fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
      fake.stub(SEARCH, { json: answer([issue()]) });
      refused(await gate([], { SVC_ORGANIZATION_ID: 'org-1' }), /no PASS: it gives organizations without an id, so organization 'org-1' cannot be verified/);
    },
  },
  'repository-url': {
    async lie() {
      fake.stub('/api/v1/repositories/resolve-by-url', { json: { repositoryId: 'repo-1' } });
      fake.stub(REPOS, { json: [{ id: 'repo-1', url: 'https://github.com/o/b' }] });
      refused(await gate(['--repository', 'https://github.com/o/a']), "resolve-by-url gives 'repo-1' for https://github.com/o/a, but repositories list gives 'repo-1' the URL");
    },
  },
  'rule-no-count': {
    async lie() {
      fake.stub(SEARCH, { json: {} });
      refused(await gate(['--rule-id', 'rule-1']), 'gate: --rule-id: the issue search gave no count and no list');
    },
  },
  'scan-twice': {
    async lie() {
      fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
      fake.stub(SCANS, { json: { codeScans: [{ scanId: 'scan-1', status: 'completed', finished: true }, { scanId: 'scan-1', status: 'running' }], totalCount: 1 } });
      refused(await gate(['--scan-id', 'scan-1']), "scan 'scan-1' is listed 2 times");
    },
  },
  'scan-total': {
    async lie() {
      fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
      fake.stub(SCANS, { json: { codeScans: [{ scanId: 'scan-1', status: 'completed', finished: true }], totalCount: 2 } });
      refused(await gate(['--scan-id', 'scan-1']), "it gives totalCount 2 for scan 'scan-1' but holds 1 record");
    },
  },
  'scan-others': {
    async plausible() {
      fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
      fake.stub(SCANS, { json: { codeScans: [{ scanId: 'scan-1', status: 'completed', finished: true }, { scanId: 'scan-9', repositoryId: 'repo-2', status: 'running', finished: false }], totalCount: 2 } });
      fake.stub(SEARCH, { json: answer([issue()]) });
      const r = await gate(['--scan-id', 'scan-1']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain("the answer holds 1 other scan beside 'scan-1' (the scanId filter seems ignored)");
    },
  },
  'scan-no-id': {
    async lie() {
      fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
      fake.stub(SCANS, { json: { codeScans: [{ status: 'completed', finished: true }], totalCount: 1 } });
      refused(await gate(['--scan-id', 'scan-1']), "the answer holds a scan without an id, so scan 'scan-1' cannot be told from it");
    },
  },
  'scan-flags-disagree': {
    async lie() {
      fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
      fake.stub(SCANS, { json: { codeScans: [{ scanId: 'scan-1', status: 'running', finished: true }], totalCount: 1 } });
      refused(await gate(['--scan-id', 'scan-1']), "scan 'scan-1' has not finished", 8);
    },
  },
  'scan-word-done': {
    async plausible() {
      fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
      fake.stub(SCANS, { json: { codeScans: [{ scanId: 'scan-1', status: 'succeeded', finished: true }], totalCount: 1 } });
      fake.stub(SEARCH, { json: answer([issue()]) });
      const r = await gate(['--scan-id', 'scan-1']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('scan scan-1 (succeeded)');
      expect(warnings(r.stderr).join()).toContain("status 'succeeded' with the finished flags true: taken as done");
      // A common word for done without any flag: done too (inference), warned; a high issue still fails.
      fake.stub(SCANS, { json: { codeScans: [{ scanId: 'scan-1', status: 'Done' }], totalCount: 1 } });
      fake.stub(SEARCH, { json: answer([issue({ score: 95 })]) });
      const f = await gate(['--scan-id', 'scan-1']);
      expect(f.code, f.stderr).toBe(1);
      expect(warnings(f.stderr).join()).toContain("status 'Done': taken as done (inference: a common word for done)");
    },
  },
  'scan-word-unknown': {
    async lie() {
      fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
      fake.stub(SCANS, { json: { codeScans: [{ scanId: 'scan-1', status: 'exploded' }], totalCount: 1 } });
      // Exit 7 naming the word: never an exit 8 (a wait for ever) the service did not state.
      refused(await gate(['--scan-id', 'scan-1']), "status 'exploded' and no finished flag");
    },
  },
  'scan-message-done': {
    async plausible() {
      fake.stub(REPOS, { json: [{ id: 'repo-1' }] });
      fake.stub(SCANS, { json: { codeScans: [{ scanId: 'scan-1', status: 'completed', finished: true, errorMessage: '1 file skipped: too large' }], totalCount: 1 } });
      fake.stub(SEARCH, { json: answer([issue()]) });
      const r = await gate(['--scan-id', 'scan-1']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('1 file skipped: too large');
    },
  },
  'scan-started-no-id': {
    async lie() {
      fake.stub('/api/v1/scans/start', { json: {} });
      refused(await svc(['scans', 'start', '--repository-ids', 'repo-1', '--wait']), 'the response has no scanId (nor id, nor scanIds), so there is no scan to wait for');
    },
  },
  'scan-id-unusable': {
    async lie() {
      fake.stub('/api/v1/scans/start', { json: { scanId: 's1\u001b]52;c;cHduZWQ=\u0007\n::error::x' } });
      const r = await svc(['scans', 'start', '--repository-ids', 'repo-1', '--wait']);
      refused(r, "the scan id 's1\\x1b]52;c;cHduZWQ=\\x07\\n::error::x' holds a space, a control or an invisible character");
      expect(r.stderr).not.toMatch(/\u001b|\u0007/);
      fake.stub('/api/v1/scans/start', { type: 'application/json', text: '{"scanId":12345678901234567890}' });
      refused(await svc(['scans', 'start', '--repository-ids', 'repo-1', '--wait']), 'the scan id is a number svc cannot hold exactly (read as 12345678901234567000)');
      expect(fake.to('/api/v1/scans/list')).toHaveLength(0);
    },
  },
  'commit-scan-short': {
    async plausible() {
      // scan-1 of the commit (its items name no commit: found by the issue naming it) ended. Its
      // listing by scanId holds iss-2, found again (it names an older scan), not iss-1, which names it.
      fake.stub(SCANS, { json: { codeScans: [{ scanId: 'scan-1', repositoryId: 'repo-1', status: 'completed' }], totalCount: 1 } });
      const again = issue({ id: 'iss-2', codeScan: { id: 'scan-0', scanTargetBranchCommitSha: 'fedcba9876543210' } });
      fake.stub(SEARCH, (req: { body: Json }) => ({ json: answer(req.body.scanId === undefined ? [issue()] : [again]) }));
      const r = await gate(['--commit', 'abcdef0123456789']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('1 open issue names commit abcdef0123456789 that the service does not list for its scan (scan-1): both listings pass');
    },
    async lie() {
      fake.stub(SCANS, { json: { codeScans: [{ scanId: 'scan-1', repositoryId: 'repo-1', status: 'completed' }], totalCount: 1 } });
      const again = issue({ id: 'iss-2', codeScan: { id: 'scan-0', scanTargetBranchCommitSha: 'fedcba9876543210' } });
      const serve = (named: Json) => fake.stub(SEARCH, (req: { body: Json }) => ({ json: answer(req.body.scanId === undefined ? [named] : [again]) }));
      serve(issue());
      refused(await gate(['--commit', 'abcdef0123456789', '--max-total', '1']), "1 open issue names commit abcdef0123456789 that the service does not list for its scan (scan-1; first: iss-1)");
      // A FAIL of either listing stands.
      serve(issue({ score: 95 }));
      expect((await gate(['--commit', 'abcdef0123456789', '--max-total', '1'])).code).toBe(1);
    },
  },
  'commit-scan-unknown': {
    async lie() {
      fake.stub(SEARCH, { json: answer([issue()]) });
      fake.stub(SCANS, { json: { codeScans: [], totalCount: 0 } });
      refused(await gate(['--commit', 'abcdef0123456789']), "issues name scan 'scan-1' of commit abcdef0123456789, which scans list does not know");
    },
  },
};

describe('the table of answer checks', () => {
  it('every row has its cases here: a plausible answer where the row names one, its lie where it names one', () => {
    expect(Object.keys(CASES).sort()).toEqual([...checkIds()].sort());
    for (const id of checkIds()) {
      const row = checkTable()[id] as AnswerCheck;
      const c = CASES[id];
      expect(c.plausible !== undefined || c.lie !== undefined, id).toBe(true);
      if (row.plausible) expect(c.plausible, `${id}: the plausible answer it names`).toBeDefined();
      if (row.lie) expect(c.lie, `${id}: the lie it names`).toBeDefined();
    }
  });

  for (const id of checkIds()) {
    const c = CASES[id];
    describe(id, () => {
      if (c.plausible) it(`the plausible answer: ${(checkTable()[id] as AnswerCheck).plausible ?? 'decided'}`, c.plausible);
      if (c.lie) it(`the lie: ${(checkTable()[id] as AnswerCheck).lie ?? 'refused'}`, c.lie);
    });
  }
});
