/**
 * The SARIF report within host A's code-scanning limits (gate/caps.ts): at most 25,000 results per
 * run and 10 MB of gzip-compressed SARIF per upload. Above either, the most severe results are kept,
 * and how many were left out and why is returned for stderr, the summary and the run's properties.
 */
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { createReadStream } from 'node:fs';
import type { GateVerdict } from './decision.js';
import type { GateIssue } from '../../gate/verdict.js';
import { SARIF_LIMITS, fewerResults, keepMostSevere, sarifOmittedReason, type SarifLimits } from '../../gate/caps.js';

export interface SarifCap {
  /** The verdict whose issues the SARIF report lists (the counts stay the verdict's own). */
  verdict: GateVerdict;
  /** Results left out, and why ('' when none). */
  omitted: number;
  reason: string;
  /** Results before capping. */
  total: number;
}

/** The report's text for a verdict and what it leaves out (reports.ts: the SARIF row's writer). */
type SarifWriter = (v: GateVerdict, omitted: { results: number; reason: string }) => Iterable<string>;

type Suppressed = GateIssue & { suppression: { reason: string; expires: string; source: string } };

function withIssues(v: GateVerdict, [issues, unchanged, suppressed]: GateIssue[][]): GateVerdict {
  return {
    ...v,
    result: { ...v.result, issues },
    ...(v.sifted ? { sifted: { ...v.sifted, unchanged, suppressed: suppressed as Suppressed[] } } : {}),
  };
}

function rawSize(chunks: Iterable<string>): number {
  let raw = 0;
  for (const c of chunks) raw += Buffer.byteLength(c);
  return raw;
}

async function gzipSize(chunks: Iterable<string>): Promise<number> {
  let size = 0;
  await pipeline(Readable.from(chunks), createGzip(), new Writable({ write(chunk: Buffer, _e, done) { size += chunk.length; done(); } }));
  return size;
}

/**
 * Where the SARIF text goes when it can be read back (a regular file): `put` writes it (not yet under
 * the report's name) and answers a handle to measure it compressed and keep or drop it. Then the text
 * is made once, counted as it is written, and compressed only when it is over the limit uncompressed.
 */
export interface SarifSink {
  put(chunks: Iterable<string>): Promise<{ gzipSize(): Promise<number>; keep(): Promise<void>; drop(): Promise<void> }>;
}

/** The pieces as they are, their UTF-8 bytes added to `count.bytes` as they pass. */
function* counted(chunks: Iterable<string>, count: { bytes: number }): Generator<string> {
  for (const c of chunks) {
    count.bytes += Buffer.byteLength(c);
    yield c;
  }
}

/**
 * The verdict the SARIF report lists within the limits. With a sink the report is written there (and
 * kept) as it is measured; without one (stdout, a FIFO) it is measured here and written by the caller.
 */
export async function capSarif(v: GateVerdict, write: SarifWriter, limits: SarifLimits = SARIF_LIMITS, sink?: SarifSink): Promise<SarifCap> {
  const groups = [v.result.issues, v.sifted?.unchanged ?? [], v.sifted?.suppressed ?? []] as GateIssue[][];
  const total = groups.reduce((n, g) => n + g.length, 0);
  let max = limits.results;
  let reason = total > max ? sarifOmittedReason('results', limits) : '';
  for (;;) {
    const { kept, omitted } = keepMostSevere(groups, max);
    const verdict = omitted === 0 ? v : withIssues(v, kept);
    const last = total - omitted === 0;
    let size: number;
    if (sink) {
      const count = { bytes: 0 };
      const written = await sink.put(counted(write(verdict, { results: omitted, reason }), count));
      try {
        // Compressed JSON is far smaller than its text: only a text over the limit is compressed to measure.
        size = count.bytes <= limits.gzipBytes ? count.bytes : await written.gzipSize();
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
      const raw = rawSize(write(verdict, { results: omitted, reason }));
      size = raw <= limits.gzipBytes ? raw : await gzipSize(write(verdict, { results: omitted, reason }));
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

/** One line on what the SARIF report left out: stderr and the summaries. */
export function sarifCapLine(cap: SarifCap | undefined): string[] {
  if (!cap || cap.omitted === 0) return [];
  return [`The SARIF report leaves out ${cap.omitted} of ${cap.total} results (the least severe; it keeps ${cap.total - cap.omitted}): ${cap.reason}.`];
}
