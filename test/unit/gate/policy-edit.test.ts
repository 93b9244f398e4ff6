/** Edits of the policy file as text (src/gate/policy-edit.ts): what is asked changes, every other byte stays. */
import { describe, expect, it } from 'vitest';
import { PolicyEditError, addIgnores, parseExpiry, removeIgnores } from '../../../src/gate/policy-edit.js';
import { parsePolicy } from '../../../src/gate/policy-file.js';

const HAND_WRITTEN = [
  '# Accepted risks of the payments service: reviewed every quarter (SEC-7)',
  'version: 1',
  'fail-on: high   # the team\'s bar',
  'max: { critical: 0, total: 100 }',
  'ignore:',
  '    # a list comment, kept',
  '    - id: iss_old          # generated code',
  '      reason: \'vendored, see SEC-42\'',
  '      expires: 2026-01-31',
  '',
  '    - rule: cwe-89',
  '      path: "test/**"',
  '      reason: test fixtures',
  '      expires: 2027-06-30',
  'levels:',
  '  critical: 95',
  '',
].join('\n');

describe('addIgnores', () => {
  it('adds after the last entry, with the list\'s own indentation, and leaves every other line as it was', () => {
    const { text, done } = addIgnores(HAND_WRITTEN, 'p.yml', [{ id: 'iss_new', reason: 'false alarm: "sanitised" upstream', expires: '2027-03-01', note: 'SQL injection in report()' }]);
    expect(done).toEqual(['added']);
    const lines = text.split('\n');
    const old = HAND_WRITTEN.split('\n');
    // The new lines are exactly three, inserted after the last entry (before `levels:`); nothing else moved.
    expect(lines.length).toBe(old.length + 3);
    expect(lines.slice(0, 14)).toEqual(old.slice(0, 14));
    expect(lines.slice(14, 17)).toEqual([
      '    - id: iss_new  # SQL injection in report()',
      '      reason: "false alarm: \\"sanitised\\" upstream"',
      '      expires: 2027-03-01',
    ]);
    expect(lines.slice(17)).toEqual(old.slice(14));
    const policy = parsePolicy(text, 'p.yml');
    expect(policy.ignore.map((e) => e.id ?? e.rule)).toEqual(['iss_old', 'cwe-89', 'iss_new']);
    expect(policy.ignore[2].reason).toBe('false alarm: "sanitised" upstream');
    expect(policy.failOn).toBe('high');
  });

  it('changes the reason and expiry of an entry of the same id in place, never a second entry', () => {
    const { text, done } = addIgnores(HAND_WRITTEN, 'p.yml', [{ id: 'iss_old', reason: 'still vendored', expires: '2027-01-31' }]);
    expect(done).toEqual(['updated']);
    expect(text).toBe(HAND_WRITTEN.replace("reason: 'vendored, see SEC-42'", 'reason: "still vendored"').replace('expires: 2026-01-31', 'expires: 2027-01-31'));
  });

  it('creates a file, or the list, where there is none', () => {
    const e = { id: 'iss_1', reason: 'r', expires: '2027-01-01' };
    expect(addIgnores(undefined, 'p.yml', [e]).text).toBe('version: 1\nignore:\n  - id: iss_1\n    reason: "r"\n    expires: 2027-01-01\n');
    expect(addIgnores('version: 1\nfail-on: high', 'p.yml', [e]).text).toBe('version: 1\nfail-on: high\nignore:\n  - id: iss_1\n    reason: "r"\n    expires: 2027-01-01\n');
    for (const empty of ['ignore:', 'ignore: []', 'ignore: ~']) {
      const { text } = addIgnores(`version: 1\n${empty}\nfail-on: high\n`, 'p.yml', [e]);
      expect(text).toBe('version: 1\nignore:\n  - id: iss_1\n    reason: "r"\n    expires: 2027-01-01\nfail-on: high\n');
    }
  });

  it('keeps CRLF line endings, and quotes ids that YAML would read as something else', () => {
    const crlf = 'version: 1\r\nignore:\r\n  - id: a\r\n    reason: r\r\n    expires: 2027-01-01\r\n';
    const { text } = addIgnores(crlf, 'p.yml', [{ id: '1234', reason: 'r', expires: '2027-01-01' }, { id: 'true', reason: 'r', expires: '2027-01-01' }]);
    expect(text).toBe(`${crlf}  - id: "1234"\r\n    reason: "r"\r\n    expires: 2027-01-01\r\n  - id: "true"\r\n    reason: "r"\r\n    expires: 2027-01-01\r\n`);
    expect(parsePolicy(text, 'p.yml').ignore.map((x) => x.id)).toEqual(['a', '1234', 'true']);
  });

  it('refuses what it cannot edit safely, and a file that does not read', () => {
    expect(() => addIgnores('version: 1\nignore: [{id: a, reason: r, expires: 2027-01-01}]\n', 'p.yml', [{ id: 'b', reason: 'r', expires: '2027-01-01' }])).toThrow(/flow style/);
    expect(() => addIgnores('{version: 1}', 'p.yml', [{ id: 'b', reason: 'r', expires: '2027-01-01' }])).toThrow(PolicyEditError);
    expect(() => addIgnores('version: 2\n', 'p.yml', [{ id: 'b', reason: 'r', expires: '2027-01-01' }])).toThrow(/p\.yml:1: version must be 1/);
  });
});

describe('removeIgnores', () => {
  it('removes an entry with its lines; comments above it and every other line stay', () => {
    const { text, removed } = removeIgnores(HAND_WRITTEN, 'p.yml', (e) => e.id === 'iss_old');
    expect(removed.map((e) => e.id)).toEqual(['iss_old']);
    expect(text).toBe(HAND_WRITTEN.replace("    - id: iss_old          # generated code\n      reason: 'vendored, see SEC-42'\n      expires: 2026-01-31\n", ''));
    expect(parsePolicy(text, 'p.yml').ignore.map((e) => e.rule)).toEqual(['cwe-89']);
  });

  it('an emptied list reads as no entries; nothing to remove leaves the text as it is', () => {
    const one = 'version: 1\nignore:\n  - id: a\n    reason: r\n    expires: 2020-01-01\n';
    expect(removeIgnores(one, 'p.yml', () => true).text).toBe('version: 1\nignore:\n');
    expect(parsePolicy('version: 1\nignore:\n', 'p.yml').ignore).toEqual([]);
    expect(removeIgnores(HAND_WRITTEN, 'p.yml', () => false)).toEqual({ text: HAND_WRITTEN, removed: [] });
  });
});

describe('parseExpiry', () => {
  it('takes a day or days/weeks from today; refuses the past and what is no day', () => {
    expect(parseExpiry('2027-03-01', '2026-11-27')).toBe('2027-03-01');
    expect(parseExpiry('30d', '2026-11-27')).toBe('2026-12-27');
    expect(parseExpiry('2w', '2026-12-25')).toBe('2027-01-08');
    expect(parseExpiry('2026-11-27', '2026-11-27')).toBe('2026-11-27');
    expect(() => parseExpiry('2026-11-26', '2026-11-27')).toThrow(/before today/);
    expect(() => parseExpiry('2027-02-30', '2026-11-27')).toThrow(/expects a day/);
    expect(() => parseExpiry('0d', '2026-11-27')).toThrow(/positive/);
    expect(() => parseExpiry('3 months', '2026-11-27')).toThrow(/expects a day/);
  });
});
