/** Markdown summary of a gate result, fit for a CI job's step summary. */
import { firstOf, type GateIssue, type GateResult } from '../tally.js';
import { locationText, scoreText, titleOf } from './common.js';
import { stripControls } from '../../core/sanitize.js';
import { LEVELS, levelAtLeast } from '../../operations/levels.js';
import { type CountKey } from '../policy.js';

/** Most breaking issues listed in the table; the rest are summed up as "and N more". */
export const MAX_ROWS = 50;

/**
 * Makes text safe inside a table cell: escape sequences and controls out, markdown punctuation is backslash-escaped (so a title
 * cannot close the cell, open a link, or inject HTML) and line breaks become `<br>`.
 */
export function mdCell(value: string): string {
  return stripControls(value.replace(/\r\n?/g, '\n'))
    .replace(/[\\`*_{}[\]()<>#+!|~&]/g, '\\$&')
    .replace(/\n/g, '<br>')
    .trim();
}

export function thresholdText(result: GateResult, key: CountKey): string {
  const parts: string[] = [];
  const { failOn, max } = result.thresholds;
  if (key !== 'total' && failOn !== undefined && levelAtLeast(key, failOn)) parts.push('fail-on');
  const limit = max[key];
  if (limit !== undefined) parts.push(`max ${limit}`);
  return parts.length === 0 ? '-' : parts.join(', ');
}

export function rowFails(result: GateResult, key: CountKey): boolean {
  const { failOn, max } = result.thresholds;
  const count = result.counts[key];
  if (key !== 'total' && failOn !== undefined && levelAtLeast(key, failOn) && count > 0) return true;
  const limit = max[key];
  return limit !== undefined && count > limit;
}

/** A link target safe inside markdown's `(...)`: only http(s), parentheses and spaces encoded. */
function mdUrl(url: string): string | undefined {
  if (!/^https?:\/\/[^\s<>]+$/.test(url)) return undefined;
  return url.replace(/\(/g, '%28').replace(/\)/g, '%29');
}

/** An issue's title as a table cell, linked to the issue when `link` gives a URL. */
export function titleCell(issue: GateIssue, link?: (id: string) => string): string {
  const title = mdCell(titleOf(issue));
  const url = link ? mdUrl(link(String(issue.id))) : undefined;
  return url === undefined ? title : `[${title}](${url})`;
}

/**
 * `notes`: plain sentences shown under the counts (baseline, policy, --new-since); escaped here.
 * `link`: the URL of an issue (--issue-url), for its title.
 */
export function toMarkdown(result: GateResult, notes: readonly string[] = [], o: { link?: (id: string) => string } = {}): string {
  const out: string[] = [];
  out.push(result.passed ? '### ✅ svc gate passed' : '### ❌ svc gate failed', '');
  // Violations are the gate's own wording (levels and numbers), no issue text.
  for (const violation of result.violations) out.push(`- ${violation}`);
  if (result.violations.length > 0) out.push('');

  out.push('| Level | Open issues | Threshold | Result |', '| --- | ---: | --- | --- |');
  for (const key of [...LEVELS, 'total'] as const) {
    const name = key === 'total' ? '**total**' : key;
    const verdict = rowFails(result, key) ? '❌' : '✅';
    out.push(`| ${name} | ${result.counts[key]} | ${thresholdText(result, key)} | ${verdict} |`);
  }
  const c = result.thresholds.cutoffs;
  out.push('', `Score cut-offs: critical ≥ ${c.critical}, high ≥ ${c.high}, medium ≥ ${c.medium}, low ≥ ${c.low}.`);
  if (result.ignored > 0) {
    out.push(`${result.ignored} listed issue${result.ignored === 1 ? '' : 's'} outside the scope (another repository, organization or project) not counted.`);
  }
  for (const note of notes) out.push('', mdCell(note));

  if (result.breaking.length > 0) {
    out.push('', `#### Breaking issues (${result.breaking.length})`, '');
    out.push('| Level | Score | Title | Location |', '| --- | ---: | --- | --- |');
    for (const issue of firstOf(result.breaking, MAX_ROWS)) {
      const where = locationText(issue);
      out.push(
        `| ${issue.level} | ${mdCell(scoreText(issue))} | ${titleCell(issue, o.link)} | ${where === '' ? '-' : mdCell(where)} |`,
      );
    }
    const more = result.breaking.length - MAX_ROWS;
    if (more > 0) out.push('', `…and ${more} more.`);
  }
  out.push('');
  return out.join('\n');
}

/** Markdown for a gate that could not be decided: says so plainly, claims no counts. */
export function toMarkdownError(message: string, exitCode: number): string {
  return [
    '### ⚠️ svc gate could not decide',
    '',
    mdCell(message),
    '',
    `The gate fails closed: exit code ${exitCode}, no verdict.`,
    '',
  ].join('\n');
}
