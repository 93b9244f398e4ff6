/** Writing to a stream that may be slow (a pipe): wait for it to drain, and stop waiting on Ctrl-C. */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { InterruptedError } from '../errors.js';

/** Write and, when the stream's buffer is full, wait until it drains (or Ctrl-C ends the wait). */
export async function write(stream: Writable, text: string | Uint8Array, signal?: AbortSignal): Promise<void> {
  if (text.length === 0 || stream.write(text)) return;
  try {
    await once(stream, 'drain', signal ? { signal } : undefined);
  } catch (err) {
    if (signal?.aborted) throw new InterruptedError(signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');
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
