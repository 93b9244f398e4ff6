/**
 * Issue 21, classes 5 and 6: a policy file that is there but cannot be used is exit 2 naming it (a
 * gate never runs looser), and no output of a run is one of its inputs (exit 2 naming both flags,
 * before any request: a failed run would replace the baseline with an "undecided" report).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useFakeServer } from '../helpers/fake-server.js';
import { runCli } from '../helpers/host.js';
import { tempDir } from '../helpers/temp.js';

// On a MockAgent: the gate's files are the point here, not the socket.
const fake = useFakeServer({ mock: true });
const SEARCH = '/api/v1/issues/search';

const BASELINE = JSON.stringify({ passed: true, counts: { critical: 0, high: 0, medium: 0, low: 0, info: 0, total: 0 }, issues: [] });
const POLICY = 'version: 1\nfail-on: high\n';

const gate = (cwd: string, args: string[], env: Record<string, string> = {}) => runCli(['gate', '--fail-on', 'high', ...args], { env: { ...fake.env, ...env }, cwd, dispatcher: fake.dispatcher });

describe('class 6: outputs never destroy inputs', () => {
  it('control: a 503 with --json-report elsewhere writes the undecided report there, the baseline stays', async () => {
    const dir = tempDir('gate-files-');
    writeFileSync(join(dir, 'base.json'), BASELINE);
    fake.stub(SEARCH, { status: 503, json: { error: 'down' } });
    const r = await gate(dir, ['--baseline', 'base.json', '--json-report', 'out.json', '--retries', '0']);
    expect(r.code).toBe(6);
    expect(readFileSync(join(dir, 'base.json'), 'utf8')).toBe(BASELINE);
    expect(JSON.parse(readFileSync(join(dir, 'out.json'), 'utf8'))).toMatchObject({ decided: false });
  });

  const same: Array<[string, (dir: string) => string[]]> = [
    ['the same name', () => ['--baseline', 'base.json', '--json-report', 'base.json']],
    ['through ..', () => ['--baseline', 'base.json', '--json-report', 'sub/../base.json']],
    ['with ./ and a doubled slash', () => ['--baseline', 'base.json', '--sarif', './/base.json']],
    ['through a symlink', (dir) => { symlinkSync(join(dir, 'base.json'), join(dir, 'link.json')); return ['--baseline', 'base.json', '--json-report', 'link.json']; }],
    ['through a hard link', (dir) => { linkSync(join(dir, 'base.json'), join(dir, 'hard.json')); return ['--baseline', 'base.json', '--junit', 'hard.json']; }],
    ['an absolute path', (dir) => ['--baseline', 'base.json', '--markdown', join(dir, 'base.json')]],
  ];
  for (const [name, args] of same) {
    it(`--baseline and a report naming one file (${name}): exit 2 naming both, nothing sent, the baseline kept`, async () => {
      const dir = tempDir('gate-files-');
      mkdirSync(join(dir, 'sub'));
      writeFileSync(join(dir, 'base.json'), BASELINE);
      const r = await gate(dir, args(dir));
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/--baseline 'base.json' are the same file/);
      expect(fake.requests).toHaveLength(0);
      expect(readFileSync(join(dir, 'base.json'), 'utf8')).toBe(BASELINE);
    });
  }

  it('--policy and a report naming one file: exit 2', async () => {
    const dir = tempDir('gate-files-');
    writeFileSync(join(dir, 'p.yml'), POLICY);
    const r = await gate(dir, ['--policy', 'p.yml', '--markdown', 'p.yml']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--markdown 'p.yml' and --policy 'p.yml' are the same file");
    expect(readFileSync(join(dir, 'p.yml'), 'utf8')).toBe(POLICY);
  });

  it('the default .svc-policy.yml and a report naming it: exit 2', async () => {
    const dir = tempDir('gate-files-');
    writeFileSync(join(dir, '.svc-policy.yml'), POLICY);
    const r = await gate(dir, ['--code-quality', '.svc-policy.yml']);
    expect(r.code).toBe(2);
    // Named as the policy file, not as --policy (not given).
    expect(r.stderr).toContain("--code-quality '.svc-policy.yml' and the policy file '.svc-policy.yml' are the same file");
    expect(readFileSync(join(dir, '.svc-policy.yml'), 'utf8')).toBe(POLICY);
  });

  it('a report at the default .svc-policy.yml, not there yet: exit 2 naming both, nothing written or sent', async () => {
    // Once written, every later `svc gate` here without --policy would read the report as its policy.
    const dir = tempDir('gate-files-');
    mkdirSync(join(dir, 'sub'));
    for (const args of [['--sarif', '.svc-policy.yml'], ['--json-report', 'sub/../.svc-policy.yml'], ['--policy', 'p.yml', '--junit', join(dir, '.svc-policy.yml')]]) {
      if (args.includes('p.yml')) writeFileSync(join(dir, 'p.yml'), POLICY);
      const r = await gate(dir, args);
      expect(r.code, r.stderr).toBe(2);
      const flag = args[args.length - 2];
      expect(r.stderr).toContain(`svc: error: ${flag} '${args[args.length - 1]}' and the policy file '.svc-policy.yml' are the same file: svc gate reads it as its policy when --policy is not given`);
      expect(existsSync(join(dir, '.svc-policy.yml')), args.join(' ')).toBe(false);
    }
    expect(fake.requests).toHaveLength(0);
    // Another folder's .svc-policy.yml is not this one's policy: written.
    fake.stub(SEARCH, { json: { issues: [], totalCount: 0 } });
    const other = await gate(dir, ['--json-report', 'sub/.svc-policy.yml']);
    expect(other.stderr).not.toContain('the same file');
  });

  it('the CI step summary naming the baseline: exit 2', async () => {
    const dir = tempDir('gate-files-');
    writeFileSync(join(dir, 'base.json'), BASELINE);
    const r = await gate(dir, ['--baseline', 'base.json'], { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: join(dir, 'base.json') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('the CI step summary');
    expect(readFileSync(join(dir, 'base.json'), 'utf8')).toBe(BASELINE);
  });
});

describe('class 5: a policy file that is there but cannot be used is exit 2 naming it', () => {
  const cases: Array<[string, (file: string) => void, RegExp]> = [
    ['a directory', (f) => mkdirSync(f), /is a directory/],
    ['a dangling symlink', (f) => symlinkSync(join(f, '..', 'missing.yml'), f), /a symlink to nothing/],
    ['a symlink loop', (f) => { symlinkSync(`${f}.b`, f); symlinkSync(f, `${f}.b`); }, /a symlink loop/],
    ['not UTF-8', (f) => writeFileSync(f, Buffer.from([0x76, 0x65, 0x72, 0x73, 0x69, 0x6f, 0x6e, 0x3a, 0x20, 0x31, 0x0a, 0xff, 0xfe, 0x0a])), /is not UTF-8/],
    ['empty', (f) => writeFileSync(f, ''), /the file is empty/],
    ['only comments and blank lines', (f) => writeFileSync(f, '# nothing here\n\n   \n'), /the file is empty/],
    ['a FIFO', (f) => execFileSync('mkfifo', [f]), /not a regular file/],
  ];
  for (const [name, make, message] of cases) {
    for (const given of [false, true]) {
      it(`${name}, ${given ? 'as --policy' : 'as the default .svc-policy.yml'}`, async () => {
        const dir = tempDir('gate-files-');
        const file = join(dir, given ? 'given.yml' : '.svc-policy.yml');
        make(file);
        fake.stub(SEARCH, { json: { issues: [], totalCount: 0 } }, { optional: true });
        const r = await gate(dir, given ? ['--policy', 'given.yml'] : []);
        expect(r.code, r.stdout + r.stderr).toBe(2);
        expect(r.stderr).toMatch(message);
        expect(r.stderr).toContain(given ? 'given.yml' : '.svc-policy.yml');
        // The default file is not named as --policy, which was not given.
        if (!given) expect(r.stderr).not.toContain('--policy \'');
        if (!given && !/empty/.test(message.source)) expect(r.stderr).toContain("the policy file '.svc-policy.yml' in the current directory");
        expect(r.stdout).not.toMatch(/PASSED/);
      });
    }
  }
});
