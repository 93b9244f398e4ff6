/** Helpers shared by the report writers. */
import type { GateIssue } from '../tally.js';
import { stripControls } from '../../core/sanitize.js';
import { numericScore } from '../../operations/levels.js';

/** The value when it is a whole number of 1 or more (a valid line or column), else undefined. */
function positiveInt(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined;
}

/** Line and column span of an issue, keeping only values that make sense together. */
export interface Span {
  startLine?: number;
  endLine?: number;
  startColumn?: number;
  endColumn?: number;
}

export function spanOf(issue: GateIssue): Span {
  const startLine = positiveInt(issue.startLine);
  if (startLine === undefined) return {};
  const span: Span = { startLine };
  const endLine = positiveInt(issue.endLine);
  if (endLine !== undefined && endLine >= startLine) span.endLine = endLine;
  const startColumn = positiveInt(issue.startColumn);
  if (startColumn !== undefined) {
    span.startColumn = startColumn;
    const endColumn = positiveInt(issue.endColumn);
    const sameLine = (span.endLine ?? startLine) === startLine;
    if (endColumn !== undefined && (!sameLine || endColumn >= startColumn)) span.endColumn = endColumn;
  }
  return span;
}

/** Repository-relative path with forward slashes, or undefined when the issue names no file. */
export function relativePath(file: unknown): string | undefined {
  if (typeof file !== 'string') return undefined;
  const path = stripControls(file).trim().replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/^\/+/, '');
  return path === '' ? undefined : path;
}

/** `file:line`, `file`, or '' when the issue names no file. */
export function locationText(issue: GateIssue): string {
  const file = relativePath(issue.affectedFile);
  if (file === undefined) return '';
  const line = spanOf(issue).startLine;
  return line === undefined ? file : `${file}:${line}`;
}

/**
 * Service text for a report, a CI log or a terminal: escape sequences and control characters out
 * (every report writer, the annotations and the gate's summary take their text from here).
 */
function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const clean = stripControls(value.replace(/\r\n?/g, '\n')).trim();
  return clean === '' ? undefined : clean;
}

/** The issue's id as printed (ids are service text too). */
export function idText(issue: GateIssue): string {
  return stripControls(String(issue.id));
}

/** The issue's vulnerability class as shown (one line, controls out), or undefined when it has none. */
export function classText(issue: GateIssue): string | undefined {
  return text(issue.vulnClass)?.replace(/\s+/g, ' ');
}

/** A one-line title: the generated title, else the vulnerability class, else the id. */
export function titleOf(issue: GateIssue): string {
  const title = text(issue.generatedTitle) ?? text(issue.vulnClass) ?? `Issue ${idText(issue)}`;
  return title.replace(/\s*[\r\n]+\s*/g, ' ');
}

export function descriptionOf(issue: GateIssue): string | undefined {
  return text(issue.generatedDescription);
}

/** The score for display: a number, or "?" when missing (such issues rank as critical). */
export function scoreText(issue: GateIssue): string {
  const n = numericScore(issue.score);
  return n === undefined ? '?' : String(n);
}

/** CWE ids as plain numbers ("CWE-89", "cwe_89", "89: SQL injection" all give "89"). */
export function cweNumbers(issue: GateIssue): string[] {
  if (!Array.isArray(issue.cwes)) return [];
  const out: string[] = [];
  for (const cwe of issue.cwes as unknown[]) {
    if (typeof cwe !== 'string' && typeof cwe !== 'number') continue;
    const m = /^\s*(?:cwe[-_ ]?)?(\d+)/i.exec(String(cwe));
    if (m && !out.includes(String(Number(m[1])))) out.push(String(Number(m[1])));
  }
  return out;
}
