/**
 * The platforms' limits: above 10 MB of gzip the SARIF keeps fewer results, the most severe; on host
 * A's runner (its real variables) the annotations stay within 10 errors and 10 warnings with one
 * notice naming the rest and where they are (a gate of 400 issues of known levels, in-process, the
 * scripted service on a MockAgent). The 25,000-results cap on a real gate of more is
 * test/e2e/sarif-cap.test.ts; the multitool's run on a capped SARIF is in
 * test/unit/gate/reports/sarif-multitool.test.ts.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgainst, servingGenerated, useFakeServices } from '../../../helpers/fake-service.js';
import { tempDir } from '../../../helpers/temp.js';
import { bySeverity } from '../../../../src/gate/caps.js';
import { capSarif } from '../../../../src/commands/gate/sarif-cap.js';
import { sarifChunks } from '../../../../src/gate/reports/registry.js';
import { evaluateGate } from '../../../../src/gate/tally.js';
import type { GateVerdict } from '../../../../src/gate/verdict.js';
import { schemaErrors } from '../../gate/reports/sarif-schema.js';
import { writeSarifReport } from '../../../../src/commands/gate/write-reports.js';

const services = useFakeServices({ mock: true });
const serving = (n: number) => servingGenerated(services, n);
const run = runAgainst;


describe('SARIF within code scanning\'s limits', () => {
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

