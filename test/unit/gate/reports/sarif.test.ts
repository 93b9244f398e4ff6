import { describe, expect, it } from 'vitest';
import { evaluateGate } from '../../../../src/gate/tally.js';
import { FINGERPRINT_KEY, INFORMATION_URI, securitySeverity, toSarif } from '../../../../src/gate/reports/sarif.js';
import { ALL, HOSTILE, cweOnly, hostile, noFile, noScore, sqlInjection } from '../../../fixtures/reports/issues.js';
import { oasisRegionProblems, schemaErrors } from './sarif-schema.js';

const OPTIONS = { toolName: 'svc', toolVersion: '0.1.0', informationUri: 'https://example.com/svc' };

function build(issues = ALL) {
  return toSarif(evaluateGate(issues, { failOn: 'high' }), OPTIONS);
}

function resultFor(log: ReturnType<typeof build>, id: string) {
  const found = log.runs[0].results.find((r) => r.partialFingerprints[FINGERPRINT_KEY] === id);
  if (!found) throw new Error(`no result for ${id}`);
  return found;
}

describe('toSarif against the official SARIF 2.1.0 schema', () => {
  it('validates, with issues lacking a file, with CWEs only, without score and with hostile text', () => {
    const log = build();
    expect(schemaErrors(log)).toEqual([]);
    expect(oasisRegionProblems(log)).toEqual([]);
    // survives a round trip through JSON text
    expect(schemaErrors(JSON.parse(JSON.stringify(log)))).toEqual([]);
  });

  it('validates an empty result', () => {
    const log = toSarif(evaluateGate([]), { toolName: 'svc' });
    expect(schemaErrors(log)).toEqual([]);
    expect(log.runs[0].results).toEqual([]);
    expect(log.runs[0].tool.driver).toEqual({ name: 'svc', informationUri: INFORMATION_URI, rules: [] });
  });

  it('the validator does reject a broken log', () => {
    const log = build() as unknown as { runs: Array<{ results: Array<Record<string, unknown>> }> };
    log.runs[0].results[0].level = 'fatal';
    expect(schemaErrors(log).length).toBeGreaterThan(0);
    const badUri = build([hostile]);
    const loc = badUri.runs[0].results[0].locations[0].physicalLocation;
    loc.artifactLocation.uri = 'web/a b#c%d';
    expect(schemaErrors(badUri).map((e) => e.message)).toContain('must match format "uri-reference"');
    const noRuns = { version: '2.1.0' };
    expect(schemaErrors(noRuns).length).toBeGreaterThan(0);
  });
});

