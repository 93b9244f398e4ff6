import { describe, expect, it } from 'vitest';
import { fingerprintOf } from '../../../src/gate/fingerprint.js';
import { globToRegExp, globMatches } from '../../../src/gate/glob.js';
import { entryMatches, isExpired, parsePolicy, PolicyError } from '../../../src/gate/policy-file.js';
import { entryLabel } from '../../../src/gate/sifted-text.js';

const FULL = `version: 1
fail-on: high                 # as --fail-on
max: { critical: 0, high: 5, total: 100 }
levels: { critical: 90, high: 70, medium: 40, low: 10 }
ignore:
  - id: iss_123
    reason: "accepted risk, see SEC-42"
    expires: 2027-03-01
  - rule: SQL Injection
    path: src/legacy/**
    reason: legacy code, rewritten in Q2
    expires: 2026-12-31
  - fingerprint: svcfp1:0123456789abcdef0123456789abcdef
    reason: test fixture
    expires: 2026-10-01
`;

function error(text: string): string {
  try {
    parsePolicy(text, 'p.yml');
  } catch (err) {
    expect(err).toBeInstanceOf(PolicyError);
    return (err as Error).message;
  }
  throw new Error('no error');
}

describe('policy file', () => {
  it('reads every setting of the documented example', () => {
    const p = parsePolicy(FULL, '.svc-policy.yml');
    expect(p.failOn).toBe('high');
    expect(p.max).toEqual({ critical: 0, high: 5, total: 100 });
    expect(p.cutoffs).toEqual({ critical: 90, high: 70, medium: 40, low: 10 });
    expect(p.ignore.map((e) => [e.line, entryLabel(e), e.expires])).toEqual([
      [6, 'iss_123', '2027-03-01'],
      [9, 'rule SQL Injection in src/legacy/**', '2026-12-31'],
      [13, 'fingerprint svcfp1:0123456789abcdef0123456789abcdef', '2026-10-01'],
    ]);
  });

  it('JSON is YAML', () => {
    const p = parsePolicy('{"version": 1, "fail-on": "critical", "ignore": [{"id": "iss_1", "reason": "r", "expires": "2027-01-01"}]}', 'p.json');
    expect(p.failOn).toBe('critical');
    expect(p.ignore[0].id).toBe('iss_1');
  });

  it.each([
    ['unknown key', 'version: 1\nfail_on: high\n', 'p.yml:2: unknown key \'fail_on\''],
    ['unknown key in an entry', 'version: 1\nignore:\n  - id: a\n    reason: r\n    expires: 2027-01-01\n    owner: me\n', 'p.yml:6: unknown key \'owner\' in an ignore entry'],
    ['missing reason', 'version: 1\nignore:\n  - id: a\n    expires: 2027-01-01\n', 'p.yml:3: an ignore entry needs a reason'],
    ['missing expiry', 'version: 1\nignore:\n  - id: a\n    reason: r\n', 'p.yml:3: an ignore entry needs an expiry date'],
    ['bad date', 'version: 1\nignore:\n  - id: a\n    reason: r\n    expires: 2027-02-30\n', "p.yml:5: expires must be a date YYYY-MM-DD, got '2027-02-30'"],
    ['date without leading zeros', 'version: 1\nignore:\n  - id: a\n    reason: r\n    expires: 2027-3-1\n', 'p.yml:5: expires must be a date'],
    ['bad glob', 'version: 1\nignore:\n  - path: "src/[abc"\n    reason: r\n    expires: 2027-01-01\n', "p.yml:3: path: 'src/[abc' has a [ without its ]"],
    ['bad level', 'version: 1\nfail-on: severe\n', 'p.yml:2: fail-on: unknown level "severe"'],
    ['negative max', 'version: 1\nmax:\n  high: -1\n', 'p.yml:3: max.high must be a whole number'],
    ['unknown max key', 'version: 1\nmax:\n  urgent: 1\n', "p.yml:3: unknown key 'urgent' in max"],
    ['levels out of order', 'version: 1\nlevels: { critical: 50, high: 70 }\n', 'p.yml:2: levels: cut-offs must descend'],
    ['no version', 'fail-on: high\n', 'p.yml:1: version is missing'],
    ['version 2', 'version: 2\n', 'p.yml:1: version must be 1'],
    ['two kinds in an entry', 'version: 1\nignore:\n  - id: a\n    path: src/**\n    reason: r\n    expires: 2027-01-01\n', 'p.yml:3: an ignore entry matches by one of'],
    ['nothing to match', 'version: 1\nignore:\n  - reason: r\n    expires: 2027-01-01\n', 'p.yml:3: an ignore entry needs what it matches'],
    ['duplicate key', 'version: 1\nversion: 1\n', 'p.yml:2: not valid YAML'],
    ['broken YAML', 'version: 1\nmax: { high: 1\n', 'p.yml:'],
    ['empty file', '', 'p.yml:1: the file is empty'],
    ['a list, not a mapping', '- 1\n', 'p.yml:1: expected a mapping'],
  ])('%s: exits naming the line', (_name, text, message) => {
    expect(error(text)).toContain(message);
  });

  it('an entry applies through its expiry day (UTC), not after', () => {
    const [entry] = parsePolicy('version: 1\nignore:\n  - id: a\n    reason: r\n    expires: 2026-11-22\n', 'p.yml').ignore;
    expect(isExpired(entry, '2026-11-22')).toBe(false);
    expect(isExpired(entry, '2026-11-23')).toBe(true);
  });

  it('matches by id, fingerprint, rule (class, any case, or svc/ rule id) and path glob', () => {
    const p = parsePolicy(FULL.replace('svcfp1:0123456789abcdef0123456789abcdef', fingerprintOf({ id: 'x', vulnClass: 'XSS', affectedFile: 'web/a.js', generatedTitle: 'T' })), 'p.yml');
    const [byId, byRule, byFp] = p.ignore;
    const issue = { id: 'iss_123', vulnClass: 'SQL Injection', affectedFile: 'src/legacy/db/q.ts', generatedTitle: 'T' };
    expect(entryMatches(byId, issue, fingerprintOf(issue))).toBe(true);
    expect(entryMatches(byId, { ...issue, id: 'iss_1234' }, '')).toBe(false);
    expect(entryMatches(byRule, issue, '')).toBe(true);
    expect(entryMatches(byRule, { ...issue, vulnClass: 'sql injection' }, '')).toBe(true);
    expect(entryMatches(byRule, { ...issue, affectedFile: 'src/new/q.ts' }, '')).toBe(false);
    expect(entryMatches(byRule, { ...issue, vulnClass: 'XSS' }, '')).toBe(false);
    expect(entryMatches(byRule, { ...issue, affectedFile: undefined }, '')).toBe(false);
    const other = { id: 'other', vulnClass: 'XSS', affectedFile: 'web/a.js', generatedTitle: 'T', startLine: 99 };
    expect(entryMatches(byFp, other, fingerprintOf(other))).toBe(true);
    const rid = parsePolicy('version: 1\nignore:\n  - rule: svc/sql-injection\n    reason: r\n    expires: 2027-01-01\n', 'p.yml').ignore[0];
    expect(entryMatches(rid, issue, '')).toBe(true);
  });
});

