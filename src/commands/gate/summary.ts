/** What `svc gate` prints: the verdict on stdout (the report files are write-reports.ts). */
import { terminalWidth, wallClock } from '../../core/host.js';
import type { Context } from '../../context.js';
import { firstOf, type GateResult } from '../../gate/tally.js';
import { doubtNotes, organizationText, type GateVerdict } from '../../gate/verdict.js';
import { groupLines, type CiInfo } from '../../ci/detect.js';
import { siftedLines } from '../../gate/sifted-text.js';
import type { Format } from '../../output/formats.js';
import { csvHeader, csvRow } from '../../output/csv.js';
import { parseColumns } from '../../output/columns.js';
import type { VerifiedScope } from '../../gate/verdict.js';
import { cellText, terminalJson } from '../../core/sanitize.js';
import { fitWidths } from '../../output/layout.js';
import { clip, clipPath, displayWidth, pad, wrap } from '../../output/text-width.js';
import { count } from '../../terminal/progress.js';
import { printJson } from '../../output/print-json.js';
import { rowFails, thresholdText } from '../../gate/reports/markdown.js';
import { annotationText, escapeData, escapeLogissue, mostSevereAnnotationGroups, type AnnotationSyntax } from '../../gate/reports/annotations.js';
import { ANNOTATION_LIMITS, LOGISSUE_LIMITS, capAnnotations, type AnnotationsUsed } from '../../gate/caps.js';
import { annotationsUsed, recordAnnotations } from '../../ci/annotation-ledger.js';
import { locationText, scoreText, titleOf } from '../../gate/reports/common.js';
import { Chalk } from 'chalk';
import { verdictData } from '../../gate/verdict.js';
import { LEVELS } from '../../operations/levels.js';
import { type CountKey } from '../../gate/policy.js';

/** Most breaking issues listed in the human summary. */
const MAX_LISTED = 50;

const CSV_COLUMNS = ['level', 'score', 'id', 'vulnClass', 'repositoryName', 'affectedFile', 'startLine', 'generatedTitle'];

/**
 * Annotation lines within the CI's limits (gate/caps.ts: the most severe 10 errors, 10 warnings, ...,
 * less what earlier runs of the job and step printed), then one note of how many are left out and
 * where the full list is: a notice on host A, a warning with logging commands (no notice there), a plain
 * line when the limits leave no place for it. `printed`: what to add to the ledger.
 */
export function annotationLines(
  result: GateResult,
  fullList = '-o json, --sarif or --junit',
  o: { syntax?: AnnotationSyntax; used?: AnnotationsUsed } = {},
): { text: string; printed: Record<'error' | 'warning' | 'notice', number> } {
  const syntax = o.syntax ?? 'workflow';
  const limits = syntax === 'logissue' ? LOGISSUE_LIMITS : ANNOTATION_LIMITS;
  // Only the most severe of each kind are held: more than the per-job limit is never shown.
  const { groups, totals } = mostSevereAnnotationGroups(result, ANNOTATION_LIMITS.job);
  const { kept, omitted, note } = capAnnotations(groups, limits, o.used, totals);
  const text = annotationText(kept, syntax);
  const printed = { error: kept.error.length, warning: kept.warning.length, notice: syntax === 'logissue' ? 0 : kept.notice.length };
  if (omitted === 0) return { text, printed };
  const earlier = o.used && o.used.job > 0 ? `; earlier steps of this job printed ${o.used.job}` : '';
  const why = syntax === 'logissue'
    ? `the agent keeps at most ${limits.error} errors and ${limits.warning} warnings per step as issues, and has no notices; the most severe are shown`
    : `the runner shows at most ${limits.error} errors and ${limits.warning} warnings per step, ${limits.job} per job${earlier}; the most severe are shown`;
  const words = `${omitted} more issue annotation${omitted === 1 ? '' : 's'} not shown (${why}); the full list: ${fullList}`;
  if (!note) return { text: `${text}svc gate: ${words}\n`, printed };
  printed[limits.note] += 1;
  const line = syntax === 'logissue'
    ? `##vso[task.logissue type=warning;code=svc-gate]${escapeLogissue(words, false)}`
    : `::notice title=svc gate::${escapeData(words)}`;
  return { text: `${text}${line}\n`, printed };
}

/** What the verdict says beyond the result: where the full list of issues is, what a report left out. */
interface VerdictNotes {
  /** Where every issue is listed (the step summary, the report files). */
  fullList?: string;
  /** Lines on what the reports left out (gate/caps.ts), shown in the summary. */
  omitted?: string[];
}

