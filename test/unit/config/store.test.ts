import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ConfigStore, checkProfileName, loadProfileSchema } from '../../../src/config/store.js';
import { UsageError } from '../../../src/errors.js';
import { tempDir } from '../../helpers/temp.js';

// What the CLI's runner does before any command: load the schema that checks the file.
beforeAll(loadProfileSchema);
let dir: string;
let path: string;
beforeEach(() => {
  dir = tempDir('svc-store-');
  path = join(dir, 'config.json');
});
const mode = (p: string) => statSync(p).mode & 0o777;

describe('ConfigStore', () => {
  it('an absent file is an empty config, and reading never creates it', () => {
    expect(new ConfigStore(path).read()).toEqual({ profiles: {} });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('writes atomically with mode 0600, also over a file that was world-readable', async () => {
    writeFileSync(path, '{"profiles":{}}');
    chmodSync(path, 0o644);
    const store = new ConfigStore(path);
    await store.update('default', (p) => ({ ...p, baseUrl: 'https://a', tokenId: 'i', tokenSecret: 's' }));
    expect(mode(path)).toBe(0o600);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ profiles: { default: { baseUrl: 'https://a', tokenId: 'i', tokenSecret: 's' } } });
    expect(readdirSync(dir)).toEqual(['config.json']);
    expect(new ConfigStore(path).profile('default')?.baseUrl).toBe('https://a');
  });

  it('creates a missing directory private (0700)', async () => {
    const nested = join(dir, 'a', 'b', 'config.json');
    await new ConfigStore(nested).update('default', () => ({ organization: 'o' }));
    expect(mode(join(dir, 'a', 'b'))).toBe(0o700);
    expect(mode(nested)).toBe(0o600);
  });

  it('keeps unknown top-level keys and other profiles', async () => {
    writeFileSync(path, JSON.stringify({ future: 1, profiles: { other: { organization: 'x' } } }));
    await new ConfigStore(path).update('default', () => ({ organization: 'o' }));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ future: 1, profiles: { other: { organization: 'x' }, default: { organization: 'o' } } });
  });

  it.each([
    ['{"profiles": {', /not valid JSON/],
    ['[1,2]', /not a JSON object/],
    ['{"profiles": []}', /"profiles" is not an object/],
    ['{"profiles": {"default": "x"}}', /"profiles" is not an object/],
    // A gate's --json-report written over it: never read as an empty config.
    ['{"passed": false, "decided": false, "exitCode": 6, "error": "x"}', /not svc's config \(no "profiles"; it holds "passed", "decided", "exitCode", \.\.\.\)/],
  ])('a corrupt file (%s) is a usage error naming the path and the way out, and is never overwritten', async (text, why) => {
    writeFileSync(path, text);
    const store = new ConfigStore(path);
    expect(() => store.read()).toThrow(why);
    try { store.read(); } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      expect((e as UsageError).message).toContain(path);
      expect((e as UsageError).hint).toContain('svc config reset');
    }
    await expect(store.update('default', () => ({ organization: 'o' }))).rejects.toThrow(why);
    expect(readFileSync(path, 'utf8')).toBe(text);
  });

  it('an empty file is an empty config', () => {
    writeFileSync(path, '  \n');
    expect(new ConfigStore(path).read()).toEqual({ profiles: {} });
    writeFileSync(path, '{}');
    expect(new ConfigStore(path).read()).toEqual({ profiles: {} });
  });

  it('a directory where the file should be is a clear error', () => {
    mkdirSync(path);
    expect(() => new ConfigStore(path).read()).toThrow(/cannot read the config file .*: it is a directory/);
  });

  it('an unwritable place is a clear error, not a crash', async () => {
    writeFileSync(join(dir, 'file'), 'x');
    const store = new ConfigStore(join(dir, 'file', 'config.json'));
    await expect(store.update('default', () => ({ organization: 'o' }))).rejects.toThrow(/cannot write the config file .*config\.json: /);
    await expect(store.update('default', () => ({ organization: 'o' }))).rejects.toBeInstanceOf(UsageError);
  });

  it('finds the stored secrets, even in a corrupt file, and never throws', () => {
    writeFileSync(path, JSON.stringify({ profiles: { a: { tokenSecret: 'sec-a"q' }, b: { tokenSecret: 'sec-b' } } }));
    expect(new ConfigStore(path).storedSecrets()).toEqual(['sec-a"q', 'sec-b']);
    writeFileSync(path, '{"profiles": {"default": {"tokenId": "x", "tokenSecret": "half-written-secret"');
    expect(new ConfigStore(path).storedSecrets()).toEqual(['half-written-secret']);
    expect(new ConfigStore(join(dir, 'none.json')).storedSecrets()).toEqual([]);
    mkdirSync(join(dir, 'd.json'));
    expect(new ConfigStore(join(dir, 'd.json')).storedSecrets()).toEqual([]);
  });
});

describe('checkProfileName', () => {
  it.each(['default', 'ci-prod', 'a.b_c', 'X1'])('accepts %s', (n) => expect(checkProfileName(n)).toBe(n));
  it.each(['', '-x', '../etc', 'a b', 'a/b', 'x'.repeat(65), '__proto__x\u001b'])('refuses %j', (n) => {
    expect(() => checkProfileName(n, 'SVC_PROFILE')).toThrow(/invalid profile name .* \(from SVC_PROFILE\)/);
  });
});

describe('profile names that are also Object properties', () => {
  it('"constructor" and "toString" are ordinary, absent profiles', async () => {
    const store = new ConfigStore(path);
    expect(store.profile('constructor')).toBeUndefined();
    expect(store.profile('toString')).toBeUndefined();
    await store.update('constructor', () => ({ organization: 'o' }));
    expect(new ConfigStore(path).profile('constructor')).toEqual({ organization: 'o' });
  });
});
