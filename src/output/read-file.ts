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
import { close as closeFd, constants, open as openFd, readFile, stat, type Stats } from 'node:fs';
import { Socket } from 'node:net';
import { InterruptedError } from '../core/errors.js';

// O_NONBLOCK and O_NOCTTY do not exist on Windows (0 there: no FIFOs of this kind).
const { O_RDONLY, O_NONBLOCK = 0, O_NOCTTY = 0 } = constants;

const interrupted = (signal: AbortSignal) => new InterruptedError(signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');

/** fs.stat as a promise. */
export const statOf = (path: string) => new Promise<Stats>((resolve, reject) => stat(path, (err, s) => (err ? reject(err) : resolve(s))));
const readWhole = (path: string) => new Promise<string>((resolve, reject) => readFile(path, 'utf8', (err, text) => (err ? reject(err) : resolve(text))));

/** The text of `path` as UTF-8; a FIFO waits for its writer without blocking a thread. Errors are fs's. */
export async function readTextFile(path: string, signal?: AbortSignal): Promise<string> {
  if (!(await statOf(path)).isFIFO()) return readWhole(path);
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
  try {
    return await new Promise<string>((resolve, reject) => {
      const onAbort = () => reject(interrupted(signal!));
      signal?.addEventListener('abort', onAbort, { once: true });
      pipe.on('data', (chunk: Buffer) => chunks.push(chunk));
      pipe.once('error', (err) => { signal?.removeEventListener('abort', onAbort); reject(err); });
      pipe.once('end', () => { signal?.removeEventListener('abort', onAbort); resolve(Buffer.concat(chunks).toString('utf8')); });
    });
  } finally {
    pipe.destroy();
  }
}
