/**
 * What the action runs, from its inputs (action.yml declares them; the runner gives each, with its
 * default, as a variable: ACTION_RUNNER in the providers table): `svc gate` with the inputs' flags,
 * then the `args` input's words. Pure: the files it looks at are asked through `exists`.
 */
import { ACTION_RUNNER } from '../ci/providers.js';
import { ArgsError, splitArgs } from './args.js';
import type { Env } from '../core/host.js';

/** The inputs action.yml declares, each read from the runner's variable. */
export const INPUTS = ['fail-on', 'repository', 'baseline', 'sarif', 'json-report', 'fail-job', 'args', 'base-url'] as const;
type InputName = (typeof INPUTS)[number];

/** The value of input `name` as the runner passes it (trimmed, as the runner's own toolkit does). */
function input(env: Env, name: InputName): string {
  return (env[`${ACTION_RUNNER.inputPrefix}${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

export interface Plan {
  /** svc's arguments. */
  argv: string[];
  /** `used`: the baseline file is read; `missing`: it was named but is not there; '' when none was named. */
  baseline: '' | 'used' | 'missing';
  /** A warning for the log (an annotation), when the baseline is missing. */
  warning?: { title: string; message: string };
  sarif: string;
  jsonReport: string;
  /** `fail-job: false`: a failing verdict (exit 1) does not fail the step. */
  failJob: boolean;
}

/** The plan, or an ArgsError for an input that cannot be used (said before svc runs). */
export function planOf(env: Env, exists: (path: string) => boolean): Plan {
  const value = (name: InputName) => input(env, name);
  const failJob = value('fail-job');
  if (!['', 'true', 'false'].includes(failJob)) throw new ArgsError(`fail-job: "${failJob}" is neither true nor false`);
  // An input set to '' leaves its flag out (scope or thresholds given in `args` instead).
  const argv = ['gate'];
  if (value('repository') !== '') argv.push('--repository', value('repository'));
  if (value('fail-on') !== '') argv.push('--fail-on', value('fail-on'));
  const plan: Plan = { argv, baseline: '', sarif: value('sarif'), jsonReport: value('json-report'), failJob: failJob !== 'false' };
  const baseline = value('baseline');
  if (baseline !== '') {
    if (exists(baseline)) {
      argv.push('--baseline', baseline);
      plan.baseline = 'used';
    } else {
      plan.baseline = 'missing';
      plan.warning = {
        title: 'svc gate: no baseline',
        message: `the baseline ${baseline} is not there (no earlier run recorded one, or its cache expired): every open issue in scope counts, not only those this change adds`,
      };
    }
  }
  if (plan.sarif !== '') argv.push('--sarif', plan.sarif);
  if (plan.jsonReport !== '') argv.push('--json-report', plan.jsonReport);
  if (value('base-url') !== '') argv.push('--base-url', value('base-url'));
  argv.push(...splitArgs(value('args')));
  return plan;
}
