/**
 * The SARIF report within host A's code-scanning limits (gate/caps.ts): at most 25,000 results per
 * run and 10 MB of gzip-compressed SARIF per upload. Above either, the most severe results are kept,
 * and how many were left out and why is returned for stderr, the summary and the run's properties.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { createReadStream } from 'node:fs';
import type { GateVerdict } from '../../gate/verdict.js';
import type { GateIssue, IssueList } from '../../gate/tally.js';
import { SARIF_LIMITS, fewerResults, mostSevereMask, sarifOmittedReason, type SarifCap, type SarifLimits } from '../../gate/caps.js';

/** The report's text for a verdict and what it leaves out (gate/reports/registry.ts: the SARIF row's writer). */
type SarifWriter = (v: GateVerdict, omitted: { results: number; reason: string }) => Iterable<string>;

type Suppressed = GateIssue & { suppression: { reason: string; expires: string; source: string } };

/** The items of a list whose places (from `from` on) the mask keeps: an array for an array, else read through. */
function kept(list: IssueList, keep: Uint8Array, from: number): IssueList {
  if (Array.isArray(list)) return (list as GateIssue[]).filter((_, at) => keep[from + at] === 1);
  if (list.pick) return list.pick(keep, from);
  let length = 0;
  for (let at = 0; at < list.length; at++) length += keep[from + at];
  return {
    length,
    *[Symbol.iterator]() {
      let at = from;
      for (const issue of list) if (keep[at++] === 1) yield issue;
    },
  };
}

function withIssues(v: GateVerdict, groups: IssueList[], keep: Uint8Array): GateVerdict {
  const [issues, unchanged, suppressed] = [kept(groups[0], keep, 0), kept(groups[1], keep, groups[0].length), kept(groups[2], keep, groups[0].length + groups[1].length)];
  return {
    ...v,
    result: { ...v.result, issues },
    ...(v.sifted ? { sifted: { ...v.sifted, unchanged: unchanged as GateIssue[], suppressed: suppressed as Suppressed[] } } : {}),
  };
}

/** The pieces joined into ~64 KB strings (a stream takes few large pieces far faster than many small ones), their bytes counted. */
function* batched(chunks: Iterable<string>, count: { raw: number }): Generator<string> {
  let batch = '';
  for (const c of chunks) {
    batch += c;
    if (batch.length >= 1 << 16) {
      count.raw += Buffer.byteLength(batch);
      yield batch;
      batch = '';
    }
  }
  count.raw += Buffer.byteLength(batch);
  if (batch !== '') yield batch;
}

/** The text's size and its gzip-compressed size, in one writing of it. */
async function sizes(chunks: Iterable<string>): Promise<{ raw: number; gzip: number }> {
  const count = { raw: 0 };
  let gzip = 0;
  await pipeline(Readable.from(batched(chunks, count)), createGzip(), new Writable({ write(chunk: Buffer, _e, done) { gzip += chunk.length; done(); } }));
  return { raw: count.raw, gzip };
}

/**
 * Where the SARIF text goes when it can be read back (a regular file): `put` writes it (not yet under
 * the report's name) and answers a handle to measure it compressed and keep or drop it. Then the text
 * is made once, its bytes counted as it is written, and compressed only when it is over the limit.
 */
export interface SarifSink {
  put(chunks: Iterable<string>): Promise<{ gzipSize(): Promise<number>; keep(): Promise<void>; drop(): Promise<void> }>;
}

/** The pieces as they are, their UTF-8 bytes added to `count.raw` as they pass. */
function* counted(chunks: Iterable<string>, count: { raw: number }): Generator<string> {
  for (const c of chunks) {
    count.raw += Buffer.byteLength(c);
    yield c;
  }
}

/**
 * The verdict the SARIF report lists within the limits. With a sink the report is written there (and
 * kept) as it is measured; without one (stdout, a FIFO) it is measured here and written by the caller.
 */
export async function capSarif(v: GateVerdict, write: SarifWriter, limits: SarifLimits = SARIF_LIMITS, sink?: SarifSink): Promise<SarifCap> {
  const groups: IssueList[] = [v.result.issues, v.sifted?.unchanged ?? [], v.sifted?.suppressed ?? []];
  const total = groups.reduce((n, g) => n + g.length, 0);
  let max = limits.results;
  let reason = total > max ? sarifOmittedReason('results', limits) : '';
  for (;;) {
    const { keep, omitted } = mostSevereMask(groups, max);
    const verdict = keep === undefined ? v : withIssues(v, groups, keep);
    const last = total - omitted === 0;
    let size: number;
    if (sink) {
      const count = { raw: 0 };
      const written = await sink.put(counted(write(verdict, { results: omitted, reason }), count));
      try {
        // What counts is the compressed size, but a text within the limit fits whatever it compresses to.
        size = count.raw <= limits.gzipBytes ? count.raw : await written.gzipSize();
      } catch (err) {
        await written.drop();
        throw err;
      }
      if (size <= limits.gzipBytes || last) {
        await written.keep();
        return { verdict, omitted, reason, total };
      }
      await written.drop();
    } else {
      const measured = await sizes(write(verdict, { results: omitted, reason }));
      size = measured.raw <= limits.gzipBytes ? measured.raw : measured.gzip;
      if (size <= limits.gzipBytes || last) return { verdict, omitted, reason, total };
    }
    max = fewerResults(total - omitted, size, limits.gzipBytes);
    reason = sarifOmittedReason('gzipBytes', limits);
  }
}

/** The compressed size of a file, read as a stream. */
export async function gzipFileSize(path: string): Promise<number> {
  let size = 0;
  await pipeline(createReadStream(path), createGzip(), new Writable({ write(chunk: Buffer, _e, done) { size += chunk.length; done(); } }));
  return size;
}
