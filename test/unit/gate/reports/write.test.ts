import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tempPathFor, writeFileAtomic } from '../../../../src/output/write-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-write-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('writes the file and leaves no temp file', async () => {
    const target = join(dir, 'report.sarif');
    await writeFileAtomic(target, '{"ok":true}');
    expect(await readFile(target, 'utf8')).toBe('{"ok":true}');
    expect(await readdir(dir)).toEqual(['report.sarif']);
  });

  it('replaces an existing file whole', async () => {
    const target = join(dir, 'report.xml');
    await writeFile(target, 'old content that is longer than the new one');
    await writeFileAtomic(target, Buffer.from('new'));
    expect(await readFile(target, 'utf8')).toBe('new');
    expect(await readdir(dir)).toEqual(['report.xml']);
  });

  it('removes the temp file and keeps the target when the final rename fails', async () => {
    const target = join(dir, 'out');
    await mkdir(target);
    await writeFile(join(target, 'keep'), 'x');
    await expect(writeFileAtomic(target, 'data')).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(['out']);
    expect(await readdir(target)).toEqual(['keep']);
  });

  it('fails without leaving anything when the directory does not exist', async () => {
    await expect(writeFileAtomic(join(dir, 'missing', 'r.md'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readdir(dir)).toEqual([]);
  });

  it('names temp files next to the target, distinct each time', () => {
    const a = tempPathFor(join(dir, 'r.md'));
    const b = tempPathFor(join(dir, 'r.md'));
    expect(a).not.toBe(b);
    expect(a.startsWith(join(dir, '.r.md.'))).toBe(true);
    expect(a.endsWith('.tmp')).toBe(true);
  });
});
