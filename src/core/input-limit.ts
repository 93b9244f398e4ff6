/**
 * The most bytes svc reads whole from one input (a file, a FIFO, a device, stdin). A read stops as
 * soon as it passes its limit: `cat /dev/zero | svc ... --input -` or `--ids-from /dev/zero` grew
 * svc's memory until it failed with an internal error, as the size was checked only at the end.
 */
import { UsageError } from './errors.js';

export interface InputLimit {
  bytes: number;
  /** What the input is, for the message: 'a request body'. */
  of: string;
  hint: string;
}

const MiB = 1024 * 1024;

/** `--input`, `-F name=@file`, `--x-from`: a request body of this API is kilobytes. */
export const BODY_LIMIT: InputLimit = { bytes: 16 * MiB, of: 'a request body', hint: 'check that it is the file you meant; a request body of this API is small' };

/**
 * `--ids-from`: also the NDJSON of `svc issues search --all` (README), ~1.8 KB an issue, so a
 * 100,000-issue listing (~180 MB) still fits.
 */
export const IDS_LIMIT: InputLimit = { bytes: 256 * MiB, of: 'a list of ids', hint: 'check that it is the file you meant, or split the ids over several runs' };

/** `auth login --with-secret-stdin`: a token secret is some dozens of characters. */
export const SECRET_LIMIT: InputLimit = { bytes: 64 * 1024, of: 'a token secret', hint: 'pipe in only the secret: printf %s "$SECRET" | svc auth login --token-id ID --with-secret-stdin' };

/** Thrown by a read that passed its limit (and stopped there); its caller names the input. */
export class TooLargeError extends Error {
  /** `size`: the whole size when it was known before reading (a regular file). */
  constructor(readonly size?: number) { super('input above its limit'); }
}

const amount = (n: number) => (n >= MiB ? `${(n / MiB).toFixed(1)} MiB` : `${Math.ceil(n / 1024)} KiB`);

/** Exit 2: `source` (`--input from 'x.json'`) passed `limit`; its size when known. */
export function tooLarge(source: string, limit: InputLimit, size?: number): UsageError {
  const is = size === undefined ? 'is' : `is ${amount(size)},`;
  return new UsageError(`${source} ${is} above svc's limit of ${amount(limit.bytes)} on ${limit.of}`, limit.hint);
}
