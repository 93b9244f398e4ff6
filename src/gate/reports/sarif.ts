/**
 * SARIF 2.1.0 log of a gate result, made to pass the SARIF multitool's SARIF and code-scanning
 * (`--rule-kind "Gh;Sarif"`) checks with no error or warning, and to show in a code-scanning view
 * as svc decided:
 *
 * - One rule per vulnerability class and level, id `svc/<class>/<level>` (e.g.
 *   `svc/sql-injection/high`; a class-less issue takes its first CWE, `svc/cwe-89/high`, else
 *   `svc/unknown/high`). Code-scanning views read `security-severity` from the rule, not the result,
 *   so one rule per level is what makes each alert show at the level the gate gave it: critical 9.5,
 *   high 8.0, medium 5.5, low 2.0 (well inside their ranges: >= 9.0, 7.0-8.9, 4.0-6.9, 0.1-3.9). Info
 *   has no place on that scale: info rules carry no security-severity and their results are notes.
 * - Every rule has a display `name`, `fullDescription` and `help` (text and markdown: what the class
 *   is, how to fix it, links to its CWEs) and a `helpUri`.
 * - Every result has a location. An issue without `affectedFile` is placed at the repository root
 *   (`uri: "."`, line 1), since a code-scanning upload rejects a result without one.
 * - `partialFingerprints` carry the service's issue id, stable across runs and line moves, and the
 *   issue's fingerprint (rule, file, title) that a later `--baseline` matches when ids differ.
 * - With a baseline, each result has a `baselineState` (new / unchanged) and the unchanged issues are
 *   listed too; issues the policy file accepts are listed with a `suppressions` entry and its reason.
 */
import type { GateIssue, GateResult, IssueList } from '../tally.js';
import { classText, cweNumbers, descriptionOf, relativePath, spanOf, titleOf, type Span } from './common.js';
import { classHelp, cweUrl, slugOf } from './rule-help.js';
import { FINGERPRINT_SARIF_KEY } from '../baseline.js';
import { LEVELS, numericScore, type Level } from '../../operations/levels.js';

const SARIF_SCHEMA_URI = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';

/** Where the report points a reader to learn about svc (the package's page). */
export const INFORMATION_URI = 'https://www.npmjs.com/package/svc-cli';

/** Key of the partial fingerprint that carries the service's issue id. */
export const FINGERPRINT_KEY = 'svcIssueId/v1';

/** The uri of an issue that names no file: the repository root. */
const NO_FILE_URI = '.';

type SarifLevel = 'error' | 'warning' | 'note';

/** security-severity per gate level, well inside the code-scanning view's ranges; info has none. */
const SECURITY_SEVERITY: Readonly<Record<Level, string | undefined>> = Object.freeze({
  critical: '9.5', high: '8.0', medium: '5.5', low: '2.0', info: undefined,
});

interface SarifRule {
  id: string;
  name: string;
  shortDescription: { text: string };
  fullDescription: { text: string };
  help: { text: string; markdown: string };
  helpUri?: string;
  defaultConfiguration: { level: SarifLevel };
  properties: { tags: string[]; 'security-severity'?: string; level: Level };
}

type Region = Span & { startLine: number };

export interface SarifResult {
  ruleId: string;
  ruleIndex: number;
  level: SarifLevel;
  message: { text: string };
  locations: Array<{ physicalLocation: { artifactLocation: { uri: string }; region: Region } }>;
  partialFingerprints: Record<string, string>;
  /** With --baseline: whether the earlier report had the issue. */
  baselineState?: 'new' | 'unchanged';
  /** Issues the policy file accepts, with its reason. */
  suppressions?: Array<{ kind: 'external'; status: 'accepted'; justification: string }>;
  properties: { issueId: string; score?: number; level: Level; breaking: boolean; cwes?: string[]; noFile?: true };
}

interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: [
    {
      tool: { driver: { name: string; version?: string; semanticVersion?: string; informationUri: string; rules: SarifRule[] } };
      results: SarifResult[];
      columnKind: 'utf16CodeUnits';
      properties: { gate: { passed: boolean; counts: GateResult['counts']; violations: string[] }; svc?: { omittedResults: number; omittedReason: string } };
    },
  ];
}

