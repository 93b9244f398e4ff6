/**
 * CI workflow commands (`::error file=…,line=…::message`) that annotate the lines of a change, and
 * the same as the logging commands of the CI the providers table names for them (`##vso[task.logissue type=error;sourcepath=…;
 * linenumber=…;columnnumber=…;code=…]message`; no notice there).
 *
 * Decision: every breaking issue is an `::error`; a non-breaking issue at medium or above is a
 * `::warning` (worth a look, but it does not fail the gate); a non-breaking low or info issue is a
 * `::notice`. Errors come first, then warnings, then notices (the caller caps them: ../caps.ts).
 */
import type { GateIssue, GateResult } from '../tally.js';
import { mostSevere, type AnnotationKind } from '../caps.js';
import { descriptionOf, idText, relativePath, scoreText, spanOf, titleOf } from './common.js';
import { escapeLogCommands, stripControls } from '../../core/sanitize.js';
import { levelAtLeast } from '../../operations/levels.js';

/** Host A's workflow commands, or the logging commands `##vso[task.logissue]`. */
export type AnnotationSyntax = 'workflow' | 'logissue';

/**
 * Escapes a value of a `##vso[` logging command: `%` as `%AZP25` (first), CR and LF, and in a
 * property also `;` (which ends it) and `]` (which ends the properties). The agent decodes them.
 */
export function escapeLogissue(value: string, property: boolean): string {
  const data = value.replace(/%/g, '%AZP25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
  return property ? data.replace(/;/g, '%3B').replace(/\]/g, '%5D') : data;
}

function logissue(kind: 'error' | 'warning', issue: GateIssue): string {
  // No control characters, and no `##vso[` or `##[` (the agent looks for them anywhere in a line) in text from the service.
  const clean = (v: string) => escapeLogCommands(stripControls(v));
  const props = [`type=${kind}`];
  const file = relativePath(issue.affectedFile);
  if (file !== undefined) {
    props.push(`sourcepath=${escapeLogissue(clean(file), true)}`);
    const span = spanOf(issue);
    if (span.startLine !== undefined) props.push(`linenumber=${span.startLine}`);
    if (span.startColumn !== undefined) props.push(`columnnumber=${span.startColumn}`);
  }
  props.push(`code=${escapeLogissue(clean(idText(issue)), true)}`);
  const description = descriptionOf(issue);
  const facts = `score ${scoreText(issue)}, ${issue.level}, issue ${idText(issue)}${issue.breaking ? ', breaks the gate' : ''}`;
  const message = `[${issue.level}] ${titleOf(issue)}${description === undefined ? '' : `: ${description}`} (${facts})`;
  return `##vso[task.logissue ${props.join(';')}]${escapeLogissue(clean(message), false)}`;
}

/** Escapes the message part of a workflow command. */
export function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a property value of a workflow command (also `:` and `,`, which delimit properties). */
export function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function command(kind: 'error' | 'warning' | 'notice', issue: GateIssue): string {
  // Every property value is service text: escaped as the message is, so that an agent reading `##vso[`
  // anywhere in a line (one that also runs host A's steps, or reads its log) finds none in the file name either.
  const prop = (value: string) => escapeProperty(escapeLogCommands(value));
  const props: string[] = [];
  const file = relativePath(issue.affectedFile);
  if (file !== undefined) {
    props.push(`file=${prop(file)}`);
    const span = spanOf(issue);
    if (span.startLine !== undefined) props.push(`line=${span.startLine}`);
    if (span.endLine !== undefined) props.push(`endLine=${span.endLine}`);
    if (span.startColumn !== undefined) props.push(`col=${span.startColumn}`);
    if (span.endColumn !== undefined) props.push(`endColumn=${span.endColumn}`);
  }
  props.push(`title=${prop(`[${issue.level}] ${titleOf(issue)}`)}`);
  const description = descriptionOf(issue);
  const facts = `score ${scoreText(issue)}, ${issue.level}, issue ${idText(issue)}${issue.breaking ? ', breaks the gate' : ''}`;
  const message = description === undefined ? `${titleOf(issue)} (${facts})` : `${description}\n(${facts})`;
  // The runner reads the line as this command, never the service's `##[` in it; escaped anyway, as everywhere.
  return `::${kind} ${props.join(',')}::${escapeData(escapeLogCommands(message))}`;
}

/** The issues each kind of annotation would show: every breaking issue, then the others by level. */
function annotationGroups(result: GateResult): Record<'error' | 'warning' | 'notice', GateIssue[]> {
  const groups: Record<'error' | 'warning' | 'notice', GateIssue[]> = { error: [...result.breaking], warning: [], notice: [] };
  for (const issue of result.issues) {
    if (!issue.breaking) groups[levelAtLeast(issue.level, 'medium') ? 'warning' : 'notice'].push(issue);
  }
  return groups;
}

/**
 * annotationGroups holding only the `most` most severe of each kind (most severe first), and how
 * many there are of each: the kept issues are read once, never held (they may be tens of thousands).
 */
export function mostSevereAnnotationGroups(result: GateResult, most: number): { groups: Record<AnnotationKind, GateIssue[]>; totals: Record<AnnotationKind, number> } {
  const pick = { error: mostSevere<GateIssue>(most), warning: mostSevere<GateIssue>(most), notice: mostSevere<GateIssue>(most) };
  const totals = { error: 0, warning: 0, notice: 0 };
  for (const issue of result.breaking) { pick.error.add(issue); totals.error++; }
  for (const issue of result.issues) {
    if (issue.breaking) continue;
    const kind = levelAtLeast(issue.level, 'medium') ? 'warning' : 'notice';
    pick[kind].add(issue);
    totals[kind]++;
  }
  return { groups: { error: pick.error.items, warning: pick.warning.items, notice: pick.notice.items }, totals };
}

/** The commands of these groups, errors first: one per line; '' when there is nothing to annotate (no notice in `logissue`). */
export function annotationText(groups: Record<'error' | 'warning' | 'notice', readonly GateIssue[]>, syntax: AnnotationSyntax = 'workflow'): string {
  const kinds = syntax === 'logissue' ? (['error', 'warning'] as const) : (['error', 'warning', 'notice'] as const);
  const lines = kinds.flatMap((kind) => groups[kind].map((issue) => (syntax === 'logissue' ? logissue(kind as 'error' | 'warning', issue) : command(kind, issue))));
  return lines.length === 0 ? '' : `${lines.join('\n')}\n`;
}

/** One workflow command per line for every issue (uncapped; the CI's limits are ../caps.ts); '' when there is nothing to annotate. */
export function toAnnotations(result: GateResult): string {
  return annotationText(annotationGroups(result));
}
