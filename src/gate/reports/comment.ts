/**
 * The pull request comment of `svc gate --comment`: the markdown summary (verdict, counts by level,
 * what was not counted and why, the breaking issues), then the other counted issues, each title
 * linked with --issue-url. The hidden marker is added by the poster (src/ci/sticky-comment.ts).
 */
import type { GateIssue, GateResult } from '../tally.js';
import { doubtNotes, type GateVerdict } from '../verdict.js';
import { siftedLines } from '../sifted-text.js';
import { ISSUE_TABLE_HEAD, MAX_ROWS, issueRow, mdCell, toMarkdown } from './markdown.js';

/** Longest comment posted (the hosts refuse bodies above ~64 KB). */
const MAX_CHARS = 60_000;

function footer(commit: string | undefined): string {
  return `<sub>svc gate${commit ? ` on ${mdCell(commit.slice(0, 12))}` : ''}: this comment is updated on every run.</sub>\n`;
}

/**
 * The comment of a decided gate: what the baseline and policy took out, and what the verdict was made
 * on (doubtNotes: a listing read only in part, whose FAIL stands on the pages read), as the step
 * summary and --markdown say it: a comment without it reads as a count of every open issue.
 */
export function verdictComment(v: Pick<GateVerdict, 'result' | 'sifted' | 'incomplete' | 'categoryCounts' | 'doubts'>, o: { link?: (id: string) => string; commit?: string } = {}): string {
  return toComment(v.result, [...siftedLines(v.sifted, v.result.counts.total), ...doubtNotes(v)], o);
}

function toComment(result: GateResult, notes: readonly string[], o: { link?: (id: string) => string; commit?: string } = {}): string {
  const out = [toMarkdown(result, notes, { link: o.link }).trimEnd(), ''];
  // The issues that do not break: how many, and the first MAX_ROWS (the list is read once, not held).
  const others: GateIssue[] = [];
  let otherCount = 0;
  for (const i of result.issues) {
    if (i.breaking) continue;
    if (otherCount++ < MAX_ROWS) others.push(i);
  }
  if (otherCount > 0) {
    out.push(`#### Other counted issues (${otherCount})`, '', ISSUE_TABLE_HEAD);
    for (const issue of others) out.push(issueRow(issue, o.link));
    if (otherCount > MAX_ROWS) out.push('', `…and ${otherCount - MAX_ROWS} more.`);
    out.push('');
  }
  let text = out.join('\n');
  if (text.length > MAX_CHARS) text = text.slice(0, text.lastIndexOf('\n', MAX_CHARS)) + '\n\n…(cut: see the CI log for the rest)\n';
  return `${text}\n${footer(o.commit)}`;
}
