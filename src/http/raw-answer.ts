/**
 * A 2xx answer not parsed yet (the client's CallOptions.raw), and how the client parses an answer:
 * apart from the client so that code which decodes raw answers (src/listing/page-decode.ts) does
 * not load the HTTP client with it.
 */
import { ResponseError } from './api-errors.js';
import { checkDepth, checkErrorBesideData, checkKeysOnce, isCanonical } from '../answers/json-text.js';
import { readOnly, type Report } from '../answers/doubts.js';
import { noteBareNumber, noteInexact } from './exact-numbers.js';

/**
 * Reusable buffers for response bodies (buffer-pool.ts). A long listing reads ~1 MB a
 * page; fresh buffers would live long enough (while later pages are in flight) for V8 to move them
 * to its old generation, where their memory outside the heap piles up until a full collection.
 */
export interface BodyBuffers {
  /** A buffer of at least `size` bytes, its contents anything. */
  take(size: number): Buffer;
  /** A buffer taken here and no longer used. */
  give(buf: Buffer): void;
}

/** A 2xx answer's body, unparsed (CallOptions.raw). */
export class RawAnswer {
  constructor(
    /** The UTF-8 bytes, after any byte order mark. */
    readonly bytes: Buffer,
    private readonly what: string,
    private readonly status: number,
    private readonly contentType: string,
    private readonly scrub: (text: string) => string,
    private readonly backing?: { buf: Buffer; from: BodyBuffers },
    /** The Content-Encoding header, when the service sent one. */
    private readonly encoding?: string,
    /** Where the checks of its text report what they find (the run's doubts, answers/doubts.ts). */
    readonly report: Report = readOnly,
  ) {}

  /** The bytes are not used again: a pooled buffer goes back to its pool. */
  release(): void {
    if (this.backing) this.backing.from.give(this.backing.buf);
  }

  /** The answer parsed as call() without `raw` would have parsed it, failing as it would. */
  parse(): unknown {
    return parseAnswer(this.bytes.toString('utf8'), () => this.notJson(), this.what, this.report);
  }

  /** Names the call in messages ("issues/search"). */
  get call(): string {
    return this.what;
  }

  /** The error of an answer that is not JSON. */
  notJson(): ResponseError {
    return notJsonError(this.what, this.status, this.contentType, this.scrub(this.bytes.toString('utf8')), this.encoding);
  }
}

/**
 * The answer parsed, its text checked (answers/json-text.ts): nested too deeply or a key with two
 * values is refused; a key repeated with one value and an error beside the data are reported.
 */
export function parseAnswer(text: string, notJson: () => Error, what: string, report: Report = readOnly): unknown {
  let data: unknown;
  try {
    data = text === '' ? null : JSON.parse(text);
  } catch {
    throw notJson();
  }
  if (data !== null && typeof data === 'object') {
    // Before anything else walks it (JSON.stringify in isCanonical would overflow the stack first).
    checkDepth(data, what, report);
    // Only a text that is not JSON.stringify of its parse can hold a number a double changes.
    if (!isCanonical(text, data)) {
      checkKeysOnce(text, what, report);
      noteInexact(text, data);
    }
    checkErrorBesideData(data, what, report);
  } else if (typeof data === 'number') {
    noteBareNumber(text, data);
  }
  return data;
}

/**
 * `encoding`: the Content-Encoding header. svc asks for no encoding and decodes none, so a body sent
 * compressed anyway (gzip, br) is bytes that are not JSON: the message names the encoding rather
 * than showing the compressed bytes.
 */
export function notJsonError(what: string, status: number, type: string, shown: string, encoding?: string): ResponseError {
  const coded = encoding?.trim().toLowerCase();
  if (coded && coded !== 'identity') {
    return new ResponseError(
      `${what}: the response is not valid JSON: it came with content-encoding: ${JSON.stringify(coded.slice(0, 40)).slice(1, -1)}, which svc did not ask for and does not decode (${type}, ${shown.length} characters)`,
      status,
      'the service (or a proxy in between) compressed an answer svc asked for uncompressed; check the base URL and any proxy; --verbose shows the headers',
    );
  }
  return new ResponseError(
    `${what}: the response is not valid JSON (${type}, ${shown.length} characters, starts ${JSON.stringify(shown.slice(0, 40))})`,
    status,
    'check that the base URL points at the API; try again with --verbose',
  );
}
