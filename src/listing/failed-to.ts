/**
 * `--failed-to FILE` of a bulk action: checked before anything is sent, as the gate checks its
 * report paths, and written as a report is (output/write-file.ts: a regular file atomically, a FIFO
 * or a device in place, never replaced). It was written by a rename whatever the path named: run as
 * root, `--failed-to /dev/full` replaced the device with a regular file, and the config file named
 * there lost every profile.
 */
import { resolve } from 'node:path';
import type { Context } from '../context.js';
import { UsageError } from '../core/errors.js';
import { checkOutputsSpareInputs } from '../output/file-clash.js';
import { unwritable, writeReport } from '../output/write-file.js';

/** The path --failed-to writes, resolved; exit 2 (before any request) where it cannot be written or is svc's config file. */
export async function checkFailedTo(ctx: Context, given: string): Promise<string> {
  if (given.trim() === '') throw new UsageError('--failed-to needs a file name');
  if (given === '-') throw new UsageError("--failed-to writes a file: '-' (stdout) would mix the ids into the records", 'give a file name');
  const path = resolve(ctx.cwd, given);
  const no = await unwritable(path);
  if (no?.why === 'folder') throw new UsageError(`cannot write --failed-to '${given}': its directory does not exist or is not writable`, 'create the directory first');
  if (no !== undefined) throw new UsageError(`cannot write --failed-to '${given}' (${no.why === 'refused' ? no.code : 'a directory'})`, 'give a regular file or a new path');
  await checkOutputsSpareInputs(
    [{ flag: '--failed-to', given, path }],
    [{ flag: 'the config file', given: ctx.config.path, path: resolve(ctx.cwd, ctx.config.path), hint: 'give --failed-to another file: this one holds the profiles and the stored token' }],
  );
  return path;
}

/** Writes the ids; false (and a warning naming the reason) when they could not be written. */
export async function writeFailedTo(ctx: Context, path: string, given: string, ids: readonly string[]): Promise<boolean> {
  try {
    await writeReport(path, ids.length ? ids.join('\n') + '\n' : '', undefined);
    return true;
  } catch (err) {
    ctx.warn(`could not write --failed-to ${given}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return false;
  }
}