interface SarifOptions {
  /** With a baseline: results say new/unchanged, and the unchanged issues are listed too. */
  baseline?: boolean;
  unchanged?: IssueList;
  /** Issues the policy accepts: listed with a suppression and its reason. */
  suppressed?: IssueList;
  toolName: string;
  toolVersion?: string;
  informationUri?: string;
  /**
   * Makes the results list from a generator: the writer's LazyList (output/json-stream.ts), whose
   * results are made only as they are written, for a report of tens of thousands of issues. It
   * must serialize as the array would; by default the results are an array.
   */
  lazyList?: (make: () => Iterable<SarifResult>) => SarifResult[];
  /** Results left out to fit the platform's limits (../caps.ts): recorded in the run's properties. */
  omitted?: { results: number; reason: string };
}

/** critical and high are errors, medium warnings, low and info notes. */
function sarifLevel(level: Level): SarifLevel {
  if (level === 'critical' || level === 'high') return 'error';
  return level === 'medium' ? 'warning' : 'note';
}

interface RuleClass {
  /** Slug: `sql-injection`, `cwe-89`, `unknown`. */
  slug: string;
  /** Display name: the class as the service names it, `CWE-89`, or `Unknown class`. */
  display: string;
}

function classOf(issue: GateIssue): RuleClass {
  const display = classText(issue);
  if (display !== undefined) {
    const slug = slugOf(display);
    if (slug !== '') return { slug, display };
  }
  const [cwe] = cweNumbers(issue);
  return cwe === undefined ? { slug: 'unknown', display: 'Unknown class' } : { slug: `cwe-${cwe}`, display: `CWE-${cwe}` };
}

/** Rule id of an issue: `svc/<class>/<level>`. */
function ruleIdOf(issue: GateIssue): string {
  return `svc/${classOf(issue).slug}/${issue.level}`;
}

/** score/10, clamped to 0.0-10.0, with one decimal: the score on a 0-10 scale, for display. */
export function securitySeverity(score: unknown): string | undefined {
  const n = numericScore(score);
  if (n === undefined) return undefined;
  return (Math.min(100, Math.max(0, n)) / 10).toFixed(1);
}

/** Percent-encodes each path segment so the uri is a valid URI reference. */
function toUri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/** One line of text fit for a message or description: controls out, spaces folded. */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').replace(/\s+/g, ' ').trim();
}

/** A sentence: ends with a period (the multitool wants messages to). */
function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** Markdown-safe text: punctuation that would start markup is escaped. */
function md(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+!|~&]/g, '\\$&');
}

function buildRule(cls: RuleClass, level: Level, found: Set<string>): SarifRule {
  const cwes = [...found].sort((a, b) => Number(a) - Number(b));
  const known = classHelp(cls.slug);
  const display = oneLine(cls.display);
  const what = known?.what ?? (cwes.length > 0
    ? `Issues the service classes as ${display} (${cwes.map((n) => `CWE-${n}`).join(', ')}).`
    : `Issues the service classes as ${display}.`);
  const fix = known?.fix ?? 'Read the issue\'s description and the CWE entries; `svc issues get ISSUE_ID` shows the code, and `svc issues generate-patch ISSUE_ID` asks the service for a fix.';
  const levelText = `svc gate level ${level}${SECURITY_SEVERITY[level] ? ` (security-severity ${SECURITY_SEVERITY[level]})` : ''}`;
  const cweText = cwes.map((n) => `CWE-${n}: ${cweUrl(n)}`).join('\n');
  const cweMd = cwes.map((n) => `- [CWE-${n}](${cweUrl(n)})`).join('\n');
  const help = {
    text: [`${display}: ${what}`, `How to fix: ${fix}`, cweText ? `References:\n${cweText}` : '', levelText + '.'].filter(Boolean).join('\n\n'),
    markdown: [`## ${md(display)}`, md(what), '### How to fix', md(fix), cweMd ? `### References\n${cweMd}` : '', `_${md(levelText)}._`].filter(Boolean).join('\n\n'),
  };
  const rule: SarifRule = {
    id: `svc/${cls.slug}/${level}`,
    name: display,
    shortDescription: { text: sentence(`${display} (${level})`) },
    fullDescription: { text: sentence(what) },
    help,
    defaultConfiguration: { level: sarifLevel(level) },
    properties: { tags: ['security', ...cwes.map((n) => `external/cwe/cwe-${n}`)], level },
  };
  if (cwes.length > 0) rule.helpUri = cweUrl(cwes[0]);
  const severity = SECURITY_SEVERITY[level];
  if (severity !== undefined) rule.properties['security-severity'] = severity;
  return rule;
}

