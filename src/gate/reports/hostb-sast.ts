/**
 * Host B's SAST report (its security report schema, version 15.x): what its merge request widget
 * and vulnerability report read. One vulnerability per counted issue (with a baseline: per new
 * issue), each with a stable id, the svc rule and the CWEs as identifiers, the file and line, the
 * severity by the gate's level, the description and, with --issue-url, the link to the issue.
 */
import { createHash } from 'node:crypto';
import type { GateIssue, GateResult } from '../tally.js';
import { slugOf } from './rule-help.js';
import { classText, cweNumbers, idText, descriptionOf, relativePath, spanOf, titleOf } from './common.js';
import { type Level } from '../../operations/levels.js';

const HOSTB_SAST_VERSION = '15.0.7';

type HostBSeverity = 'Critical' | 'High' | 'Medium' | 'Low' | 'Info';

interface HostBSastOptions {
  toolVersion: string;
  /** When the gate started and ended (ms). */
  startedAt: number;
  endedAt: number;
  /** Link to an issue from its id (`{id}` in a template), when known. */
  issueUrl?: (id: string) => string;
  /** Makes the list from a generator (the writer's LazyList, output/json-stream.ts); by default an array. */
  lazyList?: (make: () => Iterable<Record<string, unknown>>) => Array<Record<string, unknown>>;
}

const SEVERITY: Record<Level, HostBSeverity> = { critical: 'Critical', high: 'High', medium: 'Medium', low: 'Low', info: 'Info' };

/** "2026-11-22T15:04:05": the schema's time format (UTC, no zone, no fraction). */
export function schemaTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}

/** A UUID-shaped id derived from the issue id: the same issue gets the same id in every report. */
export function stableId(issueId: string): string {
  const h = createHash('sha256').update(`svc-issue:${issueId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** `svc/sql-injection` from a vulnerability class ("SQL Injection"), else `svc/cwe-89`, else `svc/unknown`. */
export function ruleSlug(issue: GateIssue): string {
  const cls = typeof issue.vulnClass === 'string' ? slugOf(issue.vulnClass) : '';
  if (cls !== '') return `svc/${cls}`;
  const [cwe] = cweNumbers(issue);
  return cwe === undefined ? 'svc/unknown' : `svc/cwe-${cwe}`;
}

const cut = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

function vulnerability(issue: GateIssue, o: HostBSastOptions): Record<string, unknown> {
  const rule = ruleSlug(issue);
  const identifiers: Array<Record<string, string>> = [
    { type: 'svc_rule', name: `svc rule ${classText(issue) ?? rule}`, value: rule },
    ...cweNumbers(issue).map((n) => ({ type: 'cwe', name: `CWE-${n}`, value: n, url: `https://cwe.mitre.org/data/definitions/${n}.html` })),
    { type: 'svc_issue', name: `svc issue ${idText(issue)}`, value: String(issue.id) },
  ];
  const location: Record<string, unknown> = {};
  const file = relativePath(issue.affectedFile);
  if (file !== undefined) {
    location.file = file;
    const span = spanOf(issue);
    if (span.startLine !== undefined) location.start_line = span.startLine;
    if (span.endLine !== undefined) location.end_line = span.endLine;
  }
  const v: Record<string, unknown> = {
    id: stableId(String(issue.id)),
    name: cut(titleOf(issue), 255),
    description: cut(descriptionOf(issue) ?? titleOf(issue), 1_048_576),
    severity: SEVERITY[issue.level],
    identifiers,
    location,
  };
  if (o.issueUrl) v.links = [{ name: `svc issue ${idText(issue)}`, url: o.issueUrl(String(issue.id)) }];
  return v;
}

function* vulnerabilities(result: GateResult, o: HostBSastOptions): Generator<Record<string, unknown>> {
  for (const issue of result.issues) yield vulnerability(issue, o);
}

export function toHostBSast(result: GateResult, o: HostBSastOptions): Record<string, unknown> {
  const vendor = { name: 'svc' };
  return {
    version: HOSTB_SAST_VERSION,
    scan: {
      analyzer: { id: 'svc', name: 'svc', version: o.toolVersion, vendor },
      scanner: { id: 'svc', name: 'svc (Code Security Scanning Service)', version: o.toolVersion, vendor },
      type: 'sast',
      start_time: schemaTime(o.startedAt),
      end_time: schemaTime(o.endedAt),
      status: 'success',
    },
    vulnerabilities: o.lazyList ? o.lazyList(() => vulnerabilities(result, o)) : [...vulnerabilities(result, o)],
  };
}
