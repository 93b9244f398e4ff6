/**
 * The action's outputs after svc ran (action.yml declares them): the verdict and exit code, the
 * report paths written by a decided run, the counts of its JSON report, and whether the baseline
 * was used. Written to the runner's output file in its multi-line form (`name<<delimiter`), so no
 * value (a path with a line break) can end early or set another output.
 */
import { randomUUID } from 'node:crypto';
import type { Plan } from './plan.js';

type Outputs = Record<string, string>;

const COUNTS = ['total', 'critical', 'high', 'medium', 'low', 'info'] as const;

/**
 * `code`: svc's exit code. `read(path)`: a report file's text, or undefined when it is not there.
 * Report paths and counts only from a decided run (0 or 1): an undecided one removes an earlier
 * SARIF file and writes a JSON report without counts.
 */
export function outputsOf(plan: Plan, code: number, read: (path: string) => string | undefined): Outputs {
  const out: Outputs = { 'exit-code': String(code), verdict: code === 0 ? 'passed' : code === 1 ? 'failed' : 'undecided', baseline: plan.baseline };
  if (code > 1) return out;
  if (plan.sarif !== '' && read(plan.sarif) !== undefined) out.sarif = plan.sarif;
  const report = plan.jsonReport === '' ? undefined : read(plan.jsonReport);
  if (report !== undefined) {
    out['json-report'] = plan.jsonReport;
    let counts: Record<string, unknown> = {};
    try {
      counts = (JSON.parse(report) as { counts?: Record<string, unknown> }).counts ?? {};
    } catch { /* not this run's report: no counts */ }
    for (const k of COUNTS) if (typeof counts[k] === 'number') out[k] = String(counts[k]);
  }
  return out;
}

/** The outputs in the runner's output-file syntax, each value between delimiter lines no value holds. */
export function outputFileText(outputs: Outputs): string {
  let text = '';
  for (const [name, value] of Object.entries(outputs)) {
    let delimiter = `svc_${randomUUID()}`;
    while (value.includes(delimiter)) delimiter = `svc_${randomUUID()}`;
    text += `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
  }
  return text;
}
