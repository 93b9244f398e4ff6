/** Atomic file writes for reports: a reader sees the old file or the whole new one, never a part. */
import { randomBytes } from 'node:crypto';
import { appendFile, open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Name of a temp file next to `path` (same directory, so the rename stays on one file system). */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Writes `data` to a temp file in the target's directory, flushes it to disk, then renames it
 * over `path`. On any failure the temp file is removed and the error rethrown; the target is
 * left untouched. (A process killed mid-write can leave a `.NAME.*.tmp` file, but never a
 * partial report under the real name.)
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array, mode = 0o666): Promise<void> {
  const temp = tempPathFor(path);
  let created = false;
  try {
    const handle = await open(temp, 'wx', mode);
    created = true;
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    if (created) await unlink(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * Appends `data` in one write with O_APPEND: for files other programs write to as well (a CI's
 * step summary), where replacing the file would lose their part. The data lands whole after
 * whatever is there when the write happens.
 */
export async function appendWhole(path: string, data: string): Promise<void> {
  await appendFile(path, data);
}
