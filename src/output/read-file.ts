/**
 * Files svc reads whole (`--ids-from`, `--input`, `--reason-from` and the like, `-F key=@FILE`). A FIFO
 * is read through a pipe stream on the event loop: a plain open() of a FIFO with no writer waits in the kernel, holding a thread of libuv's pool, and
 * process.exit joins that pool, so neither Ctrl-C nor SIGTERM could end svc (only SIGKILL). Opened
 * with O_NONBLOCK, the open returns at once; the stream then waits for a writer (one may start after
 * svc, `mkfifo ids; svc ... --ids-from ids & producer > ids`) and ends when it closes, and a signal
 * ends the wait (InterruptedError: 130/143). The write side is output/write-file.ts (writeFifo).
 */
// node:fs's callbacks, not node:fs/promises: an API call reads its --input through here, and loads
// neither fs/promises nor anything else it does not use (test/unit/architecture/startup-guard.test.ts).
import { close as closeFd, constants, open as openFd, read as readFd, readFile, stat, type Stats } from 'node:fs';
import { Socket } from 'node:net';
import { InterruptedError } from '../core/errors.js';
import { TooLargeError } from '../core/input-limit.js';

// O_NONBLOCK and O_NOCTTY do not exist on Windows (0 there: no FIFOs of this kind).
const { O_RDONLY, O_NONBLOCK = 0, O_NOCTTY = 0 } = constants;

const interrupted = (signal: AbortSignal) => new InterruptedError(signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');

/** fs.stat as a promise. */
const statOf = (path: string) => new Promise<Stats>((resolve, reject) => stat(path, (err, s) => (err ? reject(err) : resolve(s))));
const readWhole = (path: string) => new Promise<string>((resolve, reject) => readFile(path, 'utf8', (err, text) => (err ? reject(err) : resolve(text))));

/**
 * The text of `path` as UTF-8; a FIFO waits for its writer without blocking a thread. More than
 * `maxBytes` is TooLargeError, and the read stops there: a FIFO or a device (/dev/zero, whose size
 * stat gives as 0) may never end. Other errors are fs's.
 */
export async function readTextFile(path: string, signal?: AbortSignal, maxBytes = Infinity): Promise<string> {
  const s = await statOf(path);
  if (s.isFile() && s.size > maxBytes) throw new TooLargeError(s.size);
  if (s.isFIFO()) return readFifo(path, maxBytes, signal);
  // A regular file of a known size is read in one go; one of size 0 (/proc) or a device, in pieces.
  const text = s.isFile() && s.size > 0 ? await readWhole(path) : await readPieces(path, maxBytes, signal);
  // A file that grew after its stat.
  if (Buffer.byteLength(text) > maxBytes) throw new TooLargeError();
  return text;
}

async function readFifo(path: string, maxBytes: number, signal?: AbortSignal): Promise<string> {
  if (signal?.aborted) throw interrupted(signal);
  const fd = await new Promise<number>((resolve, reject) => openFd(path, O_RDONLY | O_NONBLOCK | O_NOCTTY, (err, n) => (err ? reject(err) : resolve(n))));
  let pipe: Socket;
  try {
    pipe = new Socket({ fd, readable: true, writable: false });
  } catch (err) {
    closeFd(fd, () => undefined);
    throw err;
  }
  const chunks: Buffer[] = [];
  let total = 0;
  try {
    return await new Promise<string>((resolve, reject) => {
      const onAbort = () => reject(interrupted(signal!));
      signal?.addEventListener('abort', onAbort, { once: true });
      const fail = (err: Error) => { signal?.removeEventListener('abort', onAbort); reject(err); };
      pipe.on('data', (chunk: Buffer) => {
        total += chunk.length;
        if (total > maxBytes) { pipe.destroy(); fail(new TooLargeError()); return; }
        chunks.push(chunk);
      });
      pipe.once('error', fail);
      pipe.once('end', () => { signal?.removeEventListener('abort', onAbort); resolve(Buffer.concat(chunks).toString('utf8')); });
    });
  } finally {
    pipe.destroy();
  }
}

/** Read to the end 64 KiB at a time, stopping past `maxBytes` or at a signal; the fd is closed either way. */
function readPieces(path: string, maxBytes: number, signal?: AbortSignal): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    openFd(path, O_RDONLY | O_NOCTTY, (err, fd) => {
      if (err) { reject(err); return; }
      const chunks: Buffer[] = [];
      let total = 0;
      const done = (failure: Error | undefined) => closeFd(fd, () => (failure ? reject(failure) : resolve(Buffer.concat(chunks).toString('utf8'))));
      const next = () => {
        if (signal?.aborted) { done(interrupted(signal)); return; }
        const buf = Buffer.allocUnsafe(64 * 1024);
        readFd(fd, buf, 0, buf.length, null, (e, n) => {
          if (e) { done(e); return; }
          if (n === 0) { done(undefined); return; }
          total += n;
          if (total > maxBytes) { done(new TooLargeError()); return; }
          chunks.push(buf.subarray(0, n));
          next();
        });
      };
      next();
    });
  });
}
