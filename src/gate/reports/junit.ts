/**
 * JUnit XML of a gate result: a test case per counted issue plus one for the thresholds.
 *
 * Test case names stay the same from run to run, so a CI's test history follows an issue: the
 * issue id and its title (`iss_123: SQL injection in user lookup`), never its line or level, which
 * change as code moves or scores are revised. The location is in the `file` and `line` attributes,
 * the level in the failure's `type`.
 */
import type { GateIssue, GateResult } from '../tally.js';
import { classText, cweNumbers, descriptionOf, idText, locationText, relativePath, scoreText, spanOf, titleOf } from './common.js';
import { stripControls } from '../../core/sanitize.js';

/** Removes characters XML 1.0 does not allow (controls other than tab/LF/CR, lone surrogates, U+FFFE/F). */
export function stripInvalidXml(value: string): string {
  return value.replace(/[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '');
}

/** Escapes text content. */
function xmlText(value: string): string {
  return stripInvalidXml(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes an attribute value (double-quoted); tab and line breaks are kept as character references. */
export function xmlAttr(value: string): string {
  return xmlText(value)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

// Every text from the service (id, repository, class, title, description) is cleaned by the
// sanitizer (stripControls via ./common.ts) before the XML escaping: stripInvalidXml alone keeps C1
// controls (an 8-bit CSI or OSC) and bidi overrides, which a CI's test view or a terminal acts on.

/** `<id>: <title>`: stable across runs. */
function testcaseName(issue: GateIssue): string {
  return `${idText(issue)}: ${titleOf(issue)}`;
}

/** ` file="…" line="…"` where the issue names a file (and a valid line). */
function locationAttrs(issue: GateIssue): string {
  const file = relativePath(issue.affectedFile);
  if (file === undefined) return '';
  const line = spanOf(issue).startLine;
  return ` file="${xmlAttr(file)}"${line === undefined ? '' : ` line="${line}"`}`;
}

function classnameOf(issue: GateIssue): string {
  const repo = typeof issue.repositoryName === 'string' ? stripControls(issue.repositoryName).replace(/\s+/g, ' ').trim() : '';
  return repo !== '' ? repo : 'svc';
}

function details(issue: GateIssue): string {
  const lines = [
    `id: ${idText(issue)}`,
    `level: ${issue.level}`,
    `score: ${scoreText(issue)}`,
  ];
  const cls = classText(issue);
  if (cls !== undefined) lines.push(`class: ${cls}`);
  const cwes = cweNumbers(issue);
  if (cwes.length > 0) lines.push(`cwes: ${cwes.map((n) => `CWE-${n}`).join(', ')}`);
  const where = locationText(issue);
  if (where !== '') lines.push(`location: ${where}`);
  const description = descriptionOf(issue);
  if (description !== undefined) lines.push('', description);
  return lines.join('\n');
}

function testcase(issue: GateIssue): string {
  const open = `    <testcase classname="${xmlAttr(classnameOf(issue))}" name="${xmlAttr(testcaseName(issue))}"${locationAttrs(issue)}`;
  if (!issue.breaking) return `${open}/>`;
  const message = `${titleOf(issue)} (score ${scoreText(issue)})`;
  return [
    `${open}>`,
    `      <failure message="${xmlAttr(message)}" type="${issue.level}">${xmlText(details(issue))}</failure>`,
    '    </testcase>',
  ].join('\n');
}

function thresholdsCase(result: GateResult): string {
  const open = '    <testcase classname="svc" name="gate thresholds"';
  if (result.passed) return `${open}/>`;
  const message = `gate failed: ${result.violations.join('; ')}`;
  return [
    `${open}>`,
    `      <failure message="${xmlAttr(message)}" type="gate">${xmlText(result.violations.join('\n'))}</failure>`,
    '    </testcase>',
  ].join('\n');
}

export function toJunit(result: GateResult): string {
  return [...junitChunks(result)].join('');
}

/** toJunit's text in pieces (a line each), made as they are written: never whole in memory. */
export function* junitChunks(result: GateResult): Generator<string> {
  const tests = result.issues.length + 1;
  // The breaking list is the kept issues that break: as many as the issues marked so.
  const failures = result.breaking.length + (result.passed ? 0 : 1);
  const counts = `tests="${tests}" failures="${failures}" errors="0" skipped="0"`;
  yield '<?xml version="1.0" encoding="UTF-8"?>\n';
  yield `<testsuites name="svc" ${counts}>\n`;
  yield `  <testsuite name="svc gate" ${counts}>\n`;
  for (const issue of result.issues) yield `${testcase(issue)}\n`;
  yield `${thresholdsCase(result)}\n`;
  yield '  </testsuite>\n';
  yield '</testsuites>\n';
}

/**
 * JUnit XML for a gate that could not be decided (auth, network, incomplete listing): one test case
 * with an `<error>`, so the CI's test view shows the run as broken, never as passed.
 */
export function toJunitError(message: string): string {
  const counts = 'tests="1" failures="0" errors="1" skipped="0"';
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="svc" ${counts}>`,
    `  <testsuite name="svc gate" ${counts}>`,
    '    <testcase classname="svc" name="gate thresholds">',
    `      <error message="${xmlAttr(`gate could not be decided: ${stripControls(message)}`)}" type="error">${xmlText(stripControls(message))}</error>`,
    '    </testcase>',
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