describe('toSarif content', () => {
  const log = build();
  const run = log.runs[0];

  it('has one run with the tool driver', () => {
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    expect(run.tool.driver.name).toBe('svc');
    expect(run.tool.driver.version).toBe('0.1.0');
    expect(run.tool.driver.informationUri).toBe('https://example.com/svc');
    expect(run.tool.driver.semanticVersion).toBe('0.1.0');
  });

  it('has one result per counted issue', () => {
    expect(run.results).toHaveLength(6);
    expect(run.results.map((r) => r.partialFingerprints[FINGERPRINT_KEY])).not.toContain('iss-patched');
  });

  it('has one rule per class and level, with a stable machine id and the display name', () => {
    expect(run.tool.driver.rules.map((r) => [r.id, r.name])).toEqual([
      ['svc/cwe-22/medium', 'CWE-22'],
      ['svc/hardcoded-secret/high', 'Hardcoded Secret'],
      ['svc/sql-injection/critical', 'SQL Injection'],
      ['svc/unknown/critical', 'Unknown class'],
      ['svc/unknown/low', 'Unknown class'],
      ['svc/xss-img/high', 'XSS <img>'],
    ]);
    for (const result of run.results) {
      expect(run.tool.driver.rules[result.ruleIndex].id).toBe(result.ruleId);
    }
    expect(resultFor(log, 'iss-noscore').ruleId).toBe('svc/unknown/critical');
    expect(resultFor(log, 'iss-low').ruleId).toBe('svc/unknown/low');
  });

  it('gives every rule a full description and help in text and markdown with CWE links', () => {
    for (const rule of run.tool.driver.rules) {
      expect(rule.fullDescription.text.length).toBeGreaterThan(10);
      expect(rule.help.text).toContain('How to fix');
      expect(rule.help.markdown).toContain('### How to fix');
    }
    const sql = run.tool.driver.rules.find((r) => r.id === 'svc/sql-injection/critical')!;
    expect(sql.help.markdown).toContain('[CWE-89](https://cwe.mitre.org/data/definitions/89.html)');
    expect(sql.helpUri).toBe('https://cwe.mitre.org/data/definitions/89.html');
    expect(sql.fullDescription.text).toMatch(/query/);
    expect(run.tool.driver.informationUri).toMatch(/^https:\/\//);
  });

  it('tags rules with security and CWE ids; security-severity is the gate level, well inside the viewer\'s range', () => {
    const byId = (id: string) => run.tool.driver.rules.find((r) => r.id === id)!;
    expect(byId('svc/sql-injection/critical').properties.tags).toEqual(['security', 'external/cwe/cwe-89']);
    expect(byId('svc/cwe-22/medium').properties.tags).toEqual(['security', 'external/cwe/cwe-22', 'external/cwe/cwe-23']);
    // The code-scanning view: >= 9.0 critical, 7.0-8.9 high, 4.0-6.9 medium, 0.1-3.9 low
    const range: Record<string, [number, number]> = { critical: [9.0, 10], high: [7.0, 8.9], medium: [4.0, 6.9], low: [0.1, 3.9] };
    for (const rule of run.tool.driver.rules) {
      const level = rule.properties.level;
      const sev = rule.properties['security-severity'];
      if (level === 'info') { expect(sev).toBeUndefined(); continue; }
      const [lo, hi] = range[level];
      expect(Number(sev)).toBeGreaterThanOrEqual(lo + 0.3);
      expect(Number(sev)).toBeLessThanOrEqual(hi - 0.3);
    }
    // Every result shows at the level the gate gave it: its rule carries that level.
    for (const result of run.results) {
      expect(run.tool.driver.rules[result.ruleIndex].properties.level).toBe(result.properties.level);
    }
  });

  it('maps the gate level to the result level', () => {
    expect(resultFor(log, 'iss-sql').level).toBe('error');
    expect(resultFor(log, 'iss-nofile').level).toBe('error'); // high
    expect(resultFor(log, 'iss-cwe').level).toBe('warning'); // medium
    expect(resultFor(log, 'iss-low').level).toBe('note');
    expect(resultFor(log, 'iss-noscore').level).toBe('error'); // no score: critical
  });

  it('writes a relative forward-slash uri and a region', () => {
    expect(resultFor(log, 'iss-sql').locations).toEqual([
      {
        physicalLocation: {
          artifactLocation: { uri: 'src/db/users.ts' },
          region: { startLine: 42, endLine: 44, startColumn: 5, endColumn: 30 },
        },
      },
    ]);
  });

  it('gives every result a location: the repository root when the issue names no file, line 1 when no valid line', () => {
    for (const result of run.results) expect(result.locations).toHaveLength(1);
    expect(resultFor(log, 'iss-nofile').locations).toEqual([
      { physicalLocation: { artifactLocation: { uri: '.' }, region: { startLine: 1 } } },
    ]);
    expect(resultFor(log, 'iss-nofile').properties.noFile).toBe(true);
    expect(resultFor(log, 'iss-cwe').locations).toEqual([
      { physicalLocation: { artifactLocation: { uri: 'lib/files.js' }, region: { startLine: 1 } } },
    ]);
  });

  it('drops an endLine before the startLine (and then an endColumn before the startColumn), percent-encodes the uri', () => {
    const loc = resultFor(log, 'iss-<&">').locations[0].physicalLocation;
    expect(loc.artifactLocation.uri).toBe('web/a%20b%23c%25d/x%2Cy%3Az.ts');
    expect(loc.region).toEqual({ startLine: 7, startColumn: 12 });
  });

  it('fingerprints each result by its issue id: the same across runs, whatever moved', () => {
    const again = build(ALL.map((i) => ({ ...i, startLine: typeof i.startLine === 'number' ? i.startLine + 10 : i.startLine })));
    const prints = (l: typeof log) => l.runs[0].results.map((r) => [r.ruleId, r.partialFingerprints]);
    expect(prints(again)).toEqual(prints(log));
    expect(resultFor(log, 'iss-sql').partialFingerprints).toEqual({ [FINGERPRINT_KEY]: 'iss-sql' });
  });

  it('keeps the title as the message text and the gate facts as properties', () => {
    const r = resultFor(log, 'iss-sql');
    expect(r.message.text.split('\n')[0]).toBe('SQL injection in user lookup.');
    expect(r.properties).toMatchObject({ issueId: 'iss-sql', score: 95, level: 'critical', breaking: true });
    expect(r.properties.cwes).toEqual(['CWE-89']);
    expect(resultFor(log, 'iss-low').properties.breaking).toBe(false);
    expect(resultFor(log, 'iss-noscore').properties.score).toBeUndefined();
    expect(resultFor(log, 'iss-<&">').message.text).toContain('<script>alert("x")</script>');
    expect(HOSTILE).toContain('|');
  });

  it('records the gate verdict on the run', () => {
    expect(run.properties.gate.passed).toBe(false);
    expect(run.properties.gate.counts.total).toBe(6);
  });

  it('works per fixture on its own', () => {
    for (const one of [sqlInjection, noFile, cweOnly, hostile, noScore]) {
      expect(schemaErrors(build([one]))).toEqual([]);
    }
  });
});

describe('securitySeverity', () => {
  it('is score/10 with one decimal, clamped', () => {
    expect(securitySeverity(95)).toBe('9.5');
    expect(securitySeverity(100)).toBe('10.0');
    expect(securitySeverity(0)).toBe('0.0');
    expect(securitySeverity(250)).toBe('10.0');
    expect(securitySeverity(-3)).toBe('0.0');
    expect(securitySeverity(undefined)).toBeUndefined();
  });
});
