/**
 * `svc config reset`: deleting the config file, and only it. What is at the path decides what is
 * done: a file, a symbolic link (the link goes, what it points to stays), a FIFO, socket or device
 * (a name holding no data) are removed; a directory only when empty (its contents are never
 * deleted: the user is told to look at them). A failure is a usage error naming the path and the
 * fix (exit 2), never a crash.
 */
import { promises } from 'node:fs';
import type { Stats } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../core/errors.js';
import { describeSpecial } from './regular-file.js';

/** What was at the path and is gone now: 'absent' when there was nothing to delete. */
type Removed =
  | { kind: 'absent' }
  | { kind: 'file' }
  | { kind: 'link' }
  | { kind: 'empty directory' }
  | { kind: 'special'; what: string };

export async function removeConfigFile(path: string): Promise<Removed> {
  let st: Stats;
  try {
    // fs.promises is read here, not imported: loading it costs ~1 ms.
    st = await promises.lstat(path);
  } catch (err) {
    if (isAbsent(err)) return { kind: 'absent' };
    throw removeError(path, err);
  }
  try {
    if (st.isDirectory()) {
      // rmdir removes only an empty directory: what is in one is not svc's to delete.
      await promises.rmdir(path);
      return { kind: 'empty directory' };
    }
    await promises.unlink(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (isAbsent(err)) return { kind: 'absent' };
    if (code === 'ENOTEMPTY' || code === 'EEXIST') {
      throw new UsageError(
        `${path} is a directory with files in it, not a config file; nothing was deleted`,
        `look at what is in it, then move or delete it yourself, or point SVC_CONFIG_DIR elsewhere`,
      );
    }
    throw removeError(path, err);
  }
  if (st.isSymbolicLink()) return { kind: 'link' };
  if (st.isFile()) return { kind: 'file' };
  return { kind: 'special', what: describeSpecial(path, st) ?? 'a special file' };
}

function isAbsent(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function removeError(path: string, err: unknown): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code !== 'string') return err instanceof Error ? err : new Error(String(err));
  const dir = dirname(path);
  if (code === 'EACCES' || code === 'EPERM') {
    return new UsageError(
      `cannot delete the config file ${path}: permission denied (deleting it needs write permission on its folder ${dir}); nothing was deleted`,
      `run it as the user who owns ${dir}, or point SVC_CONFIG_DIR elsewhere`,
    );
  }
  const why = code === 'EROFS' ? 'read-only file system' : code === 'EBUSY' ? 'it is in use' : (err as Error).message;
  return new UsageError(`cannot delete the config file ${path}: ${why}; nothing was deleted`, 'check the path and its folder, or point SVC_CONFIG_DIR elsewhere');
}
