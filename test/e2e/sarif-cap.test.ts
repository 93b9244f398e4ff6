/**
 * The platforms' limits end to end, in-process: a gate of 25,600 open issues with --sarif gives a
 * SARIF of 25,000 results (the most severe), says so on stderr, in the summaries and in the run's
 * properties. The issues are served by the scripted service on a MockAgent (no socket: the listing's
 * paging, checks and retries are the gate's own and are proven against real servers elsewhere). The
 * size cap and the annotations: test/unit/commands/gate/sarif-cap.test.ts.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeIssue, runAgainst, servingGenerated, useFakeServices } from '../helpers/fake-service.js';
import { tempDir } from '../helpers/temp.js';
import { oasisRegionProblems, schemaErrors } from '../unit/gate/reports/sarif-schema.js';

const services = useFakeServices({ mock: true });
const serving = (n: number) => servingGenerated(services, n);
const run = runAgainst;

describe('SARIF within code scanning\'s limits', () => {
  it('a gate of 25,600 open issues writes 25,000 results, the most severe, and says how many it left out and why', async () => {
    const s = await serving(25_600);
    const dir = tempDir();
    const sarif = join(dir, 'r.sarif');
    const summary = join(dir, 'summary.md');
    appendFileSync(summary, '# earlier step\n');
    const env = { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary, GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/app', GITHUB_SHA: 'a'.repeat(40), CI: 'true' };
    const r = await run(s, ['gate', '--max-total', '1000000', '--sarif', sarif], { env, cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const log = JSON.parse(readFileSync(sarif, 'utf8'));
    const sarifRun = log.runs[0];
    expect(sarifRun.results).toHaveLength(25_000);
    const total: number = sarifRun.properties.gate.counts.total;
    expect(total).toBe(25_600);
    const out = total - 25_000;
    expect(sarifRun.properties.svc).toEqual({ omittedResults: out, omittedReason: "GitHub's code scanning takes at most 25,000 results per SARIF run" });
    // The most severe kept: no left-out issue is more severe than the least severe kept. What was
    // served is known from the generator (servingGenerated: makeIssue's ids and scores; the level
    // rises with the score), so the left-out ones are every served id the SARIF does not list.
    const kept = new Map<string, number>(sarifRun.results.map((x: { properties: { issueId: string; score: number } }) => [x.properties.issueId, x.properties.score]));
    expect(kept.size).toBe(25_000);
    const leftOut: number[] = [];
    const otherScore: string[] = [];
    for (let i = 0; i < 25_600; i++) {
      const served = makeIssue(i);
      if (!kept.has(served.id)) leftOut.push(served.score as number);
      else if (kept.get(served.id) !== served.score) otherScore.push(served.id);
    }
    expect(otherScore).toEqual([]);
    expect(leftOut).toHaveLength(out);
    const leastKept = [...kept.values()].reduce((a, b) => Math.min(a, b));
    expect(leastKept).toBeGreaterThanOrEqual(leftOut.reduce((a, b) => Math.max(a, b)));
    // Valid SARIF still (the schema; the multitool's run is sarif-multitool.test.ts, on the same writer).
    expect(schemaErrors(log)).toEqual([]);
    expect(oasisRegionProblems(log)).toEqual([]);
    const line = `The SARIF report leaves out ${out} of ${total} results (the least severe; it keeps 25000): GitHub's code scanning takes at most 25,000 results per SARIF run.`;
    expect(r.stderr).toContain(line);
    expect(r.stderr).toContain(`(25000 results, ${out} left out)`);
    expect(r.stdout).toContain(line);
    const md = readFileSync(summary, 'utf8');
    expect(md.startsWith('# earlier step\n')).toBe(true);
    expect(md.replace(/\\/g, '')).toContain(line);
  }, 120_000);

});
