import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { evaluateGate } from '../../../../src/gate/tally.js';
import { stripInvalidXml, toJunit, toJunitError, xmlAttr } from '../../../../src/gate/reports/junit.js';
import { ALL, hostile, lowOne, sqlInjection } from '../../../fixtures/reports/issues.js';

interface Failure {
  '#text'?: string;
  '@_message': string;
  '@_type': string;
}
interface TestCase {
  '@_classname': string;
  '@_name': string;
  '@_file'?: string;
  '@_line'?: string;
  failure?: Failure;
}
interface Parsed {
  testsuites: {
    '@_tests': string;
    '@_failures': string;
    testsuite: { '@_name': string; '@_tests': string; '@_failures': string; testcase: TestCase[] };
  };
}

function parse(xml: string): Parsed['testsuites']['testsuite'] & { root: Parsed['testsuites'] } {
  expect(XMLValidator.validate(xml)).toBe(true);
  const parser = new XMLParser({
    ignoreAttributes: false,
    isArray: (name) => name === 'testcase',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    processEntities: true,
    htmlEntities: true,
  });
  const doc = parser.parse(xml) as Parsed;
  return { ...doc.testsuites.testsuite, root: doc.testsuites };
}

describe('toJunit', () => {
  const result = evaluateGate(ALL, { failOn: 'high' });
  const xml = toJunit(result);
  const suite = parse(xml);

  it('has one suite with a test case per open issue plus the thresholds case', () => {
    expect(suite['@_name']).toBe('svc gate');
    expect(suite.testcase).toHaveLength(7);
    expect(suite['@_tests']).toBe('7');
    expect(suite.root['@_tests']).toBe('7');
  });

  it('fails breaking issues and the thresholds case', () => {
    const failed = suite.testcase.filter((t) => t.failure !== undefined);
    // sql (critical), nofile (high), hostile (88.5 high), noscore (critical) + thresholds
    expect(failed).toHaveLength(5);
    expect(suite['@_failures']).toBe('5');
    const gate = suite.testcase.at(-1);
    expect(gate?.['@_name']).toBe('gate thresholds');
    expect(gate?.failure?.['@_type']).toBe('gate');
    expect(gate?.failure?.['@_message']).toContain('4 issues at high or above');
  });

  it('names cases by issue id and title (stable across runs) under the repository; the location in file/line', () => {
    const sql = suite.testcase[0];
    expect(sql['@_classname']).toBe('acme/api');
    expect(sql['@_name']).toBe('iss-sql: SQL injection in user lookup');
    expect(sql['@_file']).toBe('src/db/users.ts');
    expect(sql['@_line']).toBe('42');
    expect(sql.failure?.['@_type']).toBe('critical');
    expect(sql.failure?.['#text']).toContain('score: 95');
    expect(sql.failure?.['#text']).toContain('cwes: CWE-89');
    expect(sql.failure?.['#text']).toContain('User input reaches a raw query.');
    const low = suite.testcase.find((t) => t['@_name'].includes('Verbose error'));
    expect(low?.['@_classname']).toBe('svc');
    expect(low?.['@_name']).toBe('iss-low: Verbose error');
    expect(low?.['@_file']).toBeUndefined();
    // The same issue moved 30 lines down and rescored keeps its name: the CI's history follows it.
    const moved = parse(toJunit(evaluateGate([{ ...sqlInjection, startLine: 72, endLine: 74, score: 75 }], { failOn: 'high' })));
    expect(moved.testcase[0]['@_name']).toBe(sql['@_name']);
    expect(moved.testcase[0]['@_line']).toBe('72');
    expect(low?.failure).toBeUndefined();
  });

  it('escapes < & " and strips characters XML 1.0 forbids', () => {
    expect(xml).not.toMatch(/[\u0001\u0008\u001B\uFFFE]/);
    expect(xml).not.toContain('<script>');
    const bad = suite.testcase.find((t) => t['@_classname'] === 'acme/<web>&"co"');
    expect(bad).toBeDefined();
    expect(bad?.['@_name']).toContain('<script>alert("x")</script> & \'q\' | pipe line2');
    expect(bad?.['@_file']).toBe('web/a b#c%d/x,y:z.ts');
    expect(bad?.failure?.['@_message']).toContain('<script>alert("x")</script>');
    expect(bad?.failure?.['#text']).toContain('id: iss-<&">');
    expect(bad?.failure?.['#text']).toContain(']]> `code`');
    expect(bad?.failure?.['#text']).toMatch(/pipe\r?\nline2/); // line breaks kept in the body
  });

  it('passes the thresholds case when the gate passes', () => {
    const ok = parse(toJunit(evaluateGate([lowOne, sqlInjection], { failOn: 'critical', max: { critical: 1 } })));
    expect(ok.testcase.at(-1)?.failure).toBeDefined(); // fail-on critical still breaks
    const passed = parse(toJunit(evaluateGate([lowOne, sqlInjection], { max: { critical: 1 } })));
    expect(passed['@_failures']).toBe('0');
    expect(passed.testcase.every((t) => t.failure === undefined)).toBe(true);
    expect(passed.testcase.at(-1)?.['@_name']).toBe('gate thresholds');
  });

  it('is valid with no issues', () => {
    const empty = parse(toJunit(evaluateGate([])));
    expect(empty.testcase).toHaveLength(1);
  });

  it('escapes a lone hostile issue on its own', () => {
    const one = toJunit(evaluateGate([hostile], { failOn: 'info' }));
    expect(XMLValidator.validate(one)).toBe(true);
  });

  it('cleans the id, the repository and the class as it cleans the title (C1 sequences, bidi controls)', () => {
    const issue = {
      ...sqlInjection, id: 'iss_1\u001b[2J', repositoryName: 'web\u009b2J\u202eX',
      vulnClass: 'SQLi\u009d52;c;ZXZpbA==\u0007', generatedTitle: undefined,
    };
    const xml = toJunit(evaluateGate([issue], { failOn: 'high' }));
    // eslint-disable-next-line no-control-regex
    expect(xml).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    const [tc] = parse(xml).testcase;
    expect(tc['@_classname']).toBe('webX');
    expect(tc['@_name']).toBe('iss_1: SQLi');
    expect(tc.failure?.['#text']).toContain('id: iss_1\n');
    expect(tc.failure?.['#text']).toContain('class: SQLi\n');
  });

  it('cleans the message of an undecided gate', () => {
    const xml = toJunitError('orgs/list failed: HTTP 400: bad \u009d8;;http://x\u0007 \u202eY');
    // eslint-disable-next-line no-control-regex
    expect(xml).not.toMatch(/[\u007f-\u009f\u202a-\u202e]/);
    expect(xml).toContain('HTTP 400: bad  Y');
  });
});

describe('xml helpers', () => {
  it('escapes attributes', () => {
    expect(xmlAttr(`a<b>&"c"'d'\n\t`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&apos;d&apos;&#10;&#9;');
  });

  it('strips illegal characters but keeps tab, newlines and astral characters', () => {
    expect(stripInvalidXml('a\u0000b\u0007c\td\ne\rf\uD800g\uFFFFh😀')).toBe('abc\td\ne\rfgh😀');
  });
});
