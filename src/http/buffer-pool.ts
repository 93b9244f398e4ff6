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
    // With room to spare: pages differ a little in size, and a buffer that just fits would be too
    // small for the next page, which would then need a new one.
    return Buffer.allocUnsafeSlow(Math.ceil((size * 1.25) / 65536) * 65536);
  }

  give(buf: Buffer): void {
    if (this.free.length < this.keep) {
      this.free.push(buf);
      return;
    }
    // Full: keep the larger buffers, which serve any page.
    let smallest = 0;
    for (let i = 1; i < this.free.length; i++) if (this.free[i].length < this.free[smallest].length) smallest = i;
    if (this.free[smallest].length < buf.length) this.free[smallest] = buf;
  }
}