function buildResult(issue: GateIssue, ruleId: string, ruleIndex: number): SarifResult {
  const description = descriptionOf(issue);
  const title = titleOf(issue);
  const file = relativePath(issue.affectedFile);
  const span = spanOf(issue);
  const region: Region = file !== undefined && span.startLine !== undefined ? { ...span, startLine: span.startLine } : { startLine: 1 };
  const result: SarifResult = {
    ruleId,
    ruleIndex,
    level: sarifLevel(issue.level),
    message: { text: sentence(description === undefined ? title : `${sentence(title)}\n\n${description}`) },
    locations: [{ physicalLocation: { artifactLocation: { uri: file === undefined ? NO_FILE_URI : toUri(file) }, region } }],
    partialFingerprints: { [FINGERPRINT_KEY]: issue.id, ...(typeof issue.fingerprint === 'string' ? { [FINGERPRINT_SARIF_KEY]: issue.fingerprint } : {}) },
    properties: { issueId: issue.id, level: issue.level, breaking: issue.breaking },
  };
  const score = numericScore(issue.score);
  if (score !== undefined) result.properties.score = score;
  const cwes = cweNumbers(issue);
  if (cwes.length > 0) result.properties.cwes = cwes.map((n) => `CWE-${n}`);
  if (file === undefined) result.properties.noFile = true;
  return result;
}

export function toSarif(result: GateResult, options: SarifOptions): SarifLog {
  // Rules in a stable order: by class slug, then level from critical to info. A first pass over the
  // issues finds them (and their CWEs), so that the results can be made one at a time afterwards.
  const byRule = new Map<string, { cls: RuleClass; level: Level; cwes: Set<string> }>();
  // Counted issues (new, with a baseline), then those in the baseline, then those the policy accepts.
  const groups: Array<[IssueList, 'new' | 'unchanged' | 'suppressed']> = [[result.issues, 'new'], [options.unchanged ?? [], 'unchanged'], [options.suppressed ?? [], 'suppressed']];
  for (const [list] of groups) {
    for (const issue of list) {
      const id = ruleIdOf(issue);
      let entry = byRule.get(id);
      if (!entry) byRule.set(id, entry = { cls: classOf(issue), level: issue.level, cwes: new Set() });
      for (const cwe of cweNumbers(issue)) entry.cwes.add(cwe);
    }
  }
  const ordered = [...byRule.entries()].sort(([, a], [, b]) =>
    (a.cls.slug < b.cls.slug ? -1 : a.cls.slug > b.cls.slug ? 1 : 0) || LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level));
  const index = new Map(ordered.map(([id], i) => [id, i]));
  const rules = ordered.map(([, e]) => buildRule(e.cls, e.level, e.cwes));
  const resultOf = (issue: GateIssue, group: 'new' | 'unchanged' | 'suppressed') => {
    const id = ruleIdOf(issue);
    const out = buildResult(issue, id, index.get(id)!);
    if (group === 'suppressed') {
      out.suppressions = [{ kind: 'external', status: 'accepted', justification: (issue as GateIssue & { suppression: { reason: string } }).suppression.reason }];
    } else if (options.baseline) {
      out.baselineState = group;
    }
    return out;
  };
  function* make(): Generator<SarifResult> {
    for (const [list, group] of groups) for (const issue of list) yield resultOf(issue, group);
  }
  const results: SarifResult[] = options.lazyList ? options.lazyList(make) : [...make()];
  const driver: SarifLog['runs'][0]['tool']['driver'] = { name: options.toolName, informationUri: options.informationUri ?? INFORMATION_URI, rules };
  if (options.toolVersion !== undefined) {
    driver.version = options.toolVersion;
    if (/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(options.toolVersion)) driver.semanticVersion = options.toolVersion;
  }
  const properties: SarifLog['runs'][0]['properties'] = { gate: { passed: result.passed, counts: result.counts, violations: result.violations } };
  if (options.omitted && options.omitted.results > 0) properties.svc = { omittedResults: options.omitted.results, omittedReason: options.omitted.reason };
  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [{ tool: { driver }, results, columnKind: 'utf16CodeUnits', properties }],
  };
}
