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
import { parseDiff } from '../../../src/gate/diff-parse.js';

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

describe('a baseline beside --diff, --commit or --new-since', () => {
  // The baseline's finding (A, found again under a new id on a line the change does not touch) and a
  // new copy of it (same rule, file and title) on a changed line: the copy is new. It took the old
  // finding's entry by fingerprint, as the old one was left out before it could claim it, and passed.
  const A = { id: 'iss_old', vulnClass: 'SQL Injection', affectedFile: 'src/db.ts', startLine: 40, endLine: 40, generatedTitle: 'Query built from input', score: 95, status: 'open' };
  const baseline = () => parseBaseline(JSON.stringify({ passed: false, counts: {}, issues: [{ ...A }] }), 'base.json');
  const again = { ...A, id: 'iss_again' };
  const copy = { ...A, id: 'iss_copy', startLine: 10, endLine: 10 };

  function sift(o: Partial<Parameters<typeof createSieve>[1]>, issues: Array<Record<string, unknown>>) {
    const tally = createTally({ failOn: 'high' });
    const sieve = createSieve(tally, { today: '2026-11-22', keep: true, baseline: baseline(), ...o });
    for (const i of issues) sieve.add({ ...i } as never);
    const sifted = sieve.finish();
    return { counted: tally.result().issues.map((i) => String(i.id)), passed: tally.result().passed, unchanged: sifted.unchanged.map((i) => String(i.id)) };
  }

  it('--diff: the copy in the change is new, in either order of the listing', () => {
    const change = parseDiff('diff --git a/src/db.ts b/src/db.ts\n--- a/src/db.ts\n+++ b/src/db.ts\n@@ -10 +10 @@\n-old\n+new\n');
    const diff = { change, scope: 'lines' as const, tracked: new Set(['src/db.ts']), about: { base: 'main', mergeBase: 'abc', scope: 'lines' as const, workTree: false, files: 1 } };
    for (const order of [[again, copy], [copy, again]]) {
      const r = sift({ diff: diff as never }, order);
      expect(r.counted).toEqual(['iss_copy']);
      expect(r.passed).toBe(false);
    }
    // Without the old finding read, the copy is the baseline's finding moved: unchanged.
    expect(sift({ diff: diff as never }, [copy]).counted).toEqual([]);
  });

  it('--new-since and --commit: an old copy left out keeps its entry', () => {
    const now = Date.parse('2026-11-22T12:00:00Z');
    const r = sift({ since: now - 86_400_000 }, [{ ...again, createdAt: '2026-10-01T00:00:00Z' }, { ...copy, createdAt: '2026-11-22T10:00:00Z' }]);
    expect(r.counted).toEqual(['iss_copy']);
    const c = sift({ commit: parseCommit(FULL) }, [{ ...again, codeScan: { scanTargetBranchCommitSha: 'fedcba9876543210' } }, { ...copy, codeScan: { scanTargetBranchCommitSha: FULL } }]);
    expect(c.counted).toEqual(['iss_copy']);
  });
});
