/**
 * `svc config reset`'s deletion: only the config file goes. A directory in its place is removed only
 * when empty (never its contents); a link, not what it points to; a failure is a usage error naming the
 * path and what to do (it crashed with exit 70: "rm returned EISDIR", "EACCES ... unlink").
 */
import * as fs from 'node:fs';
import { existsSync, lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { removeConfigFile } from '../../../src/config/remove.js';
import { UsageError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/temp.js';

const place = () => {
  const dir = tempDir('svc-remove-');
  return { dir, path: join(dir, 'config.json') };
};

describe('removeConfigFile', () => {
  it('a file is deleted', async () => {
    const { path } = place();
    writeFileSync(path, '{}');
    expect(await removeConfigFile(path)).toEqual({ kind: 'file' });
    expect(existsSync(path)).toBe(false);
  });

  it('nothing there, or a file where the folder should be, is "absent"', async () => {
    const { dir, path } = place();
    expect(await removeConfigFile(path)).toEqual({ kind: 'absent' });
    writeFileSync(join(dir, 'f'), 'x');
    expect(await removeConfigFile(join(dir, 'f', 'config.json'))).toEqual({ kind: 'absent' });
    expect(readFileSync(join(dir, 'f'), 'utf8')).toBe('x');
  });

  it('a symbolic link is removed, what it points to is kept', async () => {
    const { dir, path } = place();
    writeFileSync(join(dir, 'real.json'), '{"profiles":{}}');
    symlinkSync(join(dir, 'real.json'), path);
    expect(await removeConfigFile(path)).toEqual({ kind: 'link' });
    expect(existsSync(path)).toBe(false);
    expect(readFileSync(join(dir, 'real.json'), 'utf8')).toBe('{"profiles":{}}');
  });

  it('an empty directory is removed', async () => {
    const { path } = place();
    mkdirSync(path);
    expect(await removeConfigFile(path)).toEqual({ kind: 'empty directory' });
    expect(existsSync(path)).toBe(false);
  });

  it('a directory with files in it is refused, and every file kept', async () => {
    const { path } = place();
    mkdirSync(join(path, 'sub'), { recursive: true });
    writeFileSync(join(path, 'sub', 'keep'), 'data');
    const err = await removeConfigFile(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe(`${path} is a directory with files in it, not a config file; nothing was deleted`);
    expect((err as UsageError).hint).toMatch(/move or delete it yourself, or point SVC_CONFIG_DIR elsewhere/);
    expect(readFileSync(join(path, 'sub', 'keep'), 'utf8')).toBe('data');
  });

  it('a socket (as a FIFO or a device) is removed, and said to be one', async () => {
    const { path } = place();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      expect(await removeConfigFile(path)).toEqual({ kind: 'special', what: 'a socket' });
      expect(existsSync(path)).toBe(false);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });

  it.each([
    ['EACCES', /permission denied \(deleting it needs write permission on its folder .*\); nothing was deleted$/],
    ['EPERM', /permission denied/],
    ['EROFS', /: read-only file system; nothing was deleted$/],
  ])('%s from the file system (a folder the user cannot write) is a usage error naming the path', async (code, says) => {
    const { path } = place();
    writeFileSync(path, '{}');
    const unlink = vi.spyOn(fs.promises, 'unlink').mockRejectedValue(Object.assign(new Error(`${code}: unlink '${path}'`), { code }));
    try {
      const err = await removeConfigFile(path).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).message).toMatch(`cannot delete the config file ${path}: `);
      expect((err as UsageError).message).toMatch(says);
    } finally {
      unlink.mockRestore();
    }
    expect(lstatSync(path).isFile()).toBe(true);
  });
});
