import * as fs from 'node:fs';
import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConfigStore, checkProfileName, loadProfileSchema } from '../../../src/config/store.js';
import { UsageError } from '../../../src/core/errors.js';
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

  it('a file starting with a UTF-8 BOM (an editor\'s) is read, not called corrupt; a change keeps the BOM', async () => {
    writeFileSync(path, '\ufeff{"profiles":{"default":{"organization":"x"}}}');
    expect(new ConfigStore(path).read()).toEqual({ profiles: { default: { organization: 'x' } } });
    expect(readFileSync(path, 'utf8')).toBe('\ufeff{"profiles":{"default":{"organization":"x"}}}');
    await new ConfigStore(path).update('other', () => ({ organization: 'o' }));
    const text = readFileSync(path, 'utf8');
    expect(text.startsWith('\ufeff')).toBe(true);
    expect(new ConfigStore(path).read()).toEqual({ profiles: { default: { organization: 'x' }, other: { organization: 'o' } } });
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

  it.each(['', '  \n', '\n'])('an empty file (%j) is an empty config, for reading and for writing', async (text) => {
    writeFileSync(path, text);
    expect(new ConfigStore(path).read()).toEqual({ profiles: {} });
    // It was read as {} but its write failed: conf found it not JSON ("Unexpected end of JSON input").
    await new ConfigStore(path).update('default', (p) => ({ ...p, organization: 'org_1' }));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ profiles: { default: { organization: 'org_1' } } });
  });

  it('an empty object is an empty config (an object of other keys is not svc\'s config: above)', () => {
    writeFileSync(path, '{}');
    expect(new ConfigStore(path).read()).toEqual({ profiles: {} });
  });

  it('a file that is not JSON is reported with where it breaks, never what is there', () => {
    writeFileSync(path, '{\n  "profiles": {"a": {"tokenSecret": "s3cr3t-x"},}\n}');
    expect(() => new ConfigStore(path).read()).toThrow(/is corrupt: it is not valid JSON \(line 2, column 49\)$/);
    writeFileSync(path, '{"profiles": {"a": {"tokenSecret": "s3cr3t-x"');
    expect(() => new ConfigStore(path).read()).toThrow(/is corrupt: it is not valid JSON \((line 1, column 46|it ends before the JSON does: cut short\?)\)$/);
    expect(() => new ConfigStore(path).read()).not.toThrow(/s3cr3t/);
    // A bad first token: V8 names no position, and the text is not cut short.
    writeFileSync(path, 'tokenSecret=s3cr3t-x');
    expect(() => new ConfigStore(path).read()).toThrow(/is corrupt: it is not valid JSON \(an unexpected character where a JSON value should start\)$/);
    expect(() => new ConfigStore(path).read()).not.toThrow(/s3cr3t/);
  });

  it('a directory where the file should be is a clear error', () => {
    mkdirSync(path);
    expect(() => new ConfigStore(path).read()).toThrow(/cannot read the config file .*: it is a directory/);
  });

  it('a config folder that cannot be made names the folder and why, not the lock file', async () => {
    const nested = join(dir, 'a', 'b', 'config.json');
    const denied = Object.assign(new Error(`EACCES: permission denied, mkdir '${join(dir, 'a')}'`), { code: 'EACCES', path: join(dir, 'a') });
    const mkdir = vi.spyOn(fs.promises, 'mkdir').mockRejectedValue(denied);
    try {
      const err = await new ConfigStore(nested).update('default', () => ({ organization: 'o' })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).message).toBe(`cannot write the config file ${nested}: its folder ${join(dir, 'a', 'b')} cannot be created (permission denied creating ${join(dir, 'a')})`);
      expect((err as UsageError).hint).toMatch(/create that folder yourself, or point SVC_CONFIG_DIR/);
    } finally {
      mkdir.mockRestore();
    }
    expect(readdirSync(dir)).toEqual([]);
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

describe('what is not a regular file at the config path', () => {
  const servers: Array<ReturnType<typeof createServer>> = [];
  afterEach(async () => { await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r)))); });
  /** A unix socket at `at` (a FIFO would block a plain open, and so this test, when the fix is gone: see test/e2e/config-special-files.test.ts). */
  const socketAt = (at: string) => new Promise<void>((resolve) => { const s = createServer(); servers.push(s); s.listen(at, resolve); });

  it.each([
    ['a socket', async () => socketAt(path), /: it is a socket, not a regular file; delete it with 'svc config reset --yes', or point SVC_CONFIG_DIR elsewhere$/],
    ['a symbolic link to a device', async () => symlinkSync('/dev/null', path), /: it is a symbolic link to a character device, not a regular file; delete it with 'svc config reset --yes' \(it removes the link, not what it points to\)/],
    ['a directory', async () => mkdirSync(path), /: it is a directory, not a regular file; move that directory away/],
    // A link to a directory: config reset removes the link, whatever the directory holds, so the way out is reset, not moving the directory.
    ['a symbolic link to a directory with files', async () => { const to = join(dir, 'elsewhere'); mkdirSync(to); writeFileSync(join(to, 'f'), 'x'); symlinkSync(to, path); },
      /: it is a symbolic link to a directory, not a regular file; delete it with 'svc config reset --yes' \(it removes the link, not what it points to\), or point SVC_CONFIG_DIR elsewhere$/],
  ])('%s is a usage error naming the path and the way out, for reads and writes alike', async (_, make, says) => {
    await make();
    const err = (() => { try { new ConfigStore(path).read(); } catch (e) { return e; } })() as UsageError;
    expect(err).toBeInstanceOf(UsageError);
    expect(`${err.message}; ${err.hint}`).toMatch(says);
    expect(err.message).toContain(`cannot read the config file ${path}`);
    await expect(new ConfigStore(path).update('default', () => ({ organization: 'o' }))).rejects.toThrow(`cannot read the config file ${path}`);
    expect(new ConfigStore(path).storedSecrets()).toEqual([]);
  });
});

describe('values of the wrong type', () => {
  const file = { future: [1, 'x'], profiles: { default: { baseUrl: 5, organization: ['a'], extra: { n: null } }, other: { output: false } } };

  it('setting one key keeps every other as it was, wrong types too', async () => {
    writeFileSync(path, JSON.stringify(file));
    await new ConfigStore(path).update('default', (p) => ({ ...p, baseUrl: 'https://a.example' }));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ ...file, profiles: { ...file.profiles, default: { ...file.profiles.default, baseUrl: 'https://a.example' } } });
    await new ConfigStore(path).update('default', (p) => ({ ...p, organization: 'X' }));
    expect(JSON.parse(readFileSync(path, 'utf8')).profiles.default).toEqual({ baseUrl: 'https://a.example', organization: 'X', extra: { n: null } });
  });

  it('a value of the wrong type can be unset, and counts as set', async () => {
    writeFileSync(path, JSON.stringify(file));
    const store = new ConfigStore(path);
    expect(store.isSet('default', 'baseUrl')).toBe(true);
    expect(store.isSet('default', 'devBaseUrl')).toBe(false);
    expect(store.isSet('nope', 'baseUrl')).toBe(false);
    await store.update('default', (p) => ({ ...p, baseUrl: undefined }));
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ ...file, profiles: { ...file.profiles, default: { organization: ['a'], extra: { n: null } } } });
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
