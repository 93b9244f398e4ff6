/** The registry of the gate's report formats: the options, the writing (decided or not) and what the tally keeps come from its rows. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { REPORT_KEYS, kindOf, reportsKeep, type ReportPaths } from '../../../../src/gate/reports/registry.js';
import { gateCommand } from '../../../../src/commands/gate/command.js';
import { evaluateGate } from '../../../../src/gate/tally.js';
import type { GateVerdict } from '../../../../src/gate/verdict.js';
import { tempDir } from '../../../helpers/temp.js';
import { useFakeServer } from '../../../helpers/fake-server.js';
import { runCli } from '../../../helpers/host.js';
import { writeErrorReports, writeReports } from '../../../../src/commands/gate/write-reports.js';

const verdict: GateVerdict = {
  result: evaluateGate([{ id: 'iss_1', score: 95, affectedFile: 'a.ts', startLine: 3 }, { id: 'iss_2', score: 20 }], { failOn: 'high' }),
  scope: { types: ['open'] },
  verified: { unverifiedFilters: [] },
  fetched: 2,
  totalCount: 2,
};

describe('REPORT_KINDS', () => {
  it("`svc gate` has one <file> option per row, with the row's help, stored under the row's key; an old spelling is a hidden option of its own", () => {
    const cmd = gateCommand(async () => {}, new Command('gate'));
    for (const key of REPORT_KEYS) {
      const kind = kindOf(key);
      const option = cmd.options.find((o) => o.long === kind.flag);
      expect(option?.flags, kind.flag).toBe(`${kind.flag} <file>`);
      expect(option?.description).toBe(kind.description);
      expect(option?.attributeName(), kind.flag).toBe(key);
      expect(option?.hidden).toBe(false);
      if (kind.oldFlag) {
        const old = cmd.options.find((o) => o.long === kind.oldFlag);
        expect(old?.hidden, kind.oldFlag).toBe(true);
        expect(old?.attributeName()).toBe(`${key}ByOldFlag`);
      }
    }
    expect(REPORT_KEYS.filter((k) => kindOf(k).oldFlag).map((k) => [kindOf(k).flag, kindOf(k).oldFlag])).toEqual([['--gitlab-sast', '--hostb-sast']]);
  });

  it('the tally keeps every issue when a listing report is asked for, and the sifted ones when a report lists them', () => {
    expect(reportsKeep({})).toEqual({ everyIssue: false, siftedIssues: false });
    expect(reportsKeep({ markdown: 'm.md' })).toEqual({ everyIssue: false, siftedIssues: false });
    expect(reportsKeep({ junit: 'j.xml', markdown: 'm.md' })).toEqual({ everyIssue: true, siftedIssues: false });
    expect(reportsKeep({ sarif: 's.sarif' })).toEqual({ everyIssue: true, siftedIssues: true });
    for (const key of REPORT_KEYS) {
      expect(reportsKeep({ [key]: 'x' }), key).toEqual({ everyIssue: kindOf(key).everyIssue, siftedIssues: kindOf(key).siftedIssues });
    }
  });

  it('writes each report asked for, in table order, and says so', async () => {
    const dir = tempDir('svc-report-kinds-');
    const paths: ReportPaths = Object.fromEntries(REPORT_KEYS.map((k) => [k, join(dir, k)]));
    const notes: string[] = [];
    await writeReports(paths, verdict, { version: '1.2.3', startedAt: 0, endedAt: 1000, stdout: process.stdout, note: (l) => notes.push(l) });
    expect(notes).toHaveLength(REPORT_KEYS.length);
    REPORT_KEYS.forEach((key, i) => {
      expect(readFileSync(paths[key]!, 'utf8'), key).toBe(kindOf(key).text(verdict, { version: '1.2.3', startedAt: 0, endedAt: 1000 }));
      expect(notes[i]).toContain(paths[key]);
    });
    expect(JSON.parse(readFileSync(paths.sarif!, 'utf8')).runs[0].tool.driver.version).toBe('1.2.3');
    expect(JSON.parse(readFileSync(paths.jsonReport!, 'utf8'))).toMatchObject({ passed: false, decided: true });
  });

  it('when the gate cannot decide, writes only the formats that can say so (never an empty SARIF or GitLab report)', async () => {
    const dir = tempDir('svc-report-kinds-');
    const paths: ReportPaths = Object.fromEntries(REPORT_KEYS.map((k) => [k, join(dir, k)]));
    await writeErrorReports(paths, 'network down', 6);
    for (const key of REPORT_KEYS) expect(existsSync(paths[key]!), key).toBe(kindOf(key).undecided !== undefined);
    expect(REPORT_KEYS.filter((k) => kindOf(k).undecided === undefined)).toEqual(['sarif', 'sast', 'codeQuality']);
    expect(JSON.parse(readFileSync(paths.jsonReport!, 'utf8'))).toEqual({ passed: false, decided: false, exitCode: 6, error: 'network down' });
    expect(readFileSync(paths.markdown!, 'utf8')).toContain('network down');
  });

  it('a report that fails while it is written (EIO) is returned, not thrown; its earlier file is removed and the others are written', async () => {
    const dir = tempDir('svc-report-kinds-');
    const paths: ReportPaths = { junit: join(dir, 'j.xml'), markdown: join(dir, 'm.md') };
    writeFileSync(paths.junit!, '<testsuites tests="0"/>');
    // The JUnit writer reads every issue; the disk fails as it does.
    const failing: GateVerdict = { ...verdict, result: { ...verdict.result, get issues(): never { throw Object.assign(new Error('i/o error'), { code: 'EIO' }); } } };
    const notes: string[] = [];
    const failed = await writeReports(paths, failing, { version: '1', startedAt: 0, endedAt: 1, stdout: process.stdout, note: (l) => notes.push(l) });
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ exitCode: 9, removed: true });
    expect(failed[0].message).toBe(`cannot write the --junit report to ${paths.junit} (EIO); removed the earlier file there`);
    expect(existsSync(paths.junit!)).toBe(false);
    expect(readFileSync(paths.markdown!, 'utf8')).toContain('svc gate');
    expect(notes).toEqual([`wrote the markdown summary ${paths.markdown}`]);
  });
});

describe('a FAIL proven on an incomplete listing', () => {
  const fake = useFakeServer();
  const issue = (id: string, score: number) => ({ id, status: 'open', score, generatedTitle: 'SQL injection', vulnClass: 'SQL Injection', affectedFile: 'src/a.ts', startLine: 3, repositoryId: 'repo-1', createdAt: '2026-11-20T10:00:00Z' });
  const counts = { open: 3, patched: 0, falsePositive: 0, archived: 0, processing: 0, silenced: 0, closed: 0 };

  it("writes no SARIF, GitLab SAST or Code Quality report (their host would take the issues not read as fixed), removes an earlier run's, and keeps exit 1", async () => {
    // Page 1 holds a breaking issue; page 2 cannot be read: the FAIL stands on the issues read.
    fake.stub('/api/v1/issues/search', ((req: { body: { page: number } }) => req.body.page === 1
      ? { json: { issues: [issue('iss-1', 95)], totalCount: 3, totalCountAllCategories: 3, categoryCounts: counts, currentPage: 1, pageSize: 1 } }
      : { status: 503, json: { error: 'down' } }) as never);
    const dir = tempDir('svc-incomplete-');
    const p = (name: string) => join(dir, name);
    writeFileSync(p('sast.json'), '{"earlier":true}');
    writeFileSync(p('cq.json'), '[]');
    writeFileSync(p('s.sarif'), '{"earlier":true}');
    const r = await runCli(['gate', '--fail-on', 'high', '--page-size', '1', '--concurrency', '1', '--retries', '0', '--sarif', p('s.sarif'),
      '--gitlab-sast', p('sast.json'), '--code-quality', p('cq.json'), '--json-report', p('r.json'), '--junit', p('j.xml')], { env: fake.env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/gate failed: .*the listing was incomplete/);
    expect(existsSync(p('sast.json'))).toBe(false);
    expect(existsSync(p('cq.json'))).toBe(false);
    // GitHub code scanning closes an alert an upload lacks: no SARIF either (the example uploads one only when written).
    expect(existsSync(p('s.sarif'))).toBe(false);
    expect(r.stderr).toMatch(/not written: --sarif .*s\.sarif, --gitlab-sast .*sast\.json, --code-quality .*cq\.json: the listing was incomplete/);
    // The reports that say what was read, and that the listing was incomplete, are written.
    expect(JSON.parse(readFileSync(p('r.json'), 'utf8')).incomplete).toMatch(/503/);
    expect(readFileSync(p('j.xml'), 'utf8')).toContain('<failure');
  });

  it('says nothing of what a SARIF report holds when none was written (the issues read are of two repositories)', async () => {
    const two = [issue('iss-1', 95), { ...issue('iss-2', 95), repositoryId: 'repo-2' }];
    fake.stub('/api/v1/issues/search', ((req: { body: { page: number } }) => req.body.page === 1
      ? { json: { issues: two, totalCount: 3, totalCountAllCategories: 3, categoryCounts: counts, currentPage: 1, pageSize: 2 } }
      : { status: 503, json: { error: 'down' } }) as never);
    const p = (name: string) => join(tempDir('svc-incomplete-'), name);
    const r = await runCli(['gate', '--fail-on', 'high', '--page-size', '2', '--concurrency', '1', '--retries', '0', '--sarif', p('s.sarif')], { env: fake.env });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stderr).toMatch(/not written: --sarif /);
    expect(r.stderr).not.toMatch(/the SARIF report holds issues of/);
  });

  it('the notice of annotations left out names the reports written, not the SARIF file that was not', async () => {
    const many = Array.from({ length: 12 }, (_, n) => ({ ...issue(`iss-${n}`, 95), startLine: n + 1 }));
    fake.stub('/api/v1/issues/search', ((req: { body: { page: number } }) => req.body.page === 1
      ? { json: { issues: many, totalCount: 13, totalCountAllCategories: 13, categoryCounts: { ...counts, open: 13 }, currentPage: 1, pageSize: 12 } }
      : { status: 503, json: { error: 'down' } }) as never);
    const dir = tempDir('svc-incomplete-notice-');
    const r = await runCli(['gate', '--fail-on', 'high', '--page-size', '12', '--concurrency', '1', '--retries', '0',
      '--sarif', join(dir, 's.sarif'), '--json-report', join(dir, 'r.json')], { env: { ...fake.env, GITHUB_ACTIONS: 'true' } });
    expect(r.code, r.stderr).toBe(1);
    const notice = r.stdout.split('\n').find((l) => l.startsWith('::notice title=svc gate::'));
    expect(notice, r.stdout).toContain('the full list: --json-report');
    expect(notice).not.toContain('--sarif');
  });
});
