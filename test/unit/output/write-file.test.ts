/**
 * Report paths that are symbolic links, and what an undecided gate may remove (removeStaleReport):
 * only what a report would replace, never a FIFO, a device, stdout or a directory.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removeStaleReport, unwritable, writeModeFor, writeReport } from '../../../src/output/write-file.js';
import { tempDir } from '../../helpers/temp.js';

const hasMkfifo = (() => { try { execFileSync('mkfifo', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; } })();

describe('a symbolic link at a report path keeps the link', () => {
  it('to a file: the file is replaced', async () => {
    const dir = tempDir('svc-wf-');
    writeFileSync(join(dir, 'real'), 'old');
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    await writeReport(join(dir, 'link'), 'new', undefined);
    expect(lstatSync(join(dir, 'link')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'real'), 'utf8')).toBe('new');
  });

  it('to nothing (relative, through two links): the file it names is created, the links kept', async () => {
    const dir = tempDir('svc-wf-');
    mkdirSync(join(dir, 'out'));
    symlinkSync('out/real', join(dir, 'mid'));
    symlinkSync('mid', join(dir, 'link'));
    expect(await writeModeFor(join(dir, 'link'))).toEqual({ mode: 'atomic', target: join(dir, 'out', 'real') });
    await writeReport(join(dir, 'link'), 'new', undefined);
    expect(readlinkSync(join(dir, 'link'))).toBe('mid');
    expect(readFileSync(join(dir, 'out', 'real'), 'utf8')).toBe('new');
  });

  it('to nothing in a missing directory, under /dev, or a loop: refused, nothing made', async () => {
    const dir = tempDir('svc-wf-');
    symlinkSync(join(dir, 'nope', 'real'), join(dir, 'a'));
    await expect(writeModeFor(join(dir, 'a'))).rejects.toMatchObject({ code: 'ENOENT' });
    symlinkSync('/dev/svc-test-nothing', join(dir, 'b'));
    await expect(writeModeFor(join(dir, 'b'))).rejects.toMatchObject({ code: 'ENOTREG' });
    symlinkSync(join(dir, 'd'), join(dir, 'c'));
    symlinkSync(join(dir, 'c'), join(dir, 'd'));
    await expect(writeModeFor(join(dir, 'c'))).rejects.toMatchObject({ code: 'ELOOP' });
    expect(existsSync('/dev/svc-test-nothing')).toBe(false);
  });
});

describe('removeStaleReport', () => {
  it('removes a regular file, and a link\'s regular target (keeping the link)', async () => {
    const dir = tempDir('svc-wf-');
    writeFileSync(join(dir, 'plain'), 'x');
    expect(await removeStaleReport(join(dir, 'plain'))).toBe(true);
    expect(existsSync(join(dir, 'plain'))).toBe(false);
    writeFileSync(join(dir, 'real'), 'x');
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    expect(await removeStaleReport(join(dir, 'link'))).toBe(true);
    expect(existsSync(join(dir, 'real'))).toBe(false);
    expect(lstatSync(join(dir, 'link')).isSymbolicLink()).toBe(true);
    expect(await removeStaleReport(join(dir, 'link'))).toBe(false);
    expect(await removeStaleReport(join(dir, 'none'))).toBe(false);
  });

  it('never a directory (or a link to one), stdout, or a device', async () => {
    const dir = tempDir('svc-wf-');
    mkdirSync(join(dir, 'sub'));
    symlinkSync(join(dir, 'sub'), join(dir, 'to-sub'));
    for (const path of [join(dir, 'sub'), join(dir, 'to-sub'), '-', '/dev/stdout', '/dev/null']) expect(await removeStaleReport(path), path).toBe(false);
    expect(lstatSync(join(dir, 'sub')).isDirectory()).toBe(true);
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
    // A link to a device: the device stays.
    symlinkSync('/dev/null', join(dir, 'to-null'));
    expect(await removeStaleReport(join(dir, 'to-null'))).toBe(false);
    expect(lstatSync('/dev/null').isCharacterDevice()).toBe(true);
  });

  it.skipIf(!hasMkfifo)('never a FIFO (skipped without mkfifo)', async () => {
    const dir = tempDir('svc-wf-');
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    expect(await removeStaleReport(join(dir, 'pipe'))).toBe(false);
    expect(lstatSync(join(dir, 'pipe')).isFIFO()).toBe(true);
  });
});

// /dev/shm is tmpfs, a file system of regular files (Linux): a report there is made and replaced as
// on any disk. Under the old rule ("/dev/... is a device") a new one was refused (ENOENT) and an old
// one appended to, leaving two reports in one file.
describe.runIf(existsSync('/dev/shm') && lstatSync('/dev/shm').isDirectory())('a report under /dev/shm', () => {
  it('is created, then replaced, atomically', async () => {
    const dir = mkdtempSync('/dev/shm/svc-wf-');
    try {
      const path = join(dir, 'report.sarif');
      expect(await writeModeFor(path)).toEqual({ mode: 'atomic', target: path });
      await writeReport(path, 'first', undefined);
      await writeReport(path, 'second', undefined);
      expect(readFileSync(path, 'utf8')).toBe('second');
      expect(await removeStaleReport(path)).toBe(true);
      expect(existsSync(path)).toBe(false);
      // The folder itself is a folder (refused as one); a path that only leads back into /dev is a device's.
      await expect(writeModeFor('/dev/shm')).rejects.toMatchObject({ code: 'EISDIR' });
      expect(await writeModeFor('/dev/shm/../null')).toEqual({ mode: 'direct', target: '/dev/null' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('unwritable: what a report or --failed-to path cannot be, checked before anything is sent', () => {
  it('a directory, a missing folder, a link loop; a new file, a device (written in place) are fine', async () => {
    const dir = tempDir('svc-unwritable-');
    expect(await unwritable(dir)).toEqual({ why: 'directory' });
    expect(await unwritable(join(dir, 'missing', 'r.json'))).toEqual({ why: 'folder' });
    symlinkSync('loop', join(dir, 'loop'));
    expect(await unwritable(join(dir, 'loop'))).toMatchObject({ why: 'refused' });
    expect(await unwritable(join(dir, 'new.json'))).toBeUndefined();
    expect(await unwritable('/dev/null')).toBeUndefined();
  });
});
