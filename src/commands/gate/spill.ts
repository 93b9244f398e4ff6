/**
 * The gate's kept issues out of memory. A gate over a large organization keeps tens of thousands of
 * issues for its reports (every open issue with --sarif, --junit, --json-report, ...); held as
 * objects they were most of its memory (~1.1 KB each: 56,000 issues, ~65 MB of heap, and the
 * garbage collector marking them again and again). Past `after` issues the store writes each kept
 * issue as one line of JSON to a temporary file as it is counted, and keeps only its place, level
 * and score. Each report then reads the file again, one issue at a time (in order, or the breaking
 * ones most severe first), so memory stays flat whatever the number of issues.
 *
 * The same values: an issue is written as `JSON.stringify` of the kept object (its heavy fields
 * already undefined, so left out, as JSON leaves them out) and read back with `JSON.parse`, which
 * gives the same keys in the same order and the same values; `breaking` is set on the way out. So
 * every report is byte for byte what the in-memory store gives (test/unit/commands/gate/spill.test.ts).
 *
 * The file: made in a new private directory (0700, file 0600: issues are the organization's
 * data) under the system's temporary directory, and removed at once while it stays open (POSIX), so
 * nothing is left behind however the process ends (a crash, Ctrl-C, kill -9); where an open file
 * cannot be removed (Windows), it is removed when the store closes. If no temporary file can be
 * made, the issues stay in memory (as before); a failure to write or read it once made ends the gate
 * with exit 9 (OUTPUT), never a verdict on part of the issues.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmdirSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CliError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { LazyList } from '../../core/json-stream.js';
import { arrayStore, type GateIssue, type IssueList, type IssueStore } from '../../gate/tally.js';
import { LEVELS, levelRank, type Level, numericScore } from '../../operations/levels.js';

/** Writes to the file gather about this many characters; sequential reads take this many bytes. */
const BATCH = 1 << 20;

/** Kept issues past this many go to the file (below it a file costs more than it saves). */
const SPILL_AFTER = 2_000;

type Reader = (places: ArrayLike<number> | undefined, ascending: boolean) => Iterable<GateIssue>;

/**
 * A kept list read back from the file on each pass (every issue, or those at `places`): a
 * LazyList, so a report writes it item by item.
 */
class SpilledList extends LazyList<GateIssue> implements IssueList {
  readonly length: number;
  constructor(private readonly reader: Reader, private readonly places: Uint32Array | undefined, count: number, private readonly ascending: boolean, private readonly known?: () => { rank: Uint8Array; score: Float64Array }) {
    super(() => reader(places, ascending));
    this.length = places ? places.length : count;
  }

  /** Every issue's level and score, from memory (the whole list only). */
  severities(): { rank: Uint8Array; score: Float64Array } | undefined {
    return this.places ? undefined : this.known?.();
  }

  pick(keep: Uint8Array, from: number): IssueList {
    const chosen: number[] = [];
    for (let k = 0; k < this.length; k++) if (keep[from + k] === 1) chosen.push(this.places ? this.places[k] : k);
    return new SpilledList(this.reader, Uint32Array.from(chosen), chosen.length, this.ascending);
  }
}

interface SpillFile {
  fd: number;
  path: string;
  dir: string;
  /** Still to remove at close (where an open file could not be removed). */
  removeAtClose: boolean;
}

export interface SpillStore extends IssueStore {
  /** Whether the issues went to a file (for tests and --verbose). */
  readonly spilled: boolean;
  /** Closes and removes the file; the lists cannot be read after it. */
  close(): void;
}

function openSpill(dir: string): SpillFile | undefined {
  let made: string | undefined;
  try {
    made = mkdtempSync(join(dir, 'svc-gate-'));
    const path = join(made, 'kept.ndjson');
    const fd = openSync(path, 'wx+', 0o600);
    const file: SpillFile = { fd, path, dir: made, removeAtClose: false };
    try {
      unlinkSync(path);
      rmdirSync(made);
    } catch {
      file.removeAtClose = true;
    }
    return file;
  } catch {
    if (made !== undefined) try { rmdirSync(made); } catch { /* not empty or gone: nothing more to do */ }
    return undefined;
  }
}

function ioError(err: unknown, what: string, file: SpillFile): CliError {
  const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
  return new CliError(`gate: cannot ${what} its temporary file of kept issues in ${file.dir} (${code}), so there is no verdict`, EXIT.OUTPUT, 'free disk space in the temporary directory, or point TMPDIR at another one');
}

/**
 * A store that keeps the first `after` issues in memory and, past them, every kept issue in a
 * temporary file under `dir` (the system's temporary directory by default). `seen` is shown each
 * issue as it is kept (what a caller wants to know of every issue without reading them back).
 * `batch` (characters written, bytes read ahead at once) is BATCH; tests make it small, to cross
 * its boundaries often with few issues.
 */