export async function printVerdict(ctx: Context, format: Format, v: GateVerdict, annotations: boolean, ci?: CiInfo, notes: VerdictNotes = {}): Promise<void> {
  const r = v.result;
  switch (format) {
    case 'json':
    case 'ndjson':
      if (ctx.globals.jq !== undefined) {
        await printJson(ctx, verdictData(v));
        return;
      }
      {
        const text = JSON.stringify(verdictData(v), null, format === 'json' && ctx.io.stdoutIsTTY ? 2 : undefined);
        ctx.out((ctx.io.stdoutIsTTY ? terminalJson(text) : text) + '\n');
      }
      return;
    case 'csv': {
      const columns = ctx.globals.columns !== undefined ? parseColumns(ctx.globals.columns) : CSV_COLUMNS;
      let text = csvHeader(columns);
      for (const issue of r.breaking) text += csvRow(issue, columns);
      ctx.out(text);
      return;
    }
    case 'table':
      {
        // svc's own group markers go out as commands; the rest (titles from the service) through the
        // log guard, which keeps a title from forming a runner command (ci/log-guard.ts).
        for (const part of humanSummary(ctx, v, ci, notes.omitted ?? [])) {
          if (part.command) ctx.command(part.text);
          else ctx.out(part.text);
        }
      }
      if (annotations) await printAnnotations(ctx, r, ci, notes.fullList);
  }
}

/**
 * The annotations in the CI's syntax (host A's without a CI, for --annotations), within what is left
 * of the job's limits: the ledger (ci/annotation-ledger.ts) is read before and added to after; it fails
 * soft and never changes the verdict.
 */
async function printAnnotations(ctx: Context, r: GateResult, ci: CiInfo | undefined, fullList: string | undefined): Promise<void> {
  const used = await annotationsUsed(ci);
  const { text, printed } = annotationLines(r, fullList, { syntax: ci?.annotations ?? 'workflow', used });
  // svc's own commands: written past the log guard (their service text is escaped for them).
  ctx.command(text);
  await recordAnnotations(ci, printed);
}

/** Plain aligned columns (no box drawing: easy to read in a CI log); numbers right-aligned. */
export function aligned(rows: string[][], right: ReadonlySet<number> = new Set()): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => { widths[i] = Math.max(widths[i] ?? 0, cell.length); });
  return rows.map((row) => '  ' + row.map((cell, i) => {
    if (i === row.length - 1) return cell;
    return right.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]);
  }).join('  ').trimEnd());
}

