import { describe, expect, it } from 'vitest';
import { evaluateGate } from '../../../../src/gate/tally.js';
import { toCodeQuality } from '../../../../src/gate/reports/code-quality.js';
import { schemaTime, stableId, toHostBSast } from '../../../../src/gate/reports/hostb-sast.js';
import { ALL, hostile, noFile, sqlInjection } from '../../../fixtures/reports/issues.js';
import { codeQualityErrors, sastErrors } from './hostb-schemas.js';

const opts = { toolVersion: '1.2.3', startedAt: Date.parse('2026-11-22T10:00:00.123Z'), endedAt: Date.parse('2026-11-22T10:00:05Z') };

describe("host B's SAST report", () => {
  it('validates against the 15.x schema, with every counted issue once', () => {
    const result = evaluateGate([...ALL, hostile], { failOn: 'high' });
    const report = toHostBSast(result, { ...opts, issueUrl: (id) => `https://svc.example/issues/${encodeURIComponent(id)}` });
    expect(sastErrors(report)).toEqual([]);
    const vulns = report.vulnerabilities as Array<Record<string, any>>;
    expect(vulns).toHaveLength(result.issues.length);
    expect(report.scan).toMatchObject({ type: 'sast', status: 'success', start_time: '2026-11-22T10:00:00', end_time: '2026-11-22T10:00:05' });
  });

  it('maps an issue: stable id, rule and CWE identifiers, file and lines, severity, link', () => {
    const report = toHostBSast(evaluateGate([sqlInjection, noFile], { failOn: 'high' }), { ...opts, issueUrl: (id) => `https://svc.example/i/${id}` });
    const [v, nf] = report.vulnerabilities as Array<Record<string, any>>;
    expect(v.id).toBe(stableId('iss-sql'));
    expect(v.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(v.severity).toBe('Critical');
    expect(v.identifiers).toEqual([
      { type: 'svc_rule', name: 'svc rule SQL Injection', value: 'svc/sql-injection' },
      { type: 'cwe', name: 'CWE-89', value: '89', url: 'https://cwe.mitre.org/data/definitions/89.html' },
      { type: 'svc_issue', name: 'svc issue iss-sql', value: 'iss-sql' },
    ]);
    expect(v.location).toEqual({ file: 'src/db/users.ts', start_line: 42, end_line: 44 });
    expect(v.links).toEqual([{ name: 'svc issue iss-sql', url: 'https://svc.example/i/iss-sql' }]);
    expect(v.description).toBe('User input reaches a raw query.');
    expect(nf.severity).toBe('High');
    expect(nf.location).toEqual({});
    expect(sastErrors(report)).toEqual([]);
  });

  it('the transcribed schema catches what it should', () => {
    const report = toHostBSast(evaluateGate([sqlInjection], {}), opts) as Record<string, any>;
    expect(sastErrors({ ...report, version: '14.0.0' })).not.toEqual([]);
    expect(sastErrors({ ...report, scan: { ...report.scan, start_time: '2026-11-22T10:00:00.123Z' } })).not.toEqual([]);
    expect(sastErrors({ ...report, vulnerabilities: [{ ...report.vulnerabilities[0], severity: 'critical' }] })).not.toEqual([]);
    expect(sastErrors({ ...report, vulnerabilities: [{ ...report.vulnerabilities[0], identifiers: [] }] })).not.toEqual([]);
    expect(schemaTime(0)).toBe('1970-01-01T00:00:00');
  });
});

describe("host B's Code Quality report", () => {
  it('validates, one entry per counted issue, severities mapped, fingerprints unique', () => {
    const result = evaluateGate([...ALL, hostile, { ...sqlInjection, id: 'iss-sql-2', startLine: 90 }], { failOn: 'high' });
    const report = toCodeQuality(result);
    expect(codeQualityErrors(report)).toEqual([]);
    expect(report).toHaveLength(result.issues.length);
    const sql = report.find((e) => e.description.endsWith('svc issue iss-sql)'))!;
    expect(sql).toMatchObject({ check_name: 'svc/sql-injection', severity: 'blocker', location: { path: 'src/db/users.ts', lines: { begin: 42, end: 44 } } });
    const nf = report.find((e) => e.description.includes('iss-nofile'))!;
    expect(nf).toMatchObject({ severity: 'critical', location: { path: '.', lines: { begin: 1 } } });
  });

  it('fingerprints stay the same when the line and the id change (a later scan of the same code)', () => {
    const a = toCodeQuality(evaluateGate([sqlInjection], {}))[0];
    const b = toCodeQuality(evaluateGate([{ ...sqlInjection, id: 'iss-other', startLine: 50, endLine: 52 }], {}))[0];
    expect(b.fingerprint).toBe(a.fingerprint);
    expect(codeQualityErrors([a, a])).toEqual(['/1/fingerprint is not unique']);
  });
});
