/**
 * Large buffers used again and again: the bodies of a long listing's pages (see BodyBuffers in
 * client.ts for why) and the sandbox's answers. At most a few are in use at once (the pages in
 * flight, the page being written), so memory stays flat however many pages are read, and a reused
 * buffer's memory is already mapped (a fresh ~1 MB buffer costs its page faults on every use).
 */
import type { BodyBuffers } from './raw-answer.js';

export class BufferPool implements BodyBuffers {
  private readonly free: Buffer[] = [];

  /** `keep`: how many free buffers to hold on to; more are left to the collector. */
  constructor(private readonly keep = 8) {}

  take(size: number): Buffer {
    // The smallest free buffer that is large enough.
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      if (this.free[i].length >= size && (best < 0 || this.free[i].length < this.free[best].length)) best = i;
    }
    if (best >= 0) return this.free.splice(best, 1)[0];
    return Buffer.allocUnsafeSlow(size);
  }

  give(buf: Buffer): void {
    if (this.free.length < this.keep) this.free.push(buf);
  }
}
