/**
 * `npm run demo -- --dialect NAME` against every dialect of the sandbox (issue 33.6): the tour runs
 * to its end (exit 0) with the verdicts of the default tour on the same data, and the steps where a
 * dialect shows reach a result: the search shows its answer (exit 0), the gate on the scan just run
 * and on an organization without issues give a verdict (exit 0 or 1), never 7 or 8.
 *
 * The README's own command (`--dialect wide-counts`) runs as it is, a process tour (the demo, its
 * sandbox, each step the built bin); the other dialects walk the same tour (scripts/demo-tour.mjs, the
 * demo's steps) in-process, sandbox and steps through main(): what they check is svc's answer to each
 * dialect, and a process tour of each cost ~4.5 CPU-s for that. The demo's process, its arguments and
 * what it hands its sandbox are the process tours' and the usage cases' (here and sandbox-command).
 * One tour in all five (`--dialect a,b,...`) would not pin each: no-counts leaves categoryCounts out,
 * so sparse-counts and wide-counts never show (a gate that refused a missing zero count passed it).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECT_NAMES } from '../../src/sandbox/dialects.js';
import { defaultTour, runDemo as demo, tourInProcess } from '../helpers/demo-tour.js';

/** The verdict line of each gate step of a tour, in order, and what the baseline step counted. */
function verdicts(out: string) {
  return {
    gates: [...out.matchAll(/\n\$ svc gate [^\n]*\n(?:[^\n]*\n)*?svc gate: (PASSED|FAILED)/g)].map((m) => m[1]),
    baseline: /(\d+) new, (\d+) already in the baseline/.exec(out)?.slice(1),
  };
}

let reference: ReturnType<typeof verdicts>;
// The default tour, as sandbox-command.test.ts reads it too (made once per run: demo-tour.ts).
beforeAll(async () => {
  const r = await defaultTour();
  expect(r.code, r.out).toBe(0);
  reference = verdicts(r.out);
  expect(reference.gates).toEqual(['FAILED', 'FAILED']);
}, 60_000);

describe('npm run demo -- --dialect NAME', () => {
  it('an unknown dialect, or another argument, is exit 2 naming what to give', async () => {
    const bad = await demo(['--dialect', 'wide']);
    expect(bad.code).toBe(2);
    expect(bad.out).toMatch(/unknown dialect 'wide': the dialects are wide-counts, redetect, sparse-counts, status-words, no-counts/);
    const other = await demo(['--bogus']);
    expect(other.code).toBe(2);
    expect(other.out).toMatch(/usage: npm run demo \[-- --dialect NAME\[,NAME\]\]/);
  }, 30_000);

  it.concurrent.each(DIALECT_NAMES)('%s: the tour ends with the default verdicts, and where the dialect shows, a result', async (dialect) => {
    const r = dialect === 'wide-counts' ? await demo(['--dialect', dialect]) : await tourInProcess([dialect]);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`It answers in the dialect ${dialect}`);
    expect(r.out).toMatch(/That was the real svc against a local stand-in/);
    const v = verdicts(r.out);
    // The tour's two gates as on the default sandbox, then the scan's gate and the empty organization's.
    expect(v.gates.slice(0, 2)).toEqual(reference.gates);
    expect(v.baseline).toEqual(reference.baseline);
    expect(v.gates).toHaveLength(4);
    expect(v.gates[3]).toBe('PASSED');
    expect(r.out).toContain(`Where the dialect ${dialect} shows`);
    expect(r.out).toMatch(/--jq '\{totalCount, categoryCounts, scans: \[\.issues\[\]\.codeScan\.id\]\}'\n(?:[^\n]*\n)*?\{"totalCount":\d+/);
    if (dialect === 'wide-counts') expect(r.out).toMatch(/\$ svc gate --repository-ids repo_\w+ --fail-on high --json-report \S+ --counts wide\n/);
    // Tours side by side on a busy machine: a hang, not a figure, is what the limit catches.
  }, 120_000);
});
