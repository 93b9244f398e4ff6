/** SARIF 2.1.0 log of a gate result: one run, one rule per rule id, one result per counted issue. */
import type { GateIssue, GateResult } from '../verdict.js';
import { numericScore, type Level } from '../levels.js';
import { FINGERPRINT_SARIF_KEY } from '../baseline.js';
import { cweNumbers, descriptionOf, relativePath, spanOf, titleOf, type Span } from './common.js';

export const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** Key of the partial fingerprint that carries the service's issue id. */
export const FINGERPRINT_KEY = 'svcIssueId/v1';

export type SarifLevel = 'error' | 'warning' | 'note';

export interface SarifRule {
  id: string;
  name?: string;
  shortDescription: { text: string };
  properties: { tags: string[]; 'security-severity'?: string };
}

export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: { text: string };
  locations?: Array<{ physicalLocation: { artifactLocation: { uri: string }; region?: Span } }>;
  partialFingerprints: Record<string, string>;
  baselineState?: 'new' | 'unchanged';
  suppressions?: Array<{ kind: 'external'; status: 'accepted'; justification: string }>;
  properties: { issueId: string; score?: number; level: Level; breaking: boolean; cwes?: string[] };
}

export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: [
    {
      tool: { driver: { name: string; version?: string; informationUri?: string; rules: SarifRule[] } };
      results: SarifResult[];
      properties: { gate: { passed: boolean; counts: GateResult['counts']; violations: string[] } };
    },
  ];
}

export interface SarifOptions {
  /** With a baseline: results say new/unchanged, and the unchanged issues are listed too. */
  baseline?: boolean;
  unchanged?: GateIssue[];
  /** Issues the policy accepts: listed with a suppression and its reason. */
  suppressed?: Array<GateIssue & { suppression: { reason: string; expires: string; source: string } }>;
  toolName: string;
  toolVersion?: string;
  informationUri?: string;
}

/** critical and high are errors, medium warnings, low and info notes. */
export function sarifLevel(level: Level): SarifLevel {
  if (level === 'critical' || level === 'high') return 'error';
  return level === 'medium' ? 'warning' : 'note';
}

/** Rule id: the vulnerability class, else the first CWE ("CWE-89"), else "unknown". */
export function ruleIdOf(issue: GateIssue): string {
  if (typeof issue.vulnClass === 'string' && issue.vulnClass.trim() !== '') return issue.vulnClass.trim();
  const [cwe] = cweNumbers(issue);
  return cwe === undefined ? 'unknown' : `CWE-${cwe}`;
}

/** score/10, clamped to 0.0-10.0, as the string with one decimal that SARIF consumers read. */
export function securitySeverity(score: unknown): string | undefined {
  const n = numericScore(score);
  if (n === undefined) return undefined;
  return (Math.min(100, Math.max(0, n)) / 10).toFixed(1);
}

/** Percent-encodes each path segment so the uri is a valid URI reference. */
function toUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function buildRule(id: string, issues: GateIssue[]): SarifRule {
  const cwes = [...new Set(issues.flatMap(cweNumbers))];
  const tags = ['security', ...cwes.map((n) => `external/cwe/cwe-${n}`)];
  const scores = issues.map((i) => numericScore(i.score)).filter((n): n is number => n !== undefined);
  // A rule takes the highest score of its issues; with no valid score the property is left out
  // (the results still carry level "error", as such issues gate as critical).
  const severity = scores.length > 0 ? securitySeverity(Math.max(...scores)) : undefined;
  const rule: SarifRule = { id, shortDescription: { text: id }, properties: { tags } };
  if (severity !== undefined) rule.properties['security-severity'] = severity;
  return rule;
}

function buildResult(issue: GateIssue, ruleId: string, ruleIndex: number): SarifResult {
  const description = descriptionOf(issue);
  const title = titleOf(issue);
  const result: SarifResult = {
    ruleId,
    ruleIndex,
    level: sarifLevel(issue.level),
    message: { text: description === undefined ? title : `${title}\n\n${description}` },
    partialFingerprints: { [FINGERPRINT_KEY]: issue.id, ...(typeof issue.fingerprint === 'string' ? { [FINGERPRINT_SARIF_KEY]: issue.fingerprint } : {}) },
    properties: { issueId: issue.id, level: issue.level, breaking: issue.breaking },
  };
  const score = numericScore(issue.score);
  if (score !== undefined) result.properties.score = score;
  const cwes = cweNumbers(issue);
  if (cwes.length > 0) result.properties.cwes = cwes.map((n) => `CWE-${n}`);
  const file = relativePath(issue.affectedFile);
  if (file !== undefined) {
    const span = spanOf(issue);
    const physicalLocation: NonNullable<SarifResult['locations']>[number]['physicalLocation'] = {
      artifactLocation: { uri: toUri(file) },
    };
    if (span.startLine !== undefined) physicalLocation.region = span;
    result.locations = [{ physicalLocation }];
  }
  return result;
}

export function toSarif(result: GateResult, options: SarifOptions): SarifLog {
  const byRule = new Map<string, GateIssue[]>();
  const unchanged = options.unchanged ?? [];
  const suppressed = options.suppressed ?? [];
  const all = [...result.issues, ...unchanged, ...suppressed];
  for (const issue of all) {
    const id = ruleIdOf(issue);
    const list = byRule.get(id);
    if (list) list.push(issue);
    else byRule.set(id, [issue]);
  }
  const ruleIds = [...byRule.keys()];
  const rules = ruleIds.map((id) => buildRule(id, byRule.get(id) ?? []));
  const results = all.map((issue, n) => {
    const id = ruleIdOf(issue);
    const out = buildResult(issue, id, ruleIds.indexOf(id));
    if (options.baseline && n < result.issues.length + unchanged.length) out.baselineState = n < result.issues.length ? 'new' : 'unchanged';
    if (n >= result.issues.length + unchanged.length) {
      out.suppressions = [{ kind: 'external', status: 'accepted', justification: `${suppressed[n - result.issues.length - unchanged.length].suppression.reason}` }];
    }
    return out;
  });
  const driver: SarifLog['runs'][0]['tool']['driver'] = { name: options.toolName, rules };
  if (options.toolVersion !== undefined) driver.version = options.toolVersion;
  if (options.informationUri !== undefined) driver.informationUri = options.informationUri;
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: { driver },
        results,
        properties: { gate: { passed: result.passed, counts: result.counts, violations: result.violations } },
      },
    ],
  };
}
