import { describe, expect, it } from 'vitest';
import { baselineMatcher, BaselineError, parseBaseline } from '../../../src/gate/baseline.js';
import { createTally, evaluateGate } from '../../../src/gate/tally.js';
import { fingerprintOf } from '../../../src/gate/fingerprint.js';
import { createSieve } from '../../../src/gate/sieve.js';
import { parsePolicy } from '../../../src/gate/policy-file.js';
import { parseCommit, parseSince } from '../../../src/gate/since.js';
import { toSarif } from '../../../src/gate/reports/sarif.js';

const A = { id: 'iss_a', vulnClass: 'SQL Injection', affectedFile: 'src/db.ts', startLine: 10, generatedTitle: 'Query built from input', score: 95, status: 'open' };
const B = { id: 'iss_b', vulnClass: 'XSS', affectedFile: 'web/page.tsx', startLine: 3, generatedTitle: 'Unescaped output', score: 75, status: 'open' };

function sarifOf(issues: object[]): string {
  return JSON.stringify(toSarif(evaluateGate(issues as never[], { failOn: 'info' }), { toolName: 'svc', toolVersion: '1.0.0' }));
}

describe('reading a baseline', () => {
  it('reads a svc SARIF file: ids and fingerprints', () => {
    const b = parseBaseline(sarifOf([A, B]), 'old.sarif');
    expect(b.kind).toBe('sarif');
    expect(b.entries.map((e) => e.id)).toEqual(['iss_a', 'iss_b']);
    expect(b.entries[0].fingerprint).toBe(fingerprintOf(A));
  });

  it('reads a --json-report verdict with its issue lists', () => {
    const report = { passed: false, counts: { total: 1 }, issues: [A], unchanged: [B], suppressed: [], breaking: [A] };
    const b = parseBaseline(JSON.stringify(report), 'old.json');
    expect(b.kind).toBe('json');
    expect(b.entries.map((e) => e.id)).toEqual(['iss_a', 'iss_b']);
  });

  it.each([
    ['not JSON', '{"runs": [', 'old: is not JSON'],
    ['empty file', '', 'is not JSON'],
    ['another JSON document', '{"hello": 1}', 'is not a svc gate report'],
    ['a list', '[]', 'is not a svc gate report'],
    ['SARIF of another tool', JSON.stringify({ version: '2.1.0', runs: [{ tool: { driver: { name: 'other' } }, results: [] }] }), "not one svc wrote"],
    ['a verdict without the issues list', JSON.stringify({ passed: true, counts: {} }), 'without its list of issues'],
    ['an issue without id', JSON.stringify({ passed: true, counts: {}, issues: [{ title: 'x' }] }), 'issues[0] has no id'],
  ])('%s: BaselineError, never an empty baseline', (_n, text, message) => {
    expect(() => parseBaseline(text, 'old')).toThrow(BaselineError);
    expect(() => parseBaseline(text, 'old')).toThrow(message.replace('old: ', 'old '));
  });
});

describe('matching against a baseline', () => {
  it('by id, else by fingerprint (not the line); each baseline entry matches one issue', () => {
    const m = baselineMatcher(parseBaseline(sarifOf([A, B]), 'b'));
    const movedA = { ...A, id: 'iss_a2', startLine: 40 };
    const copyA = { ...A, id: 'iss_a3', startLine: 80 };
    expect(m.add(B, fingerprintOf(B))).toBe('unchanged');
    expect(m.add(movedA, fingerprintOf(movedA))).toBe('pending');
    expect(m.add(copyA, fingerprintOf(copyA))).toBe('pending');
    expect(m.add({ ...B, id: 'iss_c', generatedTitle: 'Other' }, 'x')).toBe('new');
    expect(m.settle([{ issue: movedA, fingerprint: fingerprintOf(movedA) }, { issue: copyA, fingerprint: fingerprintOf(copyA) }]).map((s) => s.state)).toEqual(['unchanged', 'new']);
  });

  it('an id match later in the listing keeps its entry from a fingerprint look-alike earlier', () => {
    const m = baselineMatcher(parseBaseline(sarifOf([A]), 'b'));
    const lookAlike = { ...A, id: 'iss_new' };
    expect(m.add(lookAlike, fingerprintOf(lookAlike))).toBe('pending');
    expect(m.add(A, fingerprintOf(A))).toBe('unchanged');
    expect(m.settle([{ issue: lookAlike, fingerprint: fingerprintOf(lookAlike) }])[0].state).toBe('new');
  });
});

