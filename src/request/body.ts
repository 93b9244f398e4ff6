/**
 * Build a request body: `--input` JSON, then `-F`/`-f` fields, then typed flags (which win), the
 * positional argument, and the default organization. Typed flags are validated with the operation's
 * zod schema before anything is sent; the escape hatches are sent as given.
 */
import { resolve } from 'node:path';
import { issueText, type Schema } from '../operations/fields.js';
import { InterruptedError, UsageError } from '../core/errors.js';
import { readTextFile } from '../output/read-file.js';
import { BODY_LIMIT, TooLargeError, tooLarge } from '../core/input-limit.js';
import type { FlagSpec } from './flags.js';
import { DECIMAL, exactNumber, inexactNumbers, inexactReason } from './exact-number.js';

export type Body = Record<string, unknown>;

interface BodySources {
  cwd: string;
  readStdin(): string;
  /** `--input <file|->`. */
  input?: string;
  /** `-F key=value`, typed. */
  fields?: string[];
  /** `-f key=value`, strings. */
  rawFields?: string[];
  /** Ends the wait for a FIFO's writer (Ctrl-C, SIGTERM: InterruptedError). */
  signal?: AbortSignal;
}

/** What reading `@file`, `--input` and `--x-from` needs: where paths start, stdin (read already), the interrupt. */
type FileSources = Pick<BodySources, 'cwd' | 'readStdin' | 'signal'>;

/**
 * Read `@file` / `@-` / a file path; errors name the flag. A FIFO is waited on without holding a
 * thread (output/read-file.ts): a plain open() of one with no writer outlived Ctrl-C and SIGTERM.
 * Stdin was read already, to the same limit (Context.readStdin).
 */
export async function readSource(ref: string, what: string, src: FileSources): Promise<string> {
  if (ref === '-') return src.readStdin();
  try {
    return await readTextFile(resolve(src.cwd, ref), src.signal, BODY_LIMIT.bytes);
  } catch (err) {
    if (err instanceof TooLargeError) throw tooLarge(`${what} from '${ref}'`, BODY_LIMIT, err.size);
    if (err instanceof UsageError || err instanceof InterruptedError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new UsageError(`cannot read ${what} from '${ref}': ${why}`, 'check the path');
  }
}

function parseJson(text: string, what: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    const detail = (err as Error).message.replace(/^Unexpected token/, 'unexpected token').slice(0, 120);
    throw new UsageError(`${what} is not valid JSON: ${detail}`, 'check the quoting; a JSON object looks like {"key": "value"}');
  }
  // Sent on as JSON.stringify writes it: a number a double cannot hold would arrive changed.
  const [inexact] = inexactNumbers(text);
  if (inexact !== undefined) {
    throw new UsageError(`${what} holds the number ${inexact.slice(0, 40)}: ${inexactReason(inexact)}`, 'write it as a string ("...") if the field takes one, or as a number a double holds exactly');
  }
  return value;
}

