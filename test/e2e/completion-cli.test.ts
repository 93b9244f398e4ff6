import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILES } from '../../src/docs/generated.js';
import { runCli } from '../helpers/host.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = resolve(__dirname, '../..');

describe('svc completion', () => {
  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    it(`svc completion ${shell} prints the checked-in script`, async () => {
      const r = await runCli(['completion', shell]);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(readFileSync(join(ROOT, FILES[shell]), 'utf8'));
    });
  }

  it('an unknown shell is a usage error naming the choices', async () => {
    const r = await runCli(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/tcsh/);
    expect(r.stderr).toMatch(/bash, zsh, fish/);
  });

  it('svc completion --help says how to install it in each shell', async () => {
    const r = await runCli(['completion', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('source <(svc completion bash)');
    expect(r.stdout).toContain('_svc');
    expect(r.stdout).toContain('~/.config/fish/completions/svc.fish');
  });
});

describe('svc __complete profiles (called by the scripts at TAB time)', () => {
  it('prints the profile names, sorted, and is not listed in help', async () => {
    const dir = tempDir('svc-prof-');
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { staging: { baseUrl: 'https://a.example' }, default: {}, 'ci-2': {} } }));
    const r = await runCli(['__complete', 'profiles'], { env: { SVC_CONFIG_DIR: dir } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('ci-2\ndefault\nstaging\n');
    expect((await runCli(['--help'])).stdout).not.toContain('__complete');
  });

  it('leaves out names svc would refuse, so a hand-edited file cannot feed shell syntax to TAB', async () => {
    const dir = tempDir('svc-prof-');
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { '$(touch pwned)': {}, '*': {}, 'a b': {}, good: {} } }));
    const r = await runCli(['__complete', 'profiles'], { env: { SVC_CONFIG_DIR: dir } });
    expect(r.stdout).toBe('good\n');
  });

  it('never writes: no config file is created, a corrupt one completes nothing', async () => {
    const dir = tempDir('svc-prof-');
    const absent = join(dir, 'nested');
    const r = await runCli(['__complete', 'profiles'], { env: { SVC_CONFIG_DIR: absent } });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(existsSync(absent)).toBe(false);
    writeFileSync(join(dir, 'config.json'), '{not json');
    const bad = await runCli(['__complete', 'profiles'], { env: { SVC_CONFIG_DIR: dir } });
    expect(bad.stdout).toBe('');
    expect(readFileSync(join(dir, 'config.json'), 'utf8')).toBe('{not json');
    expect(readdirSync(dir)).toEqual(['config.json']);
  });
});
