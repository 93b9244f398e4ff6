/**
 * Report files: atomic where that is safe (a reader sees the old file or the whole new one, never a
 * part), in place where a rename would clobber something that is not a regular file.
 */
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { close as closeFd, constants, open as openFd, unlinkSync } from 'node:fs';
import { access, appendFile, lstat, open, readlink, realpath, rename, stat, unlink } from 'node:fs/promises';
import { Socket } from 'node:net';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';
import type { Writable } from 'node:stream';
import { InterruptedError } from '../core/errors.js';

/** Name of a temp file next to `path` (same directory, so the rename stays on one file system). */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * Writes `data` to a temp file in the target's directory, flushes it to disk, then renames it
 * over `path`. On any failure the temp file is removed and the error rethrown; the target is
 * left untouched. With `signal`, an interrupt (Ctrl-C) stops the writing between two batches and
 * removes the temp file at once, before anything else is awaited. (A process killed mid-write can
 * leave a `.NAME.*.tmp` file, but never a partial report under the real name.)
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array | Iterable<string>, mode = 0o666, signal?: AbortSignal): Promise<void> {
  const temp = tempPathFor(path);
  let created = false;
  try {
    const handle = await open(temp, 'wx', mode);
    created = true;
    try {
      if (typeof data === 'string' || data instanceof Uint8Array) await handle.writeFile(data);
      else await writeChunks((text) => handle.writeFile(text), data, signal);
      await handle.sync();
    } catch (error) {
      // Removed before the handle is closed: an interrupted process may be made to leave soon.
      try { unlinkSync(temp); created = false; } catch { /* removed below */ }
      throw error;
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    if (created) await unlink(temp).catch(() => undefined);
    throw error;
  }
}

const OWN_STDOUT = new Set(['/dev/stdout', '/dev/fd/1', '/proc/self/fd/1']);

/**
 * Paths of devices and of the kernel's views (/dev/stdout, /dev/fd/N, /dev/null, /proc/self/fd/N):
 * written in place, never replaced or created. /dev/shm is not one of them: it is a file system
 * (tmpfs) of regular files, where a report is written as on any disk (before, an existing report
 * there was appended to, and a new one refused).
 */
const DEVICE_PATH = /^\/(dev\/(?!shm(\/|$))|proc\/)/;

/** How a report path is written: `-` to stdout, in place (FIFOs, devices), or atomically (files, new paths). */
type WriteMode = 'stdout' | 'direct' | 'atomic';

/**
 * Decides how to write `path` without clobbering what is there. Temp file + rename suits regular
 * files and new paths only: over a FIFO it would leave a regular file (the reader waits forever), and
 * over /dev/stdout or /dev/full (as root) it would replace the device. So FIFOs, character devices,
 * sockets and anything under /dev (but /dev/shm) or /proc (where /dev/stdout may lead to the shell's
 * own redirect target) are written in place; a symbolic link to a regular file keeps the link and replaces its
 * target (a link to nothing: the file it names is created, in an existing directory); a directory
 * or a block device is refused.
 */
export async function writeModeFor(path: string): Promise<{ mode: WriteMode; target: string }> {
  if (path === '-') return { mode: 'stdout', target: path };
  const absolute = resolvePath(path);
  // svc's own stdout by name: written through the same stream as the rest of the output, so that the
  // two share one file offset (a file behind `>` would otherwise be written over from its start).
  if (OWN_STDOUT.has(absolute)) return { mode: 'stdout', target: '-' };
  if (DEVICE_PATH.test(absolute)) return { mode: 'direct', target: absolute };
  let info: Stats;
  try {
    info = await stat(absolute);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { mode: 'atomic', target: await missingTarget(absolute) };
    throw err;
  }
  if (info.isDirectory()) throw Object.assign(new Error(`${path} is a directory`), { code: 'EISDIR' });
  if (info.isFIFO() || info.isCharacterDevice() || info.isSocket()) return { mode: 'direct', target: absolute };
  if (!info.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREG' });
  const real = await realpath(absolute);
  if (DEVICE_PATH.test(real)) return { mode: 'direct', target: absolute };
  return { mode: 'atomic', target: real };
}

/**
 * Why `path` cannot be written as a file svc writes (a report, --failed-to), checked before anything
 * is sent; undefined when it can. `folder`: its folder does not exist or is not writable (a device,
 * FIFO or socket is written in place and needs neither: --failed-to /dev/null for a user who is not
 * root); `directory`; `refused`: what writeModeFor refuses (a symlink loop, a link to nothing in a
 * missing folder, a block device), with its code.
 */
export async function unwritable(path: string): Promise<{ why: 'folder' | 'directory' } | { why: 'refused'; code: string } | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (info?.isDirectory()) return { why: 'directory' };
  const inPlace = info !== undefined && (info.isCharacterDevice() || info.isFIFO() || info.isSocket());
  try {
    if (!(await stat(dirname(path))).isDirectory()) throw new Error('not a directory');
    if (!inPlace) await access(dirname(path), constants.W_OK);
  } catch {
    return { why: 'folder' };
  }
  return writeModeFor(path).then(() => undefined, (err: NodeJS.ErrnoException) => ({ why: 'refused' as const, code: err.code ?? err.message }));
}

/** Most links followed to the file a dangling symbolic link names (as the kernel's limit). */
const MAX_LINKS = 40;

/**
 * Where a report goes when nothing is at `path`: the path itself, or, when it is a symbolic link to
 * nothing (one whose target an undecided run removed: removeStaleReport), the file the link names,
 * so that the link is kept as it is for an existing target. The link's target must be in an existing
 * directory and outside /dev and /proc (svc never creates a file there).
 */
async function missingTarget(absolute: string): Promise<string> {
  let path = absolute;
  for (let hops = 0; ; hops++) {
    const info = await lstat(path).catch((err: NodeJS.ErrnoException) => { if (err.code === 'ENOENT') return undefined; throw err; });
    if (info === undefined) break;
    // Something is there now (made since the stat): written like any file at the path.
    if (!info.isSymbolicLink()) return path === absolute ? absolute : realpath(path);
    if (hops >= MAX_LINKS) throw Object.assign(new Error(`${absolute} is a symbolic link loop`), { code: 'ELOOP' });
    path = resolvePath(dirname(path), await readlink(path));
  }
  if (path === absolute) return absolute;
  // The target's directory, resolved: a missing one is ENOENT (a wrong path, exit 2), as for any report.
  const target = join(await realpath(dirname(path)), basename(path));
  if (DEVICE_PATH.test(target)) throw Object.assign(new Error(`${absolute} is a symbolic link to nothing under /dev or /proc`), { code: 'ENOTREG' });
  return target;
}

/**
 * Takes away a report that an earlier run left at `path`, where this run has none to put there (it
 * could not decide, or could not write it): so that nothing reads the old one as this run's. Only
 * what a report would replace is removed: a regular file, or the regular file a symbolic link leads
 * to (the link is kept, as a write keeps it). Never a FIFO, a device, stdout, anything under /dev (but
 * /dev/shm) or /proc, or a directory. Returns whether a file was removed; never throws.
 */
export async function removeStaleReport(path: string): Promise<boolean> {
  try {
    const { mode, target } = await writeModeFor(path);
    if (mode !== 'atomic') return false;
    if (!(await lstat(target)).isFile()) return false;
    await unlink(target);
    return true;
  } catch {
    return false;
  }
}

/** Text pieces are joined into writes of about this many characters. */
const BATCH = 1 << 20;

/** Writes the pieces in order, joined into batches: a report made piece by piece is never whole in memory. */
async function writeChunks(write: (text: string) => Promise<void>, chunks: Iterable<string>, signal?: AbortSignal): Promise<void> {
  let batch = '';
  const next = async () => {
    // Interrupted: no more batches (the caller removes what it made).
    if (signal?.aborted) throw new InterruptedError(signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');
    await write(batch);
    batch = '';
  };
  for (const chunk of chunks) {
    batch += chunk;
    if (batch.length >= BATCH) await next();
  }
  await next();
}

/**
 * Writes a report: `-` to `stdout`, in place to FIFOs and devices (appending, so a regular file
 * reached through /dev/stdout keeps what was printed before), atomically to regular files and new
 * paths. The text is a string, or its pieces in order (written as they are made: see json-stream.ts).
 */
export async function writeReport(path: string, data: string | Iterable<string>, stdout: Writable | undefined, signal?: AbortSignal): Promise<void> {
  const { mode, target } = await writeModeFor(path);
  const chunks = typeof data === 'string' ? [data] : data;
  if (mode === 'stdout') {
    if (!stdout) throw Object.assign(new Error('no stdout to write to'), { code: 'ENOSTDOUT' });
    await writeChunks((text) => new Promise<void>((resolve, reject) => stdout.write(text, (err) => (err ? reject(err) : resolve()))), chunks, signal);
    return;
  }
  if (mode === 'atomic') return writeFileAtomic(target, chunks, undefined, signal);
  if ((await stat(target)).isFIFO()) return writeFifo(target, chunks, signal);
  const handle = await open(target, 'a');
  try {
    await writeChunks((text) => handle.writeFile(text), chunks, signal);
  } finally {
    await handle.close();
  }
}

// O_NONBLOCK and O_NOCTTY do not exist on Windows (0 there: no FIFOs of this kind).
const { O_WRONLY, O_NONBLOCK = 0, O_NOCTTY = 0 } = constants;

/** How often a FIFO with no reader is tried again. */
const FIFO_RETRY_MS = 100;

const interrupted = (signal: AbortSignal) => new InterruptedError(signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');

/** Waits `ms`, or until `signal` aborts (then throws InterruptedError). */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(interrupted(signal));
    const onAbort = () => { clearTimeout(timer); reject(interrupted(signal!)); };
    const timer = setTimeout(() => { signal?.removeEventListener('abort', onAbort); resolve(); }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * A FIFO opened for writing, without ever blocking a thread. A plain open() of a FIFO waits in the
 * kernel until a reader comes; in node that wait holds a thread of libuv's pool, and process.exit
 * joins that pool, so not even Ctrl-C or SIGTERM could end svc (only SIGKILL). So the FIFO is opened
 * with O_NONBLOCK: with no reader that fails at once (ENXIO) and is tried again every FIFO_RETRY_MS
 * on a timer, which a signal ends (InterruptedError: 130/143). Waiting for a reader is kept (a report
 * FIFO's reader may start after svc); only the wait is now on the event loop.
 */
async function openFifo(path: string, signal?: AbortSignal): Promise<number> {
  for (;;) {
    if (signal?.aborted) throw interrupted(signal);
    try {
      return await new Promise<number>((resolve, reject) => openFd(path, O_WRONLY | O_NONBLOCK | O_NOCTTY, (err, fd) => (err ? reject(err) : resolve(fd))));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENXIO') throw err;
    }
    await pause(FIFO_RETRY_MS, signal);
  }
}

/**
 * Writes the pieces to a FIFO through a pipe stream on the event loop (libuv keeps the descriptor
 * non-blocking and waits for a slow reader with epoll): a signal ends the wait for the reader, and for
 * a reader that stopped reading, at once. A reader that goes away is EPIPE, as for any write.
 */
async function writeFifo(path: string, chunks: Iterable<string>, signal?: AbortSignal): Promise<void> {
  const fd = await openFifo(path, signal);
  let pipe: Socket;
  try {
    pipe = new Socket({ fd, readable: false, writable: true });
  } catch (err) {
    closeFd(fd, () => undefined);
    throw err;
  }
  let failure: Error | undefined;
  pipe.on('error', (err) => { failure ??= err; });
  const settle = (start: (done: (err?: Error | null) => void) => void) => new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(interrupted(signal!));
    const onError = (err: Error) => reject(err);
    if (signal?.aborted) return onAbort();
    if (failure) return reject(failure);
    signal?.addEventListener('abort', onAbort, { once: true });
    pipe.once('error', onError);
    start((err) => {
      signal?.removeEventListener('abort', onAbort);
      pipe.off('error', onError);
      if (err) reject(err); else resolve();
    });
  });
  try {
    await writeChunks((text) => settle((done) => pipe.write(text, done)), chunks, signal);
    await settle((done) => pipe.end(() => done()));
  } finally {
    pipe.destroy();
  }
}

/**
 * Appends `data` in one write with O_APPEND: for files other programs write to as well (a CI's
 * step summary), where replacing the file would lose their part. The data lands whole after
 * whatever is there when the write happens.
 */
export async function appendWhole(path: string, data: string, signal?: AbortSignal): Promise<void> {
  // A FIFO there (never a runner's own file) is written like a report FIFO: a signal still ends svc.
  const info = await stat(path).catch(() => undefined);
  if (info?.isFIFO()) return writeFifo(path, [data], signal);
  await appendFile(path, data);
}