/** `-F` value typing, as gh does: true/false/null, numbers, JSON arrays/objects, @file contents, else string. */
export async function typedValue(raw: string, key: string, src: FileSources): Promise<unknown> {
  if (raw.startsWith('@')) return (await readSource(raw.slice(1), `-F ${key}`, src)).replace(/\r?\n$/, '');
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (DECIMAL.test(raw)) {
    const n = exactNumber(raw);
    if (n === undefined) throw new UsageError(`-F ${key}=${raw.slice(0, 40)}: ${inexactReason(raw)}`, `send it as a string with -f ${key}=${raw.slice(0, 40)}, or give a number a double holds exactly`);
    return n;
  }
  if (/^\s*[[{]/.test(raw)) return parseJson(raw, `the value of -F ${key}`);
  return raw;
}

export function splitField(arg: string, flag: string): [string[], string] {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new UsageError(`${flag} expects key=value, got '${arg}'`, `for example ${flag} organizationId=org_123`);
  const key = arg.slice(0, eq);
  if (!/^[A-Za-z_$][\w$-]*(\.[A-Za-z_$][\w$-]*)*$/.test(key)) {
    throw new UsageError(`${flag}: invalid key '${key}'`, 'keys are field names, nested with dots: severities.min=3');
  }
  return [key.split('.'), arg.slice(eq + 1)];
}

export function setPath(target: Body, path: string[], value: unknown): void {
  let cur: Body = target;
  for (const key of path.slice(0, -1)) {
    const next = cur[key];
    if (next === null || typeof next !== 'object' || Array.isArray(next)) cur[key] = {};
    cur = cur[key] as Body;
  }
  cur[path[path.length - 1]] = value;
}

/** Body from `--input`, `-F` and `-f` (the escape hatches). */
export async function escapeHatchBody(src: BodySources): Promise<Body> {
  let body: Body = {};
  if (src.input !== undefined) {
    const parsed = parseJson(await readSource(src.input, '--input', src), `--input ${src.input === '-' ? '(stdin)' : src.input}`);
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new UsageError('--input must hold a JSON object (the request body)', 'wrap the fields in { }');
    }
    body = parsed as Body;
  }
  for (const arg of src.fields ?? []) {
    const [path, raw] = splitField(arg, '-F');
    setPath(body, path, await typedValue(raw, path.join('.'), src));
  }
  for (const arg of src.rawFields ?? []) {
    const [path, raw] = splitField(arg, '-f');
    setPath(body, path, raw);
  }
  return body;
}

/** Convert one flag's raw value (string, string[] or boolean from commander) to its typed value. */
export async function flagValue(spec: FlagSpec, raw: unknown, src: FileSources): Promise<unknown> {
  const name = `--${spec.flag}`;
  switch (spec.kind) {
    case 'boolean':
      return raw;
    case 'string':
    case 'enum':
      return raw;
    case 'number':
    case 'integer':
      return toNumber(String(raw), spec.kind, name);
    case 'array': {
      const items = raw as string[];
      if (spec.itemKind === 'number' || spec.itemKind === 'integer') return items.map((v) => toNumber(v, spec.itemKind as 'number', name));
      return items;
    }
    case 'json': {
      const text = String(raw);
      return parseJson(text.startsWith('@') ? await readSource(text.slice(1), name, src) : text, `the value of ${name}`);
    }
  }
}

function toNumber(v: string, kind: 'number' | 'integer', name: string): number {
  const text = v.trim();
  // Decimal only (Number() would take 0x10 as 16 and '' as 0), and only values a double holds exactly.
  if (DECIMAL.test(text) && exactNumber(text) === undefined) throw new UsageError(`${name} expects ${kind === 'integer' ? 'an integer' : 'a number'}, got '${text.slice(0, 40)}': ${inexactReason(text)}`);
  const n = DECIMAL.test(text) ? Number(text) : NaN;
  if (!Number.isFinite(n)) throw new UsageError(`${name} expects ${kind === 'integer' ? 'an integer' : 'a number'}, got '${v}'`);
  if (kind === 'integer' && !Number.isInteger(n)) throw new UsageError(`${name} expects an integer, got '${v}'`);
  return n;
}

/** Validate the typed part of a body with the operation's schema; the first problem names its flag. */
export function validateTyped(schema: Schema, typed: Body, flagOf: (path: PropertyKey[]) => string): void {
  const result = schema.safeParse(typed);
  if (result.success) return;
  const issue = result.error.issues[0];
  const flag = flagOf(issue.path);
  const why = issueText(issue);
  const got = getIn(typed, issue.path);
  throw new UsageError(`invalid value for ${flag}: ${why}${got !== undefined ? ` (got ${JSON.stringify(got)})` : ''}`);
}

function getIn(o: unknown, path: PropertyKey[]): unknown {
  let cur = o;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[k];
  }
  return cur;
}
