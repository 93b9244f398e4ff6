/**
 * `svc policy ignore|unignore|list|prune` against the sandbox, and what svc gate makes of the entries:
 * an ignored issue is not counted up to and including its expiry day, and counts again after it.
 */
import { readFileSync, statSync, writeFileSync, chmodSync, existsSync, lstatSync, mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../../helpers/sandbox.js';
import { testHost } from '../../../helpers/host.js';
import { tempDir } from '../../../helpers/temp.js';

const sb = useSandbox({ issues: 60 });
const DAY = 86_400_000;
const NOW = Date.parse('2026-11-27T10:00:00Z');

/** svc in `cwd` on the given day (the wall clock the gate and policy read). */
function at(cwd: string, wallMs = NOW) {
  return (args: string[]) => {
    const host = testHost({ env: sb.env, cwd });
    host.wallNow = () => wallMs;
    return sb.run(args, { host });
  };
}

/** The most severe open issue of the sandbox and its repository. */
async function topIssue(): Promise<{ id: string; repositoryId: string }> {
  const r = await sb.runJson(['issues', 'search', '--types', 'open', '--sort-by', 'score', '--page-size', '1']) as { issues: Array<{ id: string; repositoryId: string }> };
  return r.issues[0];
}

describe('svc policy ignore, then svc gate', () => {
  it('the gate does not count the ignored issue up to its expiry day, and counts it again the day after', async () => {
    const dir = tempDir('svc-policy-');
    const top = await topIssue();
    const gate = ['gate', '--repository-ids', top.repositoryId, '--fail-on', 'info', '-o', 'json'];
    const before = await at(dir)(gate);
    expect(before.code, before.stderr).toBe(1);
    const counted = (r: { stdout: string }) => (JSON.parse(r.stdout) as { counts: { total: number }; issues: Array<{ id: string }> });
    expect(counted(before).issues.map((i) => i.id)).toContain(top.id);

    const ignored = await at(dir)(['policy', 'ignore', top.id, '--reason', 'test fixture, never deployed', '--expires', '7d', '-o', 'json']);
    expect(ignored.code, ignored.stderr).toBe(0);
    expect(JSON.parse(ignored.stdout)).toEqual([{ issueId: top.id, action: 'added', expires: '2026-12-04', file: '.svc-policy.yml' }]);
    expect(ignored.stderr).toContain(`added ${top.id} in .svc-policy.yml: not counted by svc gate up to and including 2026-12-04`);
    const file = readFileSync(join(dir, '.svc-policy.yml'), 'utf8');
    expect(file).toMatch(new RegExp(`^version: 1\\nignore:\\n  - id: ${top.id}  # .+\\n    reason: "test fixture, never deployed"\\n    expires: 2026-12-04\\n$`));

    for (const day of [NOW, NOW + 7 * DAY]) {
      const during = await at(dir, day)(gate);
      expect(counted(during).issues.map((i) => i.id)).not.toContain(top.id);
      expect(counted(during).counts.total).toBe(counted(before).counts.total - 1);
      expect((JSON.parse(during.stdout) as { policy: { suppressed: number } }).policy.suppressed).toBe(1);
    }
    const after = await at(dir, NOW + 8 * DAY)(gate);
    expect(counted(after).issues.map((i) => i.id)).toContain(top.id);
    expect(counted(after).counts.total).toBe(counted(before).counts.total);
    expect((JSON.parse(after.stdout) as { policy: { suppressed: number; expired: Array<{ id: string; expires: string }> } }).policy).toMatchObject({ suppressed: 0, expired: [{ id: top.id, expires: '2026-12-04' }] });
  });
});

describe('svc policy ignore', () => {
  it('checks the issue exists first: a typo is exit 4 and writes nothing; --no-verify writes offline', async () => {
    const dir = tempDir('svc-policy-');
    const typo = await at(dir)(['policy', 'ignore', 'iss_nope', '--reason', 'r', '--expires', '30d']);
    expect(typo.code, typo.stderr).toBe(4);
    expect(existsSync(join(dir, '.svc-policy.yml'))).toBe(false);
    const offline = await at(dir)(['policy', 'ignore', 'iss_nope', '--reason', 'r', '--expires', '30d', '--no-verify']);
    expect(offline.code, offline.stderr).toBe(0);
    expect(readFileSync(join(dir, '.svc-policy.yml'), 'utf8')).toBe('version: 1\nignore:\n  - id: iss_nope\n    reason: "r"\n    expires: 2026-12-27\n');
  });

  it('bad input is one line and exit 2, before anything is looked up or written', async () => {
    const dir = tempDir('svc-policy-');
    const run = at(dir);
    for (const [args, message] of [
      [['iss_1', '--expires', '30d'], /--reason is required/],
      [['iss_1', '--reason', '  ', '--expires', '30d'], /--reason is required/],
      [['iss_1', '--reason', 'r'], /--expires is required/],
      [['iss_1', '--reason', 'r', '--expires', '2026-11-01'], /before today \(2026-11-27\)/],
      [['iss_1', '--reason', 'r', '--expires', 'soon'], /--expires expects a day/],
      [['iss_1,,iss_2', '--reason', 'r', '--expires', '30d'], /an issue id is empty/],
      [['iss_1', '--reason', 'r', '--expires', '30d', '--policy', ''], /--policy needs a file name/],
      [['iss_1', '--reason', 'r', '--expires', '30d', '--no-verify', '--policy', 'no/such/folder/p.yml'], /cannot edit no\/such\/folder\/p\.yml: its folder .* does not exist/],
    ] as const) {
      const r = await run(['policy', 'ignore', ...args]);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n').filter((l) => !l.startsWith('hint') && !l.startsWith('  ')).length).toBeLessThanOrEqual(2);
    }
    expect(existsSync(join(dir, '.svc-policy.yml'))).toBe(false);
  });

  it('keeps the file\'s other lines and comments, its mode, and updates an entry rather than adding a second', async () => {
    const dir = tempDir('svc-policy-');
    const path = join(dir, 'risks.yml');
    const text = '# reviewed quarterly\nversion: 1\nfail-on: high # the bar\nignore:\n    - id: iss_x   # vendored\n      reason: vendored\n      expires: 2027-01-31\n';
    writeFileSync(path, text);
    chmodSync(path, 0o640);
    const run = at(dir);
    const first = await run(['policy', 'ignore', 'iss_y', '--reason', 'r1', '--expires', '2027-02-01', '--no-verify', '--policy', 'risks.yml']);
    expect(first.code, first.stderr).toBe(0);
    const again = await run(['policy', 'ignore', 'iss_y', '--reason', 'r2', '--expires', '2027-03-01', '--no-verify', '--policy', 'risks.yml']);
    expect(again.stderr).toContain('updated iss_y');
    expect(readFileSync(path, 'utf8')).toBe(`${text}    - id: iss_y\n      reason: "r2"\n      expires: 2027-03-01\n`);
    expect(statSync(path).mode & 0o777).toBe(0o640);
  });

  it('--fingerprint writes the fingerprint the gate\'s reports use, named with the id in a comment', async () => {
    const dir = tempDir('svc-policy-');
    const top = await topIssue();
    const r = await at(dir)(['policy', 'ignore', top.id, '--fingerprint', '--reason', 'r', '--expires', '30d']);
    expect(r.code, r.stderr).toBe(0);
    const gate = await at(dir)(['gate', '--repository-ids', top.repositoryId, '--fail-on', 'info', '-o', 'json']);
    const v = JSON.parse(gate.stdout) as { suppressed: Array<{ id: string; fingerprint: string }> };
    const file = readFileSync(join(dir, '.svc-policy.yml'), 'utf8');
    expect(v.suppressed.map((i) => i.id)).toEqual([top.id]);
    expect(file).toContain(`  - fingerprint: ${v.suppressed[0].fingerprint}  # ${top.id}: `);
  });

  it('two at once both land (the file is locked while it is edited)', async () => {
    const dir = tempDir('svc-policy-');
    const run = at(dir);
    const ids = Array.from({ length: 6 }, (_, i) => `iss_c${i}`);
    const results = await Promise.all(ids.map((id) => run(['policy', 'ignore', id, '--reason', 'r', '--expires', '30d', '--no-verify'])));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const list = await run(['policy', 'list', '-o', 'json']);
    expect((JSON.parse(list.stdout) as Array<{ id: string }>).map((e) => e.id).sort()).toEqual(ids);
  });
});

describe('svc policy list, prune, unignore', () => {
  const TEXT = 'version: 1\nignore:\n  - id: iss_old\n    reason: long gone\n    expires: 2026-10-01\n  - rule: cwe-89\n    path: test/**\n    reason: fixtures\n    expires: 2026-12-01\n  - id: iss_keep\n    reason: kept\n    expires: 2026-11-27\n';

  it('list shows each entry with its state today', async () => {
    const dir = tempDir('svc-policy-');
    writeFileSync(join(dir, '.svc-policy.yml'), TEXT);
    const r = await at(dir)(['policy', 'list', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Array<Record<string, unknown>>).map((e) => [e.match, e.state, e.line])).toEqual([
      ['id iss_old', 'expired 57 days ago', 3],
      ['rule cwe-89, path test/**', '4 days left', 6],
      ['id iss_keep', 'expires today', 10],
    ]);
    const expired = await at(dir)(['policy', 'list', '--expired', '-o', 'json']);
    expect((JSON.parse(expired.stdout) as unknown[]).length).toBe(1);
    const none = await at(tempDir('svc-policy-'))(['policy', 'list']);
    expect(none.code).toBe(4);
    expect(none.stderr).toMatch(/no policy file at \.svc-policy\.yml/);
  });

  it('prune removes the expired entries only; --dry-run says which and changes nothing', async () => {
    const dir = tempDir('svc-policy-');
    const path = join(dir, '.svc-policy.yml');
    writeFileSync(path, TEXT);
    const dry = await at(dir)(['--dry-run', 'policy', 'prune']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stderr).toContain('would remove id iss_old (expired 2026-10-01, line 3)');
    expect(readFileSync(path, 'utf8')).toBe(TEXT);
    const done = await at(dir)(['policy', 'prune']);
    expect(done.stderr).toContain('removed id iss_old');
    expect(readFileSync(path, 'utf8')).toBe(TEXT.replace('  - id: iss_old\n    reason: long gone\n    expires: 2026-10-01\n', ''));
    const again = await at(dir)(['policy', 'prune']);
    expect(again.stderr).toContain('has no expired entry');
  });

  it('unignore removes the entry of an id; one the file does not hold is exit 4', async () => {
    const dir = tempDir('svc-policy-');
    const path = join(dir, '.svc-policy.yml');
    writeFileSync(path, TEXT);
    const r = await at(dir)(['policy', 'unignore', 'iss_keep']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('removed iss_keep from .svc-policy.yml (was line 10): svc gate counts it again');
    expect(readFileSync(path, 'utf8')).not.toContain('iss_keep');
    const missing = await at(dir)(['policy', 'unignore', 'iss_keep']);
    expect(missing.code).toBe(4);
    expect(missing.stderr).toContain('has no entry for iss_keep');
  });

  it('a policy file that does not read is exit 2 naming its line, and is left as it was', async () => {
    const dir = tempDir('svc-policy-');
    const path = join(dir, '.svc-policy.yml');
    writeFileSync(path, 'version: 1\nignore:\n  - id: a\n    reason: r\n');
    const r = await at(dir)(['policy', 'ignore', 'iss_1', '--reason', 'r', '--expires', '30d', '--no-verify']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\.svc-policy\.yml:3: an ignore entry needs an expiry date/);
    expect(readFileSync(path, 'utf8')).toBe('version: 1\nignore:\n  - id: a\n    reason: r\n');
  });

  it('a directory at .svc-policy.yml is named as the file of the current directory, not as --policy (not given)', async () => {
    const dir = tempDir('svc-policy-');
    mkdirSync(join(dir, '.svc-policy.yml'));
    const r = await at(dir)(['policy', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^svc: error: the policy file '\.svc-policy\.yml' in the current directory is a directory; .*give --policy FILE/);
    const given = await at(dir)(['policy', 'list', '--policy', '.svc-policy.yml']);
    expect(given.stderr).toMatch(/^svc: error: --policy '\.svc-policy\.yml' is a directory/);
  });
});

describe('svc policy: what a careful user relies on (red team)', () => {
  it('--dry-run on ignore and unignore says what would change and writes nothing, as prune does', async () => {
    const dir = tempDir('svc-policy-');
    const path = join(dir, '.svc-policy.yml');
    const text = 'version: 1\nignore:\n  - id: iss_keep\n    reason: kept\n    expires: 2027-01-31\n';
    writeFileSync(path, text);
    const add = await at(dir)(['--dry-run', 'policy', 'ignore', 'iss_new', '--reason', 'r', '--expires', '30d', '--no-verify']);
    expect(add.code, add.stderr).toBe(0);
    expect(add.stderr).toContain('would add iss_new in .svc-policy.yml');
    expect(add.stderr).toContain('--dry-run: .svc-policy.yml is unchanged');
    const update = await at(dir)(['--dry-run', 'policy', 'ignore', 'iss_keep', '--reason', 'r', '--expires', '30d', '--no-verify']);
    expect(update.stderr).toContain('would update iss_keep');
    const remove = await at(dir)(['--dry-run', 'policy', 'unignore', 'iss_keep']);
    expect(remove.code, remove.stderr).toBe(0);
    expect(remove.stderr).toContain('would remove iss_keep from .svc-policy.yml');
    expect(readFileSync(path, 'utf8')).toBe(text);
    // A new file is not created by a dry run, and the lookup is printed, not sent.
    const empty = tempDir('svc-policy-');
    const top = await topIssue();
    const looked = await at(empty)(['--dry-run', 'policy', 'ignore', top.id, '--reason', 'r', '--expires', '30d']);
    expect(looked.code, looked.stderr).toBe(0);
    expect(JSON.parse(looked.stdout)).toMatchObject({ method: 'POST', url: expect.stringMatching(/\/api\/v1\/issues\/get$/), body: { issueId: top.id } });
    expect(existsSync(join(empty, '.svc-policy.yml'))).toBe(false);
  });

  it('--expires far in the future is exit 2 naming the value, not an internal error', async () => {
    const dir = tempDir('svc-policy-');
    for (const value of ['99999999999d', '9999999999999w', '3000000d']) {
      const r = await at(dir)(['policy', 'ignore', 'iss_1', '--reason', 'r', '--expires', value, '--no-verify']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(`--expires ${value}`);
    }
    expect(existsSync(join(dir, '.svc-policy.yml'))).toBe(false);
  });

  it('a policy file that is a symbolic link: the file it leads to is edited, the link stays', async () => {
    const dir = tempDir('svc-policy-');
    mkdirSync(join(dir, 'shared'));
    const target = join(dir, 'shared', 'policy.yml');
    writeFileSync(target, 'version: 1\n# shared by the team\nignore:\n');
    symlinkSync(join('shared', 'policy.yml'), join(dir, '.svc-policy.yml'));
    const r = await at(dir)(['policy', 'ignore', 'iss_1', '--reason', 'r', '--expires', '2027-01-31', '--no-verify']);
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(join(dir, '.svc-policy.yml')).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('version: 1\n# shared by the team\nignore:\n  - id: iss_1\n    reason: "r"\n    expires: 2027-01-31\n');
    const gone = await at(dir)(['policy', 'unignore', 'iss_1']);
    expect(gone.code, gone.stderr).toBe(0);
    expect(lstatSync(join(dir, '.svc-policy.yml')).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('version: 1\n# shared by the team\nignore:\n');
  });

  it('a read-only policy file is not written over: exit 2, unchanged', async () => {
    const dir = tempDir('svc-policy-');
    const path = join(dir, '.svc-policy.yml');
    const text = 'version: 1\nignore:\n';
    writeFileSync(path, text);
    chmodSync(path, 0o444);
    const r = await at(dir)(['policy', 'ignore', 'iss_1', '--reason', 'r', '--expires', '30d', '--no-verify']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/\.svc-policy\.yml is read-only/);
    expect(readFileSync(path, 'utf8')).toBe(text);
    expect(statSync(path).mode & 0o777).toBe(0o444);
  });
});

describe('svc policy list on an 80-column terminal', () => {
  it('keeps every id and fingerprint whole (copied into unignore); the reason gives way', async () => {
    const dir = tempDir('svc-policy-');
    const long = 'iss_0123456789abcdef0123456789abcdef';
    const fp = 'svcfp1:0123456789abcdef0123456789abcdef';
    writeFileSync(join(dir, '.svc-policy.yml'), `version: 1\nignore:\n  - id: ${long}\n    reason: "${'a reason that explains at length why this risk is accepted '.repeat(2)}"\n    expires: 2027-01-31\n  - fingerprint: ${fp}\n    reason: short\n    expires: 2027-01-31\n`);
    const host = testHost({ env: sb.env, cwd: dir, tty: { stdout: true }, columns: 80 });
    host.wallNow = () => NOW;
    const r = await sb.run(['policy', 'list', '--no-color'], { host });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(lines[1]).toContain(`id ${long}`);
    expect(lines[2]).toContain(`fingerprint ${fp}`);
    expect(lines[1]).toMatch(/a reason that .*…/);
  });
});
