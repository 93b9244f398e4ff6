import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bool, id, int, isoDate, list, loose, maybe, num, oneOf, record, str } from '../../../src/operations/fields.js';
import { escapeHatchBody, flagValue, splitField, typedValue, validateTyped } from '../../../src/request/body.js';
import { listParser } from '../../../src/request/values.js';
import { flagSpecs } from '../../../src/request/flags.js';
import { UsageError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/temp.js';

const dir = tempDir('svc-body-');
writeFileSync(join(dir, 'body.json'), '{"page": 3, "searchQuery": "sql"}');
writeFileSync(join(dir, 'bad.json'), '{"page": ');
writeFileSync(join(dir, 'list.json'), '[1,2]');
writeFileSync(join(dir, 'text.txt'), 'hello\n');
const src = { cwd: dir, readStdin: () => '{"fromStdin": true}' };

describe('-F typing', () => {
  it('types values the way gh does', async () => {
    expect(await typedValue('true', 'k', src)).toBe(true);
    expect(await typedValue('false', 'k', src)).toBe(false);
    expect(await typedValue('null', 'k', src)).toBeNull();
    expect(await typedValue('42', 'k', src)).toBe(42);
    expect(await typedValue('-1.5', 'k', src)).toBe(-1.5);
    expect(await typedValue('007', 'k', src)).toBe('007');
    expect(await typedValue('["a",1]', 'k', src)).toEqual(['a', 1]);
    expect(await typedValue('{"min":1}', 'k', src)).toEqual({ min: 1 });
    expect(await typedValue('@text.txt', 'k', src)).toBe('hello');
    expect(await typedValue('plain words', 'k', src)).toBe('plain words');
  });

  it('rejects malformed JSON values and missing files with a usage error', async () => {
    await expect(typedValue('[1,', 'k', src)).rejects.toThrow(UsageError);
    await expect(typedValue('@nope.txt', 'k', src)).rejects.toThrow(/cannot read -F k from 'nope.txt': no such file/);
  });

  it('splits key=value and nests dotted keys', () => {
    expect(splitField('severities.min=3', '-F')).toEqual([['severities', 'min'], '3']);
    expect(splitField('a=b=c', '-f')).toEqual([['a'], 'b=c']);
    expect(() => splitField('novalue', '-F')).toThrow(/expects key=value/);
    expect(() => splitField('=x', '-F')).toThrow(UsageError);
    expect(() => splitField('bad key=x', '-F')).toThrow(/invalid key/);
  });
});

describe('escape-hatch body', () => {
  it('layers --input, then -F, then -f', async () => {
    const body = await escapeHatchBody({ ...src, input: 'body.json', fields: ['page=4', 'severities.min=2'], rawFields: ['searchQuery=42'] });
    expect(body).toEqual({ page: 4, searchQuery: '42', severities: { min: 2 } });
  });

  it('reads --input from stdin with -', async () => {
    expect(await escapeHatchBody({ ...src, input: '-' })).toEqual({ fromStdin: true });
  });

  it('names the problem for malformed or non-object --input', async () => {
    await expect(escapeHatchBody({ ...src, input: 'bad.json' })).rejects.toThrow(/--input bad.json is not valid JSON/);
    await expect(escapeHatchBody({ ...src, input: 'list.json' })).rejects.toThrow(/must hold a JSON object/);
    await expect(escapeHatchBody({ ...src, input: 'missing.json' })).rejects.toThrow(/no such file/);
    await expect(escapeHatchBody({ ...src, input: '.' })).rejects.toThrow(/it is a directory/);
  });
});

describe('typed flags', () => {
  const shape = {
    page: maybe(int(1)),
    score: maybe(num()),
    ids: maybe(list(str())),
    nums: maybe(list(int())),
    repos: maybe(list(record({ a: str() }))),
    order: maybe(oneOf(['asc', 'desc'])),
    date: maybe(isoDate()),
    flag: maybe(bool()),
    name: maybe(id()),
  };
  const specs = Object.fromEntries(flagSpecs(shape).map((s) => [s.flag, s]));

  it('converts numbers, integers, lists and JSON', async () => {
    expect(await flagValue(specs.page, '2', src)).toBe(2);
    expect(await flagValue(specs.score, '2.5', src)).toBe(2.5);
    expect(await flagValue(specs.nums, ['1', '2'], src)).toEqual([1, 2]);
    expect(await flagValue(specs.repos, '[{"a":"x"}]', src)).toEqual([{ a: 'x' }]);
    expect(await flagValue(specs.ids, ['a', 'b'], src)).toEqual(['a', 'b']);
  });

  it('refuses non-numbers and fractions for integers', async () => {
    await expect(flagValue(specs.page, 'abc', src)).rejects.toThrow("--page expects an integer, got 'abc'");
    await expect(flagValue(specs.page, '1.5', src)).rejects.toThrow("--page expects an integer, got '1.5'");
    await expect(flagValue(specs.score, '', src)).rejects.toThrow('--score expects a number');
    await expect(flagValue(specs.repos, '{not json', src)).rejects.toThrow(/the value of --repos is not valid JSON/);
  });

  it('validates with the schema and names the flag', () => {
    const schema = loose(shape);
    const flagOf = (p: PropertyKey[]) => `--${String(p[0])}`;
    expect(() => validateTyped(schema, { name: '' }, flagOf)).toThrow('invalid value for --name: must not be empty');
    expect(() => validateTyped(schema, { order: 'up' }, flagOf)).toThrow('invalid value for --order: must be one of: asc, desc');
    expect(() => validateTyped(schema, { page: 0 }, flagOf)).toThrow('invalid value for --page: must be at least 1 (got 0)');
    expect(() => validateTyped(schema, { date: '21/11/2026' }, flagOf)).toThrow(/invalid value for --date: expected a date as YYYY-MM-DD/);
    expect(() => validateTyped(schema, { page: 1, date: '2026-11-21' }, flagOf)).not.toThrow();
  });

  it('splits comma lists and repeated flags alike, trimming items', () => {
    const collectList = listParser('--ids');
    expect(collectList('a,b', undefined)).toEqual(['a', 'b']);
    expect(collectList('c', ['a', 'b'])).toEqual(['a', 'b', 'c']);
    expect(collectList(' a , b ', undefined)).toEqual(['a', 'b']);
  });
});
