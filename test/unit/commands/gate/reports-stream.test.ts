/**
 * Reports written in pieces (a row's `chunks`, json-stream.ts) are the same bytes as the
 * whole-string writer (its `text`), for a verdict of many issues with a baseline and a policy, and
 * through writeReports to a file and to stdout.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { REPORT_KEYS, kindOf, type ReportInputs } from '../../../../src/gate/reports/registry.js';
import { evaluateGate, type GateIssue, type IssueInput } from '../../../../src/gate/tally.js';
import type { GateVerdict } from '../../../../src/gate/verdict.js';
import { LazyList } from '../../../../src/core/json-stream.js';
import { toSarif } from '../../../../src/gate/reports/sarif.js';
import { verdictData } from '../../../../src/gate/verdict.js';
import { tempDir } from '../../../helpers/temp.js';
import { writeReports } from '../../../../src/commands/gate/write-reports.js';

function issues(n: number): IssueInput[] {
  const classes = ['sqli', 'xss', 'Path Traversal', 'ssrf', undefined];
  return Array.from({ length: n }, (_, i) => ({
    id: `iss_${i}`,
    score: (i * 37) % 101,
    vulnClass: classes[i % 5],
    cwes: i % 3 ? [`CWE-${79 + (i % 4)}`] : [],
    affectedFile: i % 11 ? `src/dir ${i % 7}/file-${i}.ts` : undefined,
    startLine: i % 13 ? i : undefined,
    generatedTitle: `Title "${i}" with <xml> & ünïcode\n`,
    generatedDescription: i % 2 ? `Line one\nline two ${'x'.repeat(i % 50)}` : undefined,
    repositoryId: `repo_${i % 2}`,
    fingerprint: `svcfp1:${i.toString(16).padStart(32, '0')}`,
    createdAt: '2026-01-01T00:00:00Z',
  }));
}

const result = evaluateGate(issues(600), { failOn: 'high', max: { medium: 3 } });
const extra = evaluateGate(issues(40).map((i) => ({ ...i, id: `old_${i.id}` })), {}).issues;
const verdict: GateVerdict = {
  result,
  sifted: {
    outOfScope: 2, undated: 1, uncommitted: 0,
    unchangedCount: 20, unchanged: extra.slice(0, 20),
    suppressedCount: 20, suppressed: extra.slice(20).map((i) => ({ ...i, suppression: { reason: 'accepted risk', expires: '2027-01-01', source: 'p.yml:3' } })) as Array<GateIssue & { suppression: { reason: string; expires: string; source: string } }>,
    expired: [],
    elsewhere: [],
    baseline: { file: 'base.sarif', kind: 'sarif', entries: 20 },
    policy: { file: '.svc-policy.yml', entries: 20 },
  },
  scope: { types: ['open'], organizationId: 'org_1' },
  verified: { organization: 'org_1', unverifiedFilters: [] },
  fetched: 600,
  totalCount: 600,
};
const inputs: ReportInputs = { version: '1.2.3', startedAt: Date.UTC(2026, 0, 1), endedAt: Date.UTC(2026, 0, 1, 0, 1), issueUrl: (id) => `https://example.test/i/${id}` };

describe('reports written in pieces', () => {
  const streamed = REPORT_KEYS.filter((k) => kindOf(k).chunks);

  it('the JSON reports (SARIF, JSON report, host B SAST, Code Quality) have a streaming writer', () => {
    expect(streamed).toEqual(expect.arrayContaining(['sarif', 'jsonReport', 'hostbSast', 'codeQuality']));
  });

  it.each(REPORT_KEYS.filter((k) => kindOf(k).chunks))('%s: the pieces are the whole-string text, byte for byte, in many pieces', (key) => {
    const kind = kindOf(key);
    const pieces = [...kind.chunks!(verdict, inputs)];
    expect(pieces.length).toBeGreaterThan(500);
    expect(pieces.join('')).toBe(kind.text(verdict, inputs));
  });

  it('writeReports writes the streamed reports to files and to stdout with the same bytes as the text', async () => {
    const dir = tempDir('svc-report-stream-');
    const paths = Object.fromEntries(streamed.map((k) => [k, join(dir, k)]));
    const notes: string[] = [];
    const stdout = new PassThrough();
    await writeReports(paths, verdict, { ...inputs, stdout, note: (l) => notes.push(l) });
    for (const key of streamed) expect(readFileSync(paths[key], 'utf8'), key).toBe(kindOf(key).text(verdict, inputs));
    expect(notes).toHaveLength(streamed.length);
    const out: Buffer[] = [];
    stdout.on('data', (d: Buffer) => out.push(d));
    await writeReports({ sarif: '-' }, verdict, { ...inputs, stdout, note: () => {} });
    expect(Buffer.concat(out).toString('utf8')).toBe(kindOf('sarif').text(verdict, inputs));
  });

  it('the SARIF results and the JSON report issues are made while written, not before', () => {
    expect(toSarif(result, { toolName: 'svc', lazyList: (make) => new LazyList(make) as never }).runs[0].results).toBeInstanceOf(LazyList);
    const data = verdictData(verdict, true);
    for (const list of ['issues', 'unchanged', 'suppressed']) expect(data[list], list).toBeInstanceOf(LazyList);
    expect(JSON.stringify(data)).toBe(JSON.stringify(verdictData(verdict)));
  });
});