/** The summary's text, in parts: the CI's group markers (`command`) apart from the rest. */
function humanSummary(ctx: Context, v: GateVerdict, ci: CiInfo | undefined, omitted: readonly string[]): Array<{ text: string; command: boolean }> {
  const chalk = new Chalk({ level: ctx.color ? 1 : 0 });
  const r = v.result;
  // On a terminal every line fits its width (ids stay whole; titles and locations give way, prose
  // wraps); in a CI log nothing is cut.
  const width = terminalWidth(ctx);
  const out: string[] = [];
  // The lines that are the CI's group markers (svc's own commands).
  const own = new Set<number>();
  out.push(r.passed ? `${chalk.green.bold('svc gate: PASSED')} (every threshold held)` : chalk.red.bold('svc gate: FAILED'));
  for (const violation of r.violations) out.push(`  - ${violation}`);
  const notCounted = v.sifted ? v.sifted.unchangedCount + v.sifted.suppressedCount + v.sifted.outOfScope + (v.sifted.diff?.elsewhereCount ?? 0) : 0;
  out.push(notCounted > 0
    // With a baseline, a policy or --new-since/--commit: not every open issue in scope is counted.
    ? `${count(r.counts.total)} open issue${r.counts.total === 1 ? '' : 's'} counted; ${count(notCounted)} more in scope not counted (below).`
    : `${count(r.counts.total)} open issue${r.counts.total === 1 ? '' : 's'} in scope.`);
  out.push('');
  const counts = [['level', 'open', 'threshold', 'result']];
  for (const key of [...LEVELS, 'total'] as CountKey[]) {
    counts.push([key, String(r.counts[key]), thresholdText(r, key), rowFails(r, key) ? 'FAIL' : 'ok']);
  }
  const table = aligned(counts, new Set([1]));
  out.push(chalk.bold(table[0]), ...table.slice(1).map((l) => (l.endsWith('FAIL') ? chalk.red(l) : l)));
  const c = r.thresholds.cutoffs;
  out.push('');
  out.push(`Scope: ${scopeText(v.scope)}; read ${count(v.fetched)}${v.totalCount !== undefined ? ` of ${count(v.totalCount)} (totalCount)` : ' (no totalCount)'}.`);
  if (v.organization) out.push(organizationText(v.organization));
  out.push(verifiedText(v.verified));
  if (r.counts.total === 0 && v.verified.unverifiedFilters.length > 0) {
    out.push(`Note: ${v.verified.unverifiedFilters.join(', ')} filter the scope and cannot be verified (a misspelt value matches nothing).`);
  }
  out.push(`Levels by score: critical >= ${c.critical}, high >= ${c.high}, medium >= ${c.medium}, low >= ${c.low}, info below.`);
  if (r.ignored > 0) out.push(`${r.ignored} listed issue${r.ignored === 1 ? ' was' : 's were'} outside the scope (another repository, organization or project) and not counted.`);
  out.push(...doubtNotes(v).map((l) => cellText(l)));
  out.push(...siftedLines(v.sifted, r.counts.total));
  out.push(...omitted);
  if (r.breaking.length > 0) {
    const shown = firstOf(r.breaking, MAX_LISTED);
    const title = `Issues that break the gate (${r.breaking.length}${r.breaking.length > MAX_LISTED ? `, first ${MAX_LISTED} shown` : ''}):`;
    // In a CI log the list folds away under its title (host A's groups, host B's sections).
    const group = groupLines(ci, 'svc_gate_breaking', title, wallClock(ctx));
    out.push('');
    if (group.start !== '') own.add(out.length);
    out.push(group.start === '' ? title : group.start.replace(/\n$/, ''));
    const rows = [['level', 'score', 'id', 'location', 'title']];
    for (const i of shown) rows.push([i.level, scoreText(i), cellText(i.id), cellText(locationText(i)) || '-', cellText(titleOf(i))]);
    const lines = width ? fitted(rows, width - 2) : aligned(rows, new Set([1]));
    out.push(chalk.bold(lines[0]), ...lines.slice(1));
    if (r.breaking.length > MAX_LISTED) out.push(`  ...and ${r.breaking.length - MAX_LISTED} more (all of them: -o json, --sarif or --junit).`);
    if (group.end !== '') {
      own.add(out.length);
      out.push(group.end.replace(/\n$/, ''));
    }
  }
  // Prose longer than a terminal wraps, its continuation lines indented under the first.
  const fit = (line: string): string[] => {
    if (!width || displayWidth(line.replace(/\u001b\[[0-9;]*m/g, '')) <= width) return [line];
    const indent = /^\s*(- )?/.exec(line)![0].length;
    const [first, ...rest] = wrap(line.trimStart(), width - indent);
    return [' '.repeat(indent - (line.trimStart().startsWith('- ') ? 2 : 0)) + first, ...rest.map((l) => ' '.repeat(indent) + l)];
  };
  const parts: Array<{ text: string; command: boolean }> = [];
  let text = '';
  out.forEach((line, i) => {
    if (!own.has(i)) { text += fit(line).map((l) => `${l}\n`).join(''); return; }
    if (text !== '') parts.push({ text, command: false });
    parts.push({ text: `${line}\n`, command: true });
    text = '';
  });
  if (text !== '') parts.push({ text, command: false });
  return parts;
}

/**
 * The listed issues fitted to a terminal: ids whole, titles then locations cut (a location from the
 * left, `…/import.js:22`, so its file and line stay), two spaces apart.
 */
function fitted(rows: string[][], width: number): string[] {
  const natural = rows[0].map((_, i) => Math.max(...rows.map((row) => displayWidth(row[i]))));
  const kinds = [{ kind: 'text', header: 'level' }, { kind: 'number', header: 'score' }, { kind: 'key', header: 'id' }, { kind: 'path', header: 'location' }, { kind: 'title', header: 'title' }] as const;
  const widths = fitWidths(natural, width, kinds);
  return rows.map((row) => '  ' + row.map((cell, i) => {
    // The header row is words, not a path.
    const text = kinds[i].kind === 'key' ? cell : kinds[i].kind === 'path' && row !== rows[0] ? clipPath(cell, widths[i]) : clip(cell, widths[i]);
    return i === row.length - 1 ? text : pad(text, widths[i], i === 1);
  }).join('  ').trimEnd());
}

/** "Verified: organization org_1, repositories repo_1, scan scan_1 (completed)." */
function verifiedText(v: VerifiedScope): string {
  const parts: string[] = [];
  if (v.organization !== undefined) parts.push(`organization ${cellText(v.organization)}`);
  if (v.repositories !== undefined) parts.push(`repositor${v.repositories.length === 1 ? 'y' : 'ies'} ${cellText(v.repositories.join(','))}`);
  if (v.project !== undefined) parts.push(`project ${cellText(v.project)}`);
  if (v.rule !== undefined) parts.push(`rule ${cellText(v.rule)}`);
  if (v.scan !== undefined) parts.push(`scan ${cellText(v.scan.id)} (${cellText(v.scan.status)})`);
  if (v.commit !== undefined) parts.push(`commit ${cellText(v.commit.sha)}, ${v.commit.scans.length === 0 ? 'its scan not shown (above)' : `scanned by ${v.commit.scans.map((x) => `${cellText(x.id)} (${cellText(x.status)})`).join(', ')}`}`);
  return parts.length === 0 ? 'Verified: no id named (the token\'s default organization).' : `Verified to exist: ${parts.join(', ')}.`;
}

const SCOPE_NAMES: Record<string, string> = {
  organizationId: 'organization', repositoryIds: 'repositories', scanId: 'scan', scanIds: 'scans', projectId: 'project',
  codeScanTypes: 'scan types', vulnerabilityClasses: 'classes', languages: 'languages', ruleId: 'rule', searchQuery: 'search',
};

export function scopeText(scope: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(scope)) {
    if (key === 'types' || value === undefined) continue;
    const text = Array.isArray(value) ? value.join(',') : typeof value === 'object' ? JSON.stringify(value) : String(value);
    parts.push(`${SCOPE_NAMES[key] ?? key} ${text}`);
  }
  return parts.length === 0 ? 'open issues of the token\'s default organization' : `open issues, ${parts.join(', ')}`;
}