export function spillStore(o: { after?: number; dir?: string; seen?: (issue: GateIssue) => void; batch?: number } = {}): SpillStore {
  const after = o.after ?? SPILL_AFTER;
  const batch = o.batch ?? BATCH;
  let memory: GateIssue[] | undefined = [];
  let file: SpillFile | undefined;
  let failed = false;
  let count = 0;
  let pending = '';
  let written = 0;
  // Per issue: where its line starts (offsets[count] is the end), its level's rank and its score
  // (numericScore; NaN when none).
  let offsets = new Float64Array(1024);
  let ranks = new Uint8Array(1024);
  let scores = new Float64Array(1024);

  const grow = () => {
    const size = offsets.length * 2;
    const o2 = new Float64Array(size); o2.set(offsets); offsets = o2;
    const r2 = new Uint8Array(size); r2.set(ranks); ranks = r2;
    const s2 = new Float64Array(size); s2.set(scores); scores = s2;
  };
  const flush = () => {
    if (pending === '' || !file) return;
    try {
      const data = Buffer.from(pending, 'utf8');
      let at = 0;
      while (at < data.length) at += writeSync(file.fd, data, at, data.length - at);
    } catch (err) {
      throw ioError(err, 'write', file);
    }
    pending = '';
  };
  const toFile = (issue: GateIssue) => {
    const line = `${JSON.stringify(issue)}\n`;
    if (count + 1 >= offsets.length) grow();
    offsets[count] = written;
    ranks[count] = levelRank(issue.level);
    scores[count] = numericScore(issue.score) ?? NaN;
    written += Buffer.byteLength(line, 'utf8');
    count++;
    offsets[count] = written;
    pending += line;
    if (pending.length >= batch) flush();
  };

  /**
   * The issues at these places (every one, in order, when none), read from the file, `breaking` set.
   * Places in ascending order are read a batch ahead; others (the breaking list) one line at a time.
   */
  function* read(places: ArrayLike<number> | undefined, ascending: boolean, breaks: ReadonlySet<Level>): Generator<GateIssue> {
    const f = file!;
    const n = places ? places.length : count;
    const ahead = !places || ascending;
    let buf = Buffer.allocUnsafe(ahead ? batch : 4096);
    // The bytes of the file in buf: [from, to).
    let from = 0;
    let to = 0;
    for (let k = 0; k < n; k++) {
      const i = places ? places[k] : k;
      const start = offsets[i];
      const end = offsets[i + 1];
      if (start < from || end > to) {
        // In order: read ahead a batch; by place: just this line.
        const want = ahead ? Math.max(batch, end - start) : end - start;
        if (buf.length < want) buf = Buffer.allocUnsafe(want);
        const size = Math.min(want, written - start);
        let got = 0;
        try {
          while (got < size) {
            const r = readSync(f.fd, buf, got, size - got, start + got);
            if (r === 0) break;
            got += r;
          }
        } catch (err) {
          throw ioError(err, 'read', f);
        }
        if (got < end - start) throw ioError(new Error('shorter than written'), 'read', f);
        from = start;
        to = start + got;
      }
      const issue = JSON.parse(buf.toString('utf8', start - from, end - from - 1)) as GateIssue;
      issue.breaking = breaks.has(issue.level);
      yield issue;
    }
  }

  return {
    get spilled() { return file !== undefined; },
    push(issue) {
      o.seen?.(issue);
      if (memory) {
        memory.push(issue);
        if (memory.length <= after || failed) return;
        file = openSpill(o.dir ?? tmpdir());
        if (!file) {
          // No temporary file: the issues stay in memory, as they always did.
          failed = true;
          return;
        }
        const held = memory;
        memory = undefined;
        for (const h of held) toFile(h);
        return;
      }
      toFile(issue);
    },
    finish(breaks) {
      if (memory) {
        const store = arrayStore();
        for (const issue of memory) store.push(issue);
        return store.finish(breaks);
      }
      flush();
      const breakRank = new Uint8Array(LEVELS.length);
      for (const level of breaks) breakRank[levelRank(level)] = 1;
      const breaking: number[] = [];
      for (let i = 0; i < count; i++) if (breakRank[ranks[i]] === 1) breaking.push(i);
      // As the in-memory store: most severe level, then the highest score (none first), then the order counted.
      const key = (i: number) => (Number.isNaN(scores[i]) ? Infinity : scores[i]);
      breaking.sort((a, b) => ranks[a] - ranks[b] || key(b) - key(a) || a - b);
      const places = Uint32Array.from(breaking);
      const reader: Reader = (at, ascending) => read(at, ascending, breaks);
      return {
        issues: new SpilledList(reader, undefined, count, true, () => ({ rank: ranks.subarray(0, count), score: scores.subarray(0, count) })),
        breaking: new SpilledList(reader, places, count, false),
      };
    },
    close() {
      const f = file;
      if (!f) return;
      file = undefined;
      try { closeSync(f.fd); } catch { /* closed already */ }
      if (f.removeAtClose) {
        try { unlinkSync(f.path); } catch { /* gone */ }
        try { rmdirSync(f.dir); } catch { /* gone */ }
      }
    },
  };
}
