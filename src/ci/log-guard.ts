/**
 * On a CI whose log acts on commands written in it (the rows of the providers table with
 * `logCommands`: host A's runner, and the logging-command CI), nothing svc writes to stdout or stderr may form
 * such a command, except svc's own (annotations, groups), which go through `writeCommand`.
 *
 * What the logs act on (in any line the step prints):
 * - `##[name]...` found anywhere in a line (host A's old form; the logging-command CI's formatting commands);
 * - `##vso[...]` found anywhere in a line (that CI's logging commands; case ignored);
 * - `::name ...::...` at the start of a line after whitespace (host A's workflow commands:
 *   `::stop-commands::`, `::add-mask::`, `::error::`...). A line ends at LF or CR.
 *
 * This is the one place it is done: svc's stdout and stderr are wrapped once (`guardHost`), so every
 * table, detail view, CSV, JSON, NDJSON page, error line and warning is covered, whatever command
 * wrote it. The character that would complete a command is written as its `\u` escape: the `[` of
 * `##[`/`##vso[` as `\u005b`, the second `:` of a leading `::` as `\u003a`. In JSON text `#` and a
 * line's first non-blank character can only be inside a string (or its syntax), so JSON values stay
 * identical (`-o json` parses to the same data); in text it is a visible escape. A sequence split
 * across two writes is caught (the end of what was written is kept). Writes that hold neither `##`
 * nor `::` (nearly every page of a listing) pass as they are, after two indexOf scans.
 */
import type { Writable } from 'node:stream';
import type { Env, Host } from '../core/host.js';
import { LOG_COMMAND_MARKERS } from './providers.js';

const isSet = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/**
 * The log svc writes to acts on commands: the CI's marker variable is set. Read even with --no-ci,
 * SVC_NO_CI or CI=false: those turn svc's CI behaviour off, not the runner's.
 */
export function logParsesCommands(env: Env): boolean {
  return LOG_COMMAND_MARKERS.some((m) => isSet(env[m.variable]) && (m.value === undefined || m.value.test(env[m.variable]!.trim())));
}

/**
 * Where the stream is since its last line break: 0 only blanks (or non-ASCII: taken as blank, which
 * errs on the safe side), 1 blanks then one `:`, 2 anything else.
 */
type LineState = 0 | 1 | 2;

interface GuardState {
  /** The last characters written (a `##vso` split from its `[`). */
  tail: string;
  line: LineState;
}

// A blank before a leading `::`: ASCII whitespace but line breaks, or any non-ASCII character (the
// runner trims Unicode whitespace; in a Buffer seen as latin1, every byte of a multi-byte character).
const isPrefixCode = (c: number) => c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c || c >= 0x80;
const TAIL = 5;

/** The line state after `text` was written in state `line`. */
function lineAfter(line: LineState, text: string): LineState {
  const lb = Math.max(text.lastIndexOf('\n'), text.lastIndexOf('\r'));
  let st: LineState = lb >= 0 ? 0 : line;
  for (let i = lb + 1; i < text.length && st !== 2; i++) {
    const c = text.charCodeAt(i);
    if (st === 0 && isPrefixCode(c)) continue;
    st = st === 0 && c === 0x3a ? 1 : 2;
  }
  return st;
}

/** True when the writes so far and `head` (the start of the next) could make a command across them. */
function boundaryRisk(state: GuardState, head: string): boolean {
  if (state.line === 1 && head.charCodeAt(0) === 0x3a) return true;
  return state.tail.includes('#') && (state.tail + head).includes('##');
}

// The `[` that completes `##[` or `##vso[`.
const BRACKET = /##(?:vso)?\[/gi;

