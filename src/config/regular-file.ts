/**
 * Reading a file svc expects to be a plain file (the config file, its lock) without ever blocking.
 * A FIFO there blocks open() until a writer comes: a synchronous open also holds the thread that
 * handles signals, so Ctrl-C and SIGTERM could not stop svc. A device can act when opened.
 * So the path is stat'ed first (a FIFO or device found there is never opened), then opened with
 * O_NONBLOCK and fstat'ed: that open cannot block whatever was put there since the stat, and what
 * is read is the very file fstat judged (no race between the check and the read).
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, promises, readFileSync, statSync } from 'node:fs';
import type { Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

// O_NONBLOCK and O_NOCTTY do not exist on Windows (0 there: no FIFOs of this kind, no terminals to take).
const { O_RDONLY, O_NONBLOCK = 0, O_NOCTTY = 0 } = constants;
const READ_FLAGS = O_RDONLY | O_NONBLOCK | O_NOCTTY;

/** A path that is there but is not a regular file; `kind` says what it is, in words. */
export class NotRegularFile extends Error {
  constructor(readonly path: string, readonly kind: string) {
    super(`${path} is ${kind}, not a regular file`);
  }
}

function kindOf(st: Stats): string | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'a special file';
}

/** What `path` is, when not a regular file ("a FIFO (named pipe)", "a symbolic link to a socket"); undefined for a regular file. */
export function describeSpecial(path: string, st: Stats): string | undefined {
  const kind = kindOf(st);
  if (!kind) return undefined;
  let link = false;
  try { link = lstatSync(path).isSymbolicLink(); } catch { /* gone since: say what was found */ }
  return link ? `a symbolic link to ${kind}` : kind;
}

/** The text of the regular file at `path`. Throws NotRegularFile for anything else, fs errors (ENOENT, ...) as they are. */
export function readRegularFileSync(path: string): string {
  const before = describeSpecial(path, statSync(path));
  if (before) throw new NotRegularFile(path, before);
  const fd = openSync(path, READ_FLAGS);
  try {
    const now = describeSpecial(path, fstatSync(fd));
    if (now) throw new NotRegularFile(path, now);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** The regular file at `path`, open for reading (the caller closes it); errors as readRegularFileSync. */
export async function openRegularFile(path: string): Promise<FileHandle> {
  const before = describeSpecial(path, await promises.stat(path));
  if (before) throw new NotRegularFile(path, before);
  const handle = await promises.open(path, READ_FLAGS);
  try {
    const now = describeSpecial(path, await handle.stat());
    if (now) throw new NotRegularFile(path, now);
    return handle;
  } catch (err) {
    await handle.close().catch(() => {});
    throw err;
  }
}