describe('the sieve before the count', () => {
  const day = 86_400_000;
  const now = Date.parse('2026-11-22T12:00:00Z');
  const issues = [
    { ...A, createdAt: new Date(now - 30 * day).toISOString(), codeScan: { id: 's1', scanTargetBranchCommitSha: 'aaaa1111' } },
    { ...B, createdAt: new Date(now - 2 * day).toISOString(), codeScan: { id: 's2', scanTargetBranchCommitSha: 'bbbb2222' } },
    { id: 'iss_nodate', score: 50, status: 'open' },
  ];

  function run(o: Partial<Parameters<typeof createSieve>[1]>) {
    const tally = createTally({ failOn: 'info' });
    const sieve = createSieve(tally, { today: '2026-11-22', keep: true, ...o });
    for (const i of issues) sieve.add(i);
    const sifted = sieve.finish();
    return { sifted, result: tally.result(), seen: sieve.seen };
  }

  it('--new-since leaves out older issues and counts undated ones (fail closed)', () => {
    const { sifted, result, seen } = run({ since: parseSince('7d', now) });
    expect(seen).toBe(3);
    expect(result.issues.map((i) => i.id)).toEqual(['iss_b', 'iss_nodate']);
    expect(sifted).toMatchObject({ outOfScope: 1, undated: 1 });
  });

  it('--commit keeps the issues of scans of that commit (prefix) and those without a commit', () => {
    const { sifted, result } = run({ commit: parseCommit('BBBB222') });
    expect(result.issues.map((i) => i.id)).toEqual(['iss_b', 'iss_nodate']);
    expect(sifted).toMatchObject({ outOfScope: 1, uncommitted: 1 });
  });

  it('policy entries suppress until they expire; expired ones are reported', () => {
    const policy = parsePolicy('version: 1\nignore:\n  - id: iss_a\n    reason: accepted\n    expires: 2026-11-22\n  - id: iss_b\n    reason: old\n    expires: 2026-11-01\n', '.svc-policy.yml');
    const today = run({ policy });
    expect(today.result.issues.map((i) => i.id)).toEqual(['iss_b', 'iss_nodate']);
    expect(today.sifted.suppressed.map((i) => [i.id, i.suppression])).toEqual([['iss_a', { reason: 'accepted', expires: '2026-11-22', source: '.svc-policy.yml:3' }]]);
    expect(today.sifted.expired.map((e) => e.id)).toEqual(['iss_b']);
    const tomorrow = run({ policy, today: '2026-11-23' });
    expect(tomorrow.result.issues.map((i) => i.id)).toEqual(['iss_a', 'iss_b', 'iss_nodate']);
    expect(tomorrow.sifted.suppressedCount).toBe(0);
  });

  it('a baseline takes out what it holds; the rest is new and counted', () => {
    const { sifted, result } = run({ baseline: parseBaseline(sarifOf([A]), 'b') });
    expect(result.issues.map((i) => i.id)).toEqual(['iss_b', 'iss_nodate']);
    expect(result.counts.total).toBe(2);
    expect(sifted.unchangedCount).toBe(1);
    expect(sifted.unchanged[0]).toMatchObject({ id: 'iss_a', level: 'critical', breaking: false });
  });

  it('bad --new-since and --commit values are refused', () => {
    for (const v of ['yesterday', '7', '0d', '2026-13-01', '2026-11-01T10:00']) expect(() => parseSince(v, now), v).toThrow('--new-since');
    expect(parseSince('2026-11-01', now)).toBe(Date.parse('2026-11-01T00:00:00Z'));
    expect(parseSince('2026-11-01T10:00:00+02:00', now)).toBe(Date.parse('2026-11-01T08:00:00Z'));
    for (const v of ['xyz', 'abc', '']) expect(() => parseCommit(v)).toThrow('--commit');
  });
});

describe('refused before anything is sent', () => {
  it('a --json-report of a gate that could not decide is no baseline', () => {
    expect(() => parseBaseline(JSON.stringify({ passed: false, decided: false, exitCode: 6, error: 'network down' }), 'b.json')).toThrow('b.json is the report of a gate that could not decide (network down)');
  });

  it('--new-since in the future', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    expect(() => parseSince('2026-12-01', now)).toThrow('is in the future');
    expect(parseSince('2026-11-22', now)).toBe(Date.parse('2026-11-22T00:00:00Z'));
  });
});
