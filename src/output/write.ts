/** Writing to a stream that may be slow (a pipe): wait for it to drain, and stop waiting on Ctrl-C. */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { CliError, InterruptedError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';

/** One line for a failed write to stdout. */
export function stdoutFailureText(err: NodeJS.ErrnoException): string {
  const why: Record<string, string> = {
    ENOSPC: 'no space left on the device', EDQUOT: 'disk quota exceeded', EIO: 'an I/O error', EROFS: 'a read-only file system',
    EFBIG: 'the file is too large', EBADF: 'stdout is closed', EAGAIN: 'stdout would block',
  };
  const code = err.code ?? 'unknown error';
  return `cannot write the output to stdout: ${why[code] ?? err.message} (${code}); the output is incomplete (exit ${EXIT.OUTPUT}, or the failing code of the command)`;
}

/** The output stream failed while svc waited for it (a full disk under a long listing): exit 9, said once. */
class OutputFailedError extends CliError {
  constructor(failure: NodeJS.ErrnoException) { super(stdoutFailureText(failure), EXIT.OUTPUT, undefined, { cause: failure }); }
}

/** Write and, when the stream's buffer is full, wait until it drains (or Ctrl-C ends the wait). */
export async function write(stream: Writable, text: string | Uint8Array, signal?: AbortSignal): Promise<void> {
  if (text.length === 0 || stream.write(text)) return;
  try {
    await once(stream, 'drain', signal ? { signal } : undefined);
  } catch (err) {
    if (signal?.aborted) throw new InterruptedError(signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');
    // The stream failed while its buffer drained (ENOSPC, EIO...): the output is lost, never "internal".
    if (typeof (err as NodeJS.ErrnoException).code === 'string') throw new OutputFailedError(err as NodeJS.ErrnoException);
    throw err;
  }
}

/**
 * Write bytes the caller will change afterwards (a pooled page buffer): resolves once the stream has
 * taken them (its callback; a stream may hold a chunk in its own buffer until then), or throws when
 * Ctrl-C ends the wait for a slow reader. A write error is left to the stream's error handler.
 */
export async function writeOut(stream: Writable, bytes: Uint8Array, signal?: AbortSignal): Promise<void> {
  if (bytes.length === 0) return;
  await new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(new InterruptedError(signal!.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT'));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    stream.write(bytes, () => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
