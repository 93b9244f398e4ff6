/**
 * The config file's rewrite keeps what a change does not touch byte for byte: a value JSON.parse and
 * JSON.stringify would change (1e400 -> null, a 20-digit number rounded, 1.0 -> 1, "\u0041" -> "A")
 * is copied as written.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { rewrite } from '../../../src/config/rewrite.js';
import { ConfigStore, loadProfileSchema } from '../../../src/config/store.js';
import { tempDir } from '../../helpers/temp.js';

beforeAll(loadProfileSchema);

const HAND = `{ "x": 1e400, "big": 12345678901234567890,
  "profiles": {
    "default": { "baseUrl": 5, "organization": 12345678901234567890, "n": 1.0, "s": "\\u0041}]\\"" },
    "other": { "output" : "json", "list": [ "a]}", {"b": -0} ] }
  }, "dup": 1, "dup": 2.50 }`;

describe('rewrite', () => {
  it('a file svc wrote comes out as JSON.stringify writes it', () => {
    const before = { profiles: { default: { baseUrl: 'https://a', tokenId: 't' }, b: { output: 'json' } } };
    const text = JSON.stringify(before, undefined, '\t');
    const after = { ...before, profiles: { ...before.profiles, default: { ...before.profiles.default, organization: 'o' } } };
    expect(rewrite(text, before, after)).toBe(JSON.stringify(after, undefined, '\t'));
    expect(rewrite(undefined, undefined, after)).toBe(JSON.stringify(after, undefined, '\t'));
    expect(rewrite('', {}, { profiles: {} })).toBe('{\n\t"profiles": {}\n}');
  });

  it('keeps every untouched value as written, in a hand-written file', () => {
    const before = JSON.parse(HAND) as { profiles: Record<string, Record<string, unknown>> };
    const after = { ...before, profiles: { ...before.profiles, default: { ...before.profiles.default, baseUrl: 'https://a.example' } } };
    const out = rewrite(HAND, before, after);
    expect(JSON.parse(out)).toEqual(after);
    for (const kept of ['"x": 1e400', '"big": 12345678901234567890', '"organization": 12345678901234567890', '"n": 1.0', '"s": "\\u0041}]\\""', '"other": { "output" : "json", "list": [ "a]}", {"b": -0} ] }', '"dup": 2.50']) {
      expect(out).toContain(kept);
    }
    expect(out).toContain('"baseUrl": "https://a.example"');
    expect(out).not.toContain('"baseUrl": 5');
  });
});

describe('ConfigStore.update keeps the rest of a hand-written file as written', () => {
  it('set and unset of one key', async () => {
    const path = join(tempDir('svc-rewrite-'), 'config.json');
    writeFileSync(path, HAND);
    await new ConfigStore(path).update('default', (p) => ({ ...p, baseUrl: 'https://a.example' }));
    let text = readFileSync(path, 'utf8');
    expect(text).toContain('"x": 1e400');
    expect(text).toContain('"organization": 12345678901234567890');
    await new ConfigStore(path).update('default', (p) => ({ ...p, organization: undefined }));
    text = readFileSync(path, 'utf8');
    expect(text).not.toContain('"organization"');
    expect(text).toContain('"big": 12345678901234567890');
    expect(text).toContain('"n": 1.0');
    expect(JSON.parse(text).profiles.default.baseUrl).toBe('https://a.example');
  });
});
