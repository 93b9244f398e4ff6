/** Markdown summary of a gate result, fit for a CI job's step summary. */
import { firstOf, type GateIssue, type GateResult } from '../tally.js';
import { idText, locationText, scoreText, titleOf } from './common.js';
import { stripControls } from '../../core/sanitize.js';
import { LEVELS, levelAtLeast } from '../../operations/levels.js';
import { type CountKey } from '../policy.js';

/** Most breaking issues listed in the table; the rest are summed up as "and N more". */
export const MAX_ROWS = 50;

/**
 * What svc appends to a CI's step summary at most, in UTF-8 bytes: host A shows nothing of a step
 * whose summary passes 1 MiB, and the job's other steps write to the same file (a quarter leaves them room).
 */
export const STEP_SUMMARY_BYTES = 256 * 1024;
/** Longest table cell and note of the step summary, in characters before escaping: one title cannot take the whole of it. */
const STEP_CELL_CHARS = 300;
const STEP_NOTE_CHARS = 1000;

/**
 * Text cut to at most `max` characters, ending in `…` when cut; a surrogate pair is never split.
 * By characters, not columns (output/text-width.ts measures a grapheme at a time: seconds on a title of 200,000).
 */
export function clipChars(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1])) end--;
  return `${text.slice(0, end)}…`;
}

/** Where a capped summary sends the reader for what it leaves out (the --json-report file, say). */
interface SummaryCap {
  bytes: number;
  fullAt: string;
}

const bytesOf = (text: string) => Buffer.byteLength(text, 'utf8');

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
function titleCell(issue: GateIssue, link?: (id: string) => string, chars = Infinity): string {
  const title = mdCell(clipChars(titleOf(issue), chars));
  const url = link ? mdUrl(link(String(issue.id))) : undefined;
  return url === undefined ? title : `[${title}](${url})`;
}

/** The head of a table of issues (the breaking ones here, the others in the comment). */
export const ISSUE_TABLE_HEAD = '| Level | Score | Issue | Title | Location |\n| --- | ---: | --- | --- | --- |';

/**
 * An issue as a row: its level, score, id (what the policy's `ignore` and `svc issues get` take), title (linked with --issue-url) and location.
 * `chars`: the longest a cell's text may be (the step summary's cap), cut before escaping so that no escape is split.
 */
export function issueRow(issue: GateIssue, link?: (id: string) => string, chars = Infinity): string {
  const cell = (text: string) => mdCell(clipChars(text, chars));
  const where = locationText(issue);
  return `| ${issue.level} | ${cell(scoreText(issue))} | ${cell(idText(issue))} | ${titleCell(issue, link, chars)} | ${where === '' ? '-' : cell(where)} |`;
}

/**
 * `notes`: plain sentences shown under the counts (baseline, policy, --new-since); escaped here.
 * `link`: the URL of an issue (--issue-url), for its title.
 * `cap`: the step summary's limit. The verdict, violations and counts are always whole; the notes
 * and the rows are cut to fit (long cells and notes shortened, then whole ones left out), with a line
 * saying how many were left out and where they all are.
 */
export function toMarkdown(result: GateResult, notes: readonly string[] = [], o: { link?: (id: string) => string; cap?: SummaryCap } = {}): string {
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
  const cap = o.cap;
  if (!cap) {
    for (const note of notes) out.push('', mdCell(note));
  } else {
    // Half of what is left for the notes, the rest for the rows; each line saying what was left out
    // (at most ~2 KB with its path) is kept room for.
    const fullAt = mdCell(clipChars(cap.fullAt, STEP_NOTE_CHARS));
    let left = cap.bytes - bytesOf(out.join('\n')) - 2 * (bytesOf(fullAt) + 200);
    let room = left / 2;
    let skipped = 0;
    for (const note of notes) {
      const text = mdCell(clipChars(note, STEP_NOTE_CHARS));
      const size = bytesOf(text) + 2;
      if (size > room) { skipped++; continue; }
      out.push('', text);
      room -= size;
      left -= size;
    }
    if (skipped > 0) out.push('', `…and ${skipped} more note${skipped === 1 ? '' : 's'} left out (the step summary is kept small); all of them: ${fullAt}.`);
    if (result.breaking.length > 0) return rowsWithin(out, result, o.link, left, fullAt);
    out.push('');
    return out.join('\n');
  }

  if (result.breaking.length > 0) {
    out.push('', `#### Breaking issues (${result.breaking.length})`, '');
    out.push(ISSUE_TABLE_HEAD);
    for (const issue of firstOf(result.breaking, MAX_ROWS)) out.push(issueRow(issue, o.link));
    const more = result.breaking.length - MAX_ROWS;
    if (more > 0) out.push('', `…and ${more} more.`);
  }
  out.push('');
  return out.join('\n');
}

/** The breaking issues' table of a capped summary: the first MAX_ROWS, as many as fit in `room` bytes. `fullAt`: escaped. */
function rowsWithin(out: string[], result: GateResult, link: ((id: string) => string) | undefined, room: number, fullAt: string): string {
  out.push('', `#### Breaking issues (${result.breaking.length})`, '', ISSUE_TABLE_HEAD);
  room -= bytesOf(`#### Breaking issues (${result.breaking.length})`) + bytesOf(ISSUE_TABLE_HEAD) + 4;
  let shown = 0;
  for (const issue of firstOf(result.breaking, MAX_ROWS)) {
    const row = issueRow(issue, link, STEP_CELL_CHARS);
    const size = bytesOf(row) + 1;
    if (size > room) break;
    out.push(row);
    room -= size;
    shown++;
  }
  const more = result.breaking.length - shown;
  if (more > 0) out.push('', `…and ${more} more; every one: ${fullAt}.`);
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
