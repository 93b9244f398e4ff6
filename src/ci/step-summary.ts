/**
 * Appending to a CI's step-summary file (host A's job summary). Earlier steps of the job
 * write to the same file: svc adds its part after theirs and never replaces it. The text goes in one
 * append (O_APPEND), so it lands whole after whatever is there, even with another writer.
 */
import { open, stat } from 'node:fs/promises';
import { appendWhole } from '../output/write-file.js';

/** Appends `text`, starting it on a line of its own (and a blank line apart) after earlier content. */
export async function appendSummary(path: string, text: string): Promise<void> {
  let last = '';
  try {
    // A FIFO (or device) there is not read back: opening one to read would wait for a writer.
    if (!(await stat(path)).isFile()) return await appendWhole(path, text);
    const handle = await open(path, 'r');
    try {
      const { size } = await handle.stat();
      if (size > 0) {
        const buf = Buffer.alloc(Math.min(2, size));
        await handle.read(buf, 0, buf.length, size - buf.length);
        last = buf.toString('latin1');
      }
    } finally {
      await handle.close();
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const lead = last === '' ? '' : last.endsWith('\n\n') ? '' : last.endsWith('\n') ? '\n' : '\n\n';
  await appendWhole(path, lead + text);
}
