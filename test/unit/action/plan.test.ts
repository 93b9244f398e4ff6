/** What the action runs from its inputs, and the outputs it writes (src/action/plan.ts, outputs.ts). */
import { describe, expect, it } from 'vitest';
import { planOf, INPUTS } from '../../../src/action/plan.js';
import { outputFileText, outputsOf } from '../../../src/action/outputs.js';
import { ArgsError } from '../../../src/action/args.js';

/** The variables the runner sets for these inputs (action.yml's defaults for the rest). */
const defaults: Record<string, string> = { 'fail-on': 'high', repository: 'auto', baseline: '', sarif: 'svc.sarif', 'json-report': 'svc-report.json', 'fail-job': 'true', args: '', 'base-url': '' };
const env = (given: Record<string, string>) => Object.fromEntries(INPUTS.map((n) => [`INPUT_${n.toUpperCase()}`, given[n] ?? defaults[n]]));

describe('planOf', () => {
  it('runs svc gate with the inputs as flags, then the args words', () => {
    expect(planOf(env({ args: '--diff auto\n--comment' }), () => false).argv).toEqual([
      'gate', '--repository', 'auto', '--fail-on', 'high', '--sarif', 'svc.sarif', '--json-report', 'svc-report.json', '--diff', 'auto', '--comment',
    ]);
    // An input set to '' leaves its flag out; base-url when given.
    expect(planOf(env({ repository: '', 'fail-on': '', sarif: '', 'json-report': '', 'base-url': 'https://svc.example', args: '--max-high 0' }), () => false).argv)
      .toEqual(['gate', '--base-url', 'https://svc.example', '--max-high', '0']);
  });

  it('a baseline that is there is used; one that is not is a warning and `missing`', () => {
    const used = planOf(env({ baseline: 'svc-baseline.json' }), (p) => p === 'svc-baseline.json');
    expect(used).toMatchObject({ baseline: 'used' });
    expect(used.argv).toEqual(expect.arrayContaining(['--baseline', 'svc-baseline.json']));
    expect(used.warning).toBeUndefined();
    const missing = planOf(env({ baseline: 'svc-baseline.json' }), () => false);
    expect(missing.baseline).toBe('missing');
    expect(missing.argv).not.toContain('--baseline');
    expect(missing.warning?.message).toMatch(/^the baseline svc-baseline\.json is not there .*every open issue in scope counts/);
    expect(planOf(env({}), () => true).baseline).toBe('');
  });

  it('fail-job is true or false; args a shell would expand are refused', () => {
    expect(planOf(env({ 'fail-job': 'false' }), () => false).failJob).toBe(false);
    expect(planOf(env({}), () => false).failJob).toBe(true);
    expect(() => planOf(env({ 'fail-job': 'no' }), () => false)).toThrow(ArgsError);
    expect(() => planOf(env({ args: '--x $Y' }), () => false)).toThrow(/args, line 1, column 5/);
  });
});

describe('outputsOf', () => {
  const plan = planOf(env({ baseline: 'b.json' }), () => true);
  const files: Record<string, string> = { 'svc.sarif': '{}', 'svc-report.json': JSON.stringify({ counts: { total: 3, critical: 1, high: 2, medium: 0, low: 0, info: 0 } }) };
  const read = (p: string) => files[p];

  it('a decided run: verdict, code, the reports written, the counts, the baseline', () => {
    expect(outputsOf(plan, 1, read)).toEqual({ 'exit-code': '1', verdict: 'failed', baseline: 'used', sarif: 'svc.sarif', 'json-report': 'svc-report.json', total: '3', critical: '1', high: '2', medium: '0', low: '0', info: '0' });
    expect(outputsOf(plan, 0, () => undefined)).toEqual({ 'exit-code': '0', verdict: 'passed', baseline: 'used' });
  });

  it('an undecided run: no report paths, no counts', () => {
    expect(outputsOf(plan, 7, read)).toEqual({ 'exit-code': '7', verdict: 'undecided', baseline: 'used' });
  });

  it('writes each value between delimiter lines it does not hold', () => {
    const text = outputFileText({ verdict: 'passed', sarif: 'a\nsarif=evil.sarif' });
    const m = /^verdict<<(svc_[\w-]+)\npassed\n\1\nsarif<<(svc_[\w-]+)\na\nsarif=evil\.sarif\n\2\n$/.exec(text);
    expect(m, text).not.toBeNull();
    expect(m![1]).not.toBe(m![2]);
  });
});
