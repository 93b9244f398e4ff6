/**
 * Host B's Code Quality report: a JSON array its merge requests show on every tier. Each counted
 * issue (with a baseline: each new one) is one entry; the fingerprint is the issue's own (rule,
 * file, title: stable across scans and lines), made unique within the report. An issue without a
 * file is reported at the repository root ('.', line 1): the format requires a path.
 */
import { createHash } from 'node:crypto';
import type { GateIssue, GateResult } from '../tally.js';
import { fingerprintOf } from '../fingerprint.js';
import { idText, relativePath, scoreText, spanOf, titleOf } from './common.js';
import { ruleSlug } from './hostb-sast.js';
import { type Level } from '../../operations/levels.js';

type CodeQualitySeverity = 'info' | 'minor' | 'major' | 'critical' | 'blocker';

const SEVERITY: Record<Level, CodeQualitySeverity> = { critical: 'blocker', high: 'critical', medium: 'major', low: 'minor', info: 'info' };

interface CodeQualityEntry {
  description: string;
  check_name: string;
  fingerprint: string;
  severity: CodeQualitySeverity;
  location: { path: string; lines: { begin: number; end?: number } };
}

/**
 * `lazyList`: makes the list from a generator (the writer's LazyList, output/json-stream.ts: its
 * entries are made only as they are written); by default an array.
 */
export function toCodeQuality(result: GateResult, o: { lazyList?: (make: () => Iterable<CodeQualityEntry>) => CodeQualityEntry[] } = {}): CodeQualityEntry[] {
  const make = () => entries(result);
  return o.lazyList ? o.lazyList(make) : [...make()];
}

function* entries(result: GateResult): Generator<CodeQualityEntry> {
  // A fingerprint that comes twice gets a number: counted over one writing, from its start.
  const used = new Map<string, number>();
  for (const issue of result.issues) yield entry(issue, used);
}

function entry(issue: GateIssue, used: Map<string, number>): CodeQualityEntry {
  const base = typeof issue.fingerprint === 'string' ? issue.fingerprint : fingerprintOf(issue);
  const n = (used.get(base) ?? 0) + 1;
  used.set(base, n);
  const fingerprint = createHash('md5').update(n === 1 ? base : `${base}#${n}`).digest('hex');
  const span = spanOf(issue);
  const lines: CodeQualityEntry['location']['lines'] = { begin: span.startLine ?? 1 };
  if (span.endLine !== undefined && span.endLine > lines.begin) lines.end = span.endLine;
  return {
    description: `[${issue.level}] ${titleOf(issue)} (score ${scoreText(issue)}, svc issue ${idText(issue)})`,
    check_name: ruleSlug(issue),
    fingerprint,
    severity: SEVERITY[issue.level],
    location: { path: relativePath(issue.affectedFile) ?? '.', lines },
  };
}