/** `text` with every command it would complete (after what was written) neutralised; updates `state`. */
export function neutralise(text: string, state: GuardState): string {
  const fast = text.indexOf('##') < 0 && text.indexOf('::') < 0 && !boundaryRisk(state, text.slice(0, TAIL));
  if (fast) {
    state.line = lineAfter(state.line, text);
    state.tail = (text.length >= TAIL ? text : state.tail + text).slice(-TAIL);
    return text;
  }
  const at = new Set<number>();
  // `##[`, `##vso[`, also across the end of the last write (positions relative to `text`).
  const joined = state.tail + text;
  for (const m of joined.matchAll(BRACKET)) {
    const i = m.index + m[0].length - 1 - state.tail.length;
    if (i >= 0) at.add(i);
  }
  // A leading `::` (after blanks since the line began, also across the last write).
  let line = state.line;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || c === 0x0d) { line = 0; continue; }
    if (line === 2) {
      // Skip to the next line break.
      const n = text.indexOf('\n', i);
      const r = text.indexOf('\r', i);
      const next = n < 0 ? r : r < 0 ? n : Math.min(n, r);
      if (next < 0) break;
      i = next - 1;
      continue;
    }
    if (line === 0 && isPrefixCode(c)) continue;
    if (line === 1 && c === 0x3a) { at.add(i); line = 2; continue; }
    line = line === 0 && c === 0x3a ? 1 : 2;
  }
  let out = text;
  if (at.size > 0) {
    out = '';
    let last = 0;
    for (const i of [...at].sort((a, b) => a - b)) {
      out += `${text.slice(last, i)}${text[i] === '[' ? '\\u005b' : '\\u003a'}`;
      last = i + 1;
    }
    out += text.slice(last);
  }
  state.line = lineAfter(state.line, out);
  state.tail = (out.length >= TAIL ? out : state.tail + out).slice(-TAIL);
  return out;
}

/** The same for bytes (a page of a listing): looked at as latin1, so a split UTF-8 character stays whole. */
function neutraliseBytes(bytes: Uint8Array, state: GuardState): Uint8Array {
  const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const head = buf.toString('latin1', 0, Math.min(TAIL, buf.length));
  if (buf.indexOf('##') < 0 && buf.indexOf('::') < 0 && !boundaryRisk(state, head)) {
    // Only the end matters for the state: what follows the last line break, and the last bytes.
    const lb = Math.max(buf.lastIndexOf(0x0a), buf.lastIndexOf(0x0d));
    let st: LineState = lb >= 0 ? 0 : state.line;
    for (let i = lb + 1; i < buf.length && st !== 2; i++) {
      const c = buf[i];
      if (st === 0 && isPrefixCode(c)) continue;
      st = st === 0 && c === 0x3a ? 1 : 2;
    }
    state.line = st;
    state.tail = (buf.length >= TAIL ? buf.toString('latin1', buf.length - TAIL) : state.tail + buf.toString('latin1')).slice(-TAIL);
    return bytes;
  }
  const text = buf.toString('latin1');
  const out = neutralise(text, state);
  return out === text ? bytes : Buffer.from(out, 'latin1');
}

const RAW = Symbol('svc.log-guard.raw');
type WriteArgs = [chunk: unknown, encoding?: unknown, cb?: unknown];

/**
 * The stream, wrapped so that what is written cannot form a command (see the top of this file);
 * everything else (events, `columns`, `writableLength`...) is the stream's own.
 */
export function guardStream(stream: Writable): Writable {
  if ((stream as unknown as Record<symbol, unknown>)[RAW]) return stream;
  const state: GuardState = { tail: '', line: 0 };
  const write = (...args: WriteArgs): boolean => {
    const [chunk, ...rest] = args;
    let safe = chunk;
    if (typeof chunk === 'string') {
      const enc = typeof rest[0] === 'string' ? rest[0] : undefined;
      safe = enc === undefined || /^utf-?8$/i.test(enc) ? neutralise(chunk, state) : chunk;
    } else if (chunk instanceof Uint8Array) {
      safe = neutraliseBytes(chunk, state);
    }
    return (stream.write as (...a: unknown[]) => boolean).call(stream, safe, ...rest);
  };
  /** svc's own command lines, as they are; the state moves on as if they were written. */
  const raw = (text: string): boolean => {
    state.line = lineAfter(state.line, text);
    state.tail = (text.length >= TAIL ? text : state.tail + text).slice(-TAIL);
    return stream.write(text);
  };
  return new Proxy(stream, {
    get(target, key) {
      if (key === 'write') return write;
      if (key === RAW) return raw;
      const v = Reflect.get(target, key, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

/** Writes svc's own runner commands (annotations, group markers) past the guard, as they are. */
export function writeCommand(stream: Writable, text: string): void {
  const raw = (stream as unknown as Record<symbol, ((t: string) => boolean) | undefined>)[RAW];
  if (raw) raw(text);
  else stream.write(text);
}

/** The host with stdout and stderr guarded, on a CI whose log acts on commands; else the host itself. */
export function guardHost<H extends Pick<Host, 'io' | 'env'>>(host: H): H {
  if (!logParsesCommands(host.env)) return host;
  const { stdout, stderr } = host.io;
  if ((stdout as unknown as Record<symbol, unknown>)[RAW] && (stderr as unknown as Record<symbol, unknown>)[RAW]) return host;
  return { ...host, io: { ...host.io, stdout: guardStream(stdout), stderr: guardStream(stderr) } };
}