describe('path globs', () => {
  it.each([
    ['src/legacy/**', 'src/legacy/a/b.ts', true],
    ['src/legacy/**', 'src/legacyx/a.ts', false],
    ['src/legacy/', 'src/legacy/a.ts', true],
    ['src/*.ts', 'src/a.ts', true],
    ['src/*.ts', 'src/a/b.ts', false],
    ['**/test/**', 'test/a.ts', true],
    ['**/test/**', 'pkg/test/a.ts', true],
    ['*.test.js', 'deep/dir/x.test.js', true],
    ['*.test.js', 'deep/dir/x.js', false],
    ['src/{a,b}/*.py', 'src/b/x.py', true],
    ['src/{a,b}/*.py', 'src/c/x.py', false],
    ['src/?.c', 'src/x.c', true],
    ['src/[!x].c', 'src/x.c', false],
    ['./src/**', 'src/a.ts', true],
    ['a.b', 'axb', false],
    // picomatch: nested braces, ranges, dot files, escapes.
    ['src/{a,{b,c}}/*.py', 'src/c/x.py', true],
    ['src/{a,{b,c}}/*.py', 'src/d/x.py', false],
    ['lib/v{1..3}/**', 'lib/v2/a.ts', true],
    ['lib/v{1..3}/**', 'lib/v4/a.ts', false],
    ['src/**', 'src/.env', true],
    ['.github/**', '.github/workflows/ci.yml', true],
    ['src/\\*.c', 'src/*.c', true],
    ['src/\\*.c', 'src/a.c', false],
    ['*.{js,ts}', 'a/b/c.ts', true],
    ['src/[!x].c', 'src/y.c', true],
  ])('%s ~ %s: %s', (glob, path, want) => {
    expect(globMatches(globToRegExp(glob), path)).toBe(want);
  });

  it.each(['', 'a{b', 'a}b', 'a[b', 'x]', '{a,{b}', 'a\\', 'a[]b'])('refuses %j', (glob) => {
    expect(() => globToRegExp(glob)).toThrow();
  });
});
