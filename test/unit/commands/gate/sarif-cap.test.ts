/**
 * The platforms' limits end to end, in-process: a gate of 25,600 open issues with --sarif gives a
 * SARIF of 25,000 results (the most severe), says so on stderr, in the summaries and in the run's
 * properties; on host A's runner (its real variables) the annotations stay within 10 errors and 10
 * warnings with one notice naming the rest and where they are. The issues are served by the scripted
 * service on a MockAgent (no socket: the listing's paging, checks and retries are the gate's own and
 * are proven against real servers elsewhere); the multitool's run on a capped SARIF is in
 * test/unit/gate/reports/sarif-multitool.test.ts.
 */
import { appendFileSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../helpers/host.js';
import { makeIssue, useFakeServices, type FakeService } from '../../../helpers/fake-service.js';
import { tempDir } from '../../../helpers/temp.js';
import { bySeverity } from '../../../../src/gate/caps.js';
import { capSarif } from '../../../../src/commands/gate/sarif-cap.js';
import { sarifChunks, writeSarifReport } from '../../../../src/commands/gate/reports.js';
import { evaluateGate } from '../../../../src/gate/verdict.js';
import type { GateVerdict } from '../../../../src/commands/gate/decision.js';
import type { Level } from '../../../../src/gate/levels.js';
import { oasisRegionProblems, schemaErrors } from '../../gate/reports/sarif-schema.js';

const services = useFakeServices({ mock: true });
/**
 * A scripted service serving `n` generated open issues of one repository (scores spread over every
 * level), without the long text fields the gate drops anyway (they only cost parsing time here).
 */
async function serving(n: number): Promise<FakeService> {
  const s = await services([]);
  s.generate(n, (i) => ({ ...makeIssue(i), repositoryId: 'repo-1', repositoryName: 'acme/app', generatedDescription: `Input reaches a sensitive call (${i}).`, sastCodeSegment: undefined }));
  return s;
}
const run = (s: FakeService, argv: string[], o: { env: Record<string, string>; cwd: string }) =>
  runCli(argv, { env: { ...s.env, ...o.env }, cwd: o.cwd, dispatcher: s.dispatcher });

interface Row { id: string; level: Level; score?: number }

describe('SARIF within code scanning\'s limits', () => {
  it('a gate of 25,600 open issues writes 25,000 results, the most severe, and says how many it left out and why', async () => {
    const s = await serving(25_600);
    const dir = tempDir();
    const sarif = join(dir, 'r.sarif');
    const all = join(dir, 'all.json');
    const summary = join(dir, 'summary.md');
    appendFileSync(summary, '# earlier step\n');
    const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/app', GITHUB_SHA: 'a'.repeat(40), CI: 'true' };
    const r = await run(s, ['gate', '--max-total', '1000000', '--sarif', sarif, '--json-report', all], { env, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const log = JSON.parse(readFileSync(sarif, 'utf8'));
    const sarifRun = log.runs[0];
    expect(sarifRun.results).toHaveLength(25_000);
    const total: number = sarifRun.properties.gate.counts.total;
    expect(total).toBe(25_600);
    const out = total - 25_000;
    expect(sarifRun.properties.svc).toEqual({ omittedResults: out, omittedReason: "host A's code scanning takes at most 25,000 results per SARIF run" });
    // The most severe kept: no left-out issue is more severe than the least severe kept.
    const issues = (JSON.parse(readFileSync(all, 'utf8')) as { issues: Row[] }).issues;
    expect(issues).toHaveLength(total);
    const kept = new Set<string>(sarifRun.results.map((x: { properties: { issueId: string } }) => x.properties.issueId));
    const keptRows = issues.filter((i) => kept.has(i.id)).sort(bySeverity);
    const leftOut = issues.filter((i) => !kept.has(i.id)).sort(bySeverity);
    expect(leftOut).toHaveLength(out);
    expect(bySeverity(keptRows.at(-1)!, leftOut[0])).toBeLessThanOrEqual(0);
    // Valid SARIF still (the schema; the multitool's run is sarif-multitool.test.ts, on the same writer).
    expect(schemaErrors(log)).toEqual([]);
    expect(oasisRegionProblems(log)).toEqual([]);
    const line = `The SARIF report leaves out ${out} of ${total} results (the least severe; it keeps 25000): host A's code scanning takes at most 25,000 results per SARIF run.`;
    expect(r.stderr).toContain(line);
    expect(r.stderr).toContain(`(25000 results, ${out} left out)`);
    expect(r.stdout).toContain(line);
    const md = readFileSync(summary, 'utf8');
    expect(md.startsWith('# earlier step\n')).toBe(true);
    expect(md.replace(/\\/g, '')).toContain(line);
  }, 120_000);

  it('above 10 MB of gzip (here a small limit) it keeps fewer, the most severe, and says the size is why', async () => {
    const result = evaluateGate(Array.from({ length: 400 }, (_, i) => ({ id: `i${i}`, score: i % 100, affectedFile: `src/f${i}.ts`, startLine: i + 1, generatedDescription: `x${i} `.repeat(40) })), { failOn: 'critical' });
    const v: GateVerdict = { result, scope: {}, verified: { unverifiedFilters: [] }, fetched: 400, totalCount: 400 };
    const inputs = { version: '1.0.0', startedAt: 0, endedAt: 0 };
    const cap = await capSarif(v, (x, omitted) => sarifChunks(x, inputs, omitted), { results: 25_000, gzipBytes: 8_000 });
    expect(cap.omitted).toBeGreaterThan(0);
    expect(cap.reason).toBe("host A's code scanning takes at most 8,000 bytes of gzip-compressed SARIF per upload");
    const text = [...sarifChunks(cap.verdict, inputs, { results: cap.omitted, reason: cap.reason })].join('');
    const { gzipSync } = await import('node:zlib');
    expect(gzipSync(text).length).toBeLessThanOrEqual(8_000);
    const kept = new Set(Array.from(cap.verdict.result.issues, (i) => i.id));
    expect(kept.size).toBe(400 - cap.omitted);
    const keptRows = result.issues.filter((i) => kept.has(i.id)).sort(bySeverity);
    const leftOut = result.issues.filter((i) => !kept.has(i.id)).sort(bySeverity);
    expect(bySeverity(keptRows.at(-1)!, leftOut[0])).toBeLessThanOrEqual(0);
    expect(JSON.parse(text).runs[0].properties.svc.omittedResults).toBe(cap.omitted);
    expect(schemaErrors(JSON.parse(text))).toEqual([]);
  }, 60_000);
});

describe("annotations on host A's runner", () => {
  it('prints at most 10 errors and 10 warnings, the most severe, then one notice of the rest and where the list is', async () => {
    // 400 issues: 40 critical, 80 high, 120 medium and more (makeIssue's scores): more than the runner shows of each.
    const s = await serving(400);
    const dir = tempDir();
    const summary = join(dir, 'summary.md');
    const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, CI: 'true' };
    const r = await run(s, ['gate', '--fail-on', 'high', '--sarif', join(dir, 'r.sarif')], { env, cwd: dir });
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stdout.split('\n');
    const errors = lines.filter((l) => l.startsWith('::error '));
    const warnings = lines.filter((l) => l.startsWith('::warning '));
    const notices = lines.filter((l) => l.startsWith('::notice '));
    expect(errors).toHaveLength(10);
    expect(warnings).toHaveLength(10);
    expect(notices.length).toBeLessThanOrEqual(10);
    // Most severe first: the shown errors are critical (there are 40), the warnings the highest-scored of the rest.
    expect(errors.every((l) => l.includes('title=[critical]'))).toBe(true);
    const last = notices.at(-1)!;
    expect(last).toMatch(/^::notice title=svc gate::\d+ more issue annotations not shown \(the runner shows at most 10 errors and 10 warnings per step, 50 per job; the most severe are shown\); the full list: the step summary, --sarif /);
    const shown = errors.length + warnings.length + notices.length - 1;
    const total = Number(/([\d,]+) open issues in scope/.exec(r.stdout)![1].replace(/,/g, ''));
    expect(total).toBe(400);
    expect(Number(/::(\d+) more/.exec(last)![1]) + shown).toBe(total);
  }, 120_000);

  it('written to a file, the text is made once when it fits, the same bytes, and no temporary file is left', async () => {
    const result = evaluateGate(Array.from({ length: 400 }, (_, i) => ({ id: `i${i}`, score: i % 100, affectedFile: `src/f${i}.ts`, startLine: i + 1, generatedDescription: `x${i} `.repeat(40) })), { failOn: 'critical' });
    const v: GateVerdict = { result, scope: {}, verified: { unverifiedFilters: [] }, fetched: 400, totalCount: 400 };
    const inputs = { version: '1.0.0', startedAt: 0, endedAt: 0 };
    const dir = tempDir();
    const path = join(dir, 'r.sarif');
    const roomy = { results: 25_000, gzipBytes: 10 * 1024 * 1024 };
    // Under the limits: written once, kept, the full text.
    const cap = await writeSarifReport(path, v, inputs, undefined, undefined, roomy);
    expect(cap.omitted).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe([...sarifChunks(v, inputs, { results: 0, reason: '' })].join(''));
    expect(readdirSync(dir)).toEqual(['r.sarif']);
    // The text made once, into the sink (which keeps it), never compressed under the limit.
    let calls = 0;
    let put = '';
    let kept = false;
    const once = await capSarif(v, (x, omitted) => { calls += 1; return sarifChunks(x, inputs, omitted); }, roomy, {
      put: async (chunks) => {
        for (const c of chunks) put += c;
        return { gzipSize: async () => { throw new Error('not compressed under the limit'); }, keep: async () => { kept = true; }, drop: async () => undefined };
      },
    });
    expect([once.omitted, calls, kept]).toEqual([0, 1, true]);
    expect(put).toBe(readFileSync(path, 'utf8'));
    // Over the compressed limit: the file holds what the measuring path gives, byte for byte.
    const tight = { results: 25_000, gzipBytes: 8_000 };
    const capped = await writeSarifReport(path, v, inputs, undefined, undefined, tight);
    const measured = await capSarif(v, (x, omitted) => sarifChunks(x, inputs, omitted), tight);
    expect(capped.omitted).toBe(measured.omitted);
    expect(capped.omitted).toBeGreaterThan(0);
    expect(readFileSync(path, 'utf8')).toBe([...sarifChunks(measured.verdict, inputs, { results: measured.omitted, reason: measured.reason })].join(''));
    expect(readdirSync(dir)).toEqual(['r.sarif']);
  });
});

