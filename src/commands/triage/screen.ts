/**
 * One screen of `svc issues triage`, as lines that fit the terminal (width x height): the issue's
 * title, level, status, file:line, code segment and validation assessment, the keys, and the last
 * action's outcome. Pure: the loop (run.ts) draws it.
 */
import { stripControls } from '../../core/sanitize.js';

export interface TriageIssue {
  id: string;
  generatedTitle?: string;
  score?: number;
  status?: string;
  affectedFile?: string;
  startLine?: number;
  sastCodeSegment?: string;
  validationSecurityAssessment?: string;
  repositoryName?: string;
  vulnClass?: string;
  [key: string]: unknown;
}

const KEYS = 'f false positive  t true positive  a archive  p patch  s skip  o detail  u undo  q quit';

/** critical 90-100, high 70-89, medium 40-69, low 10-39, info below (field notes). */
function level(score: number | undefined): string {
  if (score === undefined) return 'unknown';
  return score >= 90 ? 'critical' : score >= 70 ? 'high' : score >= 40 ? 'medium' : score >= 10 ? 'low' : 'info';
}

/** Text cut to `width` columns (control characters out, tabs as spaces). */
function fit(text: string, width: number): string {
  const t = stripControls(text.replace(/\t/g, '  '));
  return t.length > width ? `${t.slice(0, Math.max(0, width - 1))}…` : t;
}

/** Words wrapped to `width`. */
function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const para of stripControls(text).split(/\r?\n/)) {
    let line = '';
    for (const word of para.split(/\s+/).filter(Boolean)) {
      if (line && line.length + 1 + word.length > width) { out.push(line); line = ''; }
      line = line ? `${line} ${word}` : word.slice(0, width);
    }
    out.push(line);
  }
  return out;
}

export function issueScreen(issue: TriageIssue, at: { index: number; total: number }, width: number, height: number, status: string): string[] {
  const w = Math.max(20, width);
  const head = [
    fit(`svc issues triage  ${at.index + 1}/${at.total}  ${issue.id}`, w),
    fit(`${level(issue.score).toUpperCase()} ${issue.score ?? '?'}  ${issue.status ?? ''}  ${issue.vulnClass ?? ''}  ${issue.repositoryName ?? ''}`, w),
    ...wrap(issue.generatedTitle ?? '(no title)', w).slice(0, 2),
    fit(`${issue.affectedFile ?? '?'}:${issue.startLine ?? '?'}`, w),
    '',
  ];
  const foot = ['', ...wrap(KEYS, w), fit(status, w)];
  const room = Math.max(0, height - head.length - foot.length);
  const code = (issue.sastCodeSegment ?? '').split(/\r?\n/).map((l) => fit(`  ${l}`, w)).filter((l, i, a) => l.trim() !== '' || i < a.length - 1);
  const assessment = issue.validationSecurityAssessment ? ['Assessment:', ...wrap(issue.validationSecurityAssessment, w - 2).map((l) => `  ${l}`)] : [];
  // The code first, then the assessment, as much of each as fits (half the room each when both are long).
  const codeRoom = assessment.length ? Math.min(code.length, Math.max(Math.ceil(room / 2), room - assessment.length - 1)) : room;
  const body = [...code.slice(0, codeRoom)];
  if (assessment.length && room - body.length > 1) body.push('', ...assessment.slice(0, room - body.length - 1));
  return [...head, ...body.slice(0, room), ...Array(Math.max(0, room - body.length)).fill(''), ...foot].slice(0, height);
}
