/**
 * Issue 21, class 4: narrowing that matches too much or too little. --commit compares full shas or
 * abbreviations of 7+ hex digits either way; a sha that is not one is "no commit" (it counts).
 * Policy and baseline entries never act as wildcards; paths are normalised before a glob is matched.
 */
import { describe, expect, it } from 'vitest';
import { createSieve } from '../../../src/gate/sieve.js';
import { createTally } from '../../../src/gate/tally.js';
import { commitOf, parseCommit, sameCommit } from '../../../src/gate/since.js';
import { entryMatches, parsePolicy } from '../../../src/gate/policy-file.js';
import { EMPTY_FINGERPRINT, fingerprintOf } from '../../../src/gate/fingerprint.js';
import { baselineMatcher, parseBaseline } from '../../../src/gate/baseline.js';
import { repoPath } from '../../../src/gate/glob.js';

const FULL = '0123456789abcdef0123456789abcdef01234567';

function counted(commit: string, shas: unknown[]): string[] {
  const tally = createTally({ failOn: 'info' });
  const sieve = createSieve(tally, { today: '2026-11-22', keep: false, commit: parseCommit(commit) });
  shas.forEach((sha, n) => sieve.add({ id: `i${n}`, status: 'open', score: 50, codeScan: { scanTargetBranchCommitSha: sha } }));
  sieve.finish();
  return tally.result().issues.map((i) => String(i.id));
}

describe('--commit', () => {
  it('matches an abbreviated sha in either direction, 7 hex digits or more', () => {
    expect(counted(FULL, [FULL.slice(0, 7), FULL.slice(0, 12), FULL.toUpperCase(), 'fedcba9'])).toEqual(['i0', 'i1', 'i2']);
    expect(counted(FULL.slice(0, 7), [FULL, 'fedcba9876543210'])).toEqual(['i0']);
    expect(sameCommit(FULL, FULL.slice(0, 7))).toBe(true);
    expect(sameCommit(FULL.slice(0, 7), FULL)).toBe(true);
  });

  it('an issue sha shorter than 7 hex digits or not hex is "no commit": it counts, never matches by prefix', () => {
    // Old: 'abc' and '' were prefixes nobody compared, '01234' matched nothing the other way round.
    expect(counted(FULL, ['01234', 'zz0123456789', 'not a sha', 12345678, ''])).toEqual(['i0', 'i1', 'i2', 'i3', 'i4']);
    expect(commitOf({ codeScan: { scanTargetBranchCommitSha: '0123456789g' } })).toBeUndefined();
    expect(commitOf({ codeScan: { scanTargetBranchCommitSha: ' 0123456 ' } })).toBe('0123456');
  });

  it('--commit with fewer than 7 hex digits is refused (exit 2): it could name several commits', () => {
    for (const v of ['0123', '012345', 'g123456']) expect(() => parseCommit(v), v).toThrow(/7 to 64 hex digits/);
  });
});

const policyWith = (entry: string) => parsePolicy(`version: 1\nignore:\n  - ${entry}\n    reason: r\n    expires: 2099-01-01\n`, 'p.yml');

describe('policy entries name one exact thing', () => {
  for (const rule of ['svc/', 'svc/-', 'svc/unknown', '*', 'sql*', '---', 'svc/sql-injection/high', 'svc/sql injection']) {
    it(`rule: '${rule}' is exit 2 naming the line`, () => {
      expect(() => policyWith(`rule: "${rule}"`)).toThrow(/^p\.yml:3: rule /);
    });
  }

  it("a rule never matches an issue without a class ('svc/' used to accept every such issue)", () => {
    const noClass = { id: 'x', status: 'open' };
    const wildcard = { rule: 'svc/', reason: 'r', expires: '2099-01-01', line: 3 };
    expect(entryMatches(wildcard, noClass, fingerprintOf(noClass))).toBe(false);
    const entry = policyWith('rule: svc/sql-injection').ignore[0];
    expect(entryMatches(entry, noClass, fingerprintOf(noClass))).toBe(false);
    const sqli = { id: 'y', vulnClass: 'SQL Injection' };
    expect(entryMatches(entry, sqli, fingerprintOf(sqli))).toBe(true);
  });

  it('a fingerprint that is not svc\'s, or the one of an issue with no rule, file or title, is exit 2', () => {
    expect(() => policyWith('fingerprint: svcfp1:abc')).toThrow(/not one svc writes/);
    expect(() => policyWith(`fingerprint: ${EMPTY_FINGERPRINT}`)).toThrow(/names nothing/);
  });

  it('paths are normalised before the glob; a path that leaves the repository matches no path: entry', () => {
    const entry = policyWith('path: "src/legacy/**"').ignore[0];
    const at = (affectedFile: string) => entryMatches(entry, { id: 'i', affectedFile }, fingerprintOf({ id: 'i', affectedFile }));
    for (const p of ['src/legacy/a.ts', './src/legacy/a.ts', 'src//legacy/a.ts', 'src\\legacy\\a.ts', 'src/x/../legacy/a.ts']) expect(at(p), p).toBe(true);
    for (const p of ['src/legacy/../../etc/passwd', '../src/legacy/a.ts', 'src/legacy/../app.ts']) expect(at(p), p).toBe(false);
    expect(repoPath('a/./b//c/../d')).toBe('a/b/d');
    expect(repoPath('a/../../x')).toBeUndefined();
  });
});

describe('baseline entries are no wildcards', () => {
  it('an entry with no rule, file and title matches by id only, never every issue with none', () => {
    const baseline = parseBaseline(JSON.stringify({ passed: true, counts: {}, issues: [{ id: 'old-1' }] }), 'b.json');
    expect(baseline.entries[0].fingerprint).toBe(EMPTY_FINGERPRINT);
    const m = baselineMatcher(baseline);
    const bare = { id: 'new-9', status: 'open' };
    expect(m.add(bare, fingerprintOf(bare))).toBe('new');
    expect(m.add({ id: 'old-1' }, EMPTY_FINGERPRINT)).toBe('unchanged');
  });
});
