/**
 * `--jq <expr>`: filter JSON output with jq's own language, as `gh --jq` does. The engine is jq
 * itself compiled to WebAssembly (the `jq-wasm` package: no native binary, nothing downloaded),
 * loaded only when the flag is given. Each result is a line: strings raw, other values as JSON.
 */
import { CliError, UsageError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { stripControls } from '../core/sanitize.js';
import { ResponseError } from '../http/api-errors.js';

interface JqHandle {
  json(data: unknown, filter: string, flags?: string[]): unknown[];
}
interface JqFailure { stderr?: string; message?: string }

let handle: Promise<JqHandle> | undefined;
function engine(): Promise<JqHandle> {
  // dist/svc.cjs runs as a classic script (no import()): there it is loaded with require, from
  // node_modules (the build leaves it out of the bundle); the sources under test import it.
  const load = typeof require === 'function' ? Promise.resolve(require('jq-wasm') as typeof import('jq-wasm')) : import('jq-wasm');
  return (handle ??= load.then((m) => m.loadJq() as Promise<JqHandle>));
}

/**
 * jq's message in one line, about the user's own text: the expression is compiled on a line of its
 * own (see checkJq), so a position on that line is the user's column and one after it means the
 * expression ended too early.
 */
function jqMessage(err: unknown, expr: string): string {
  const text = (err as JqFailure).stderr || (err as JqFailure).message || String(err);
  const where = /jq: error: (.*?) at <top-level>, line (\d+), column (\d+)/.exec(text);
  if (where) {
    const [, what, line, column] = where;
    if (Number(line) > 2) return `${what.replace(/unexpected [^,]+(, expecting .*)?$/, 'the expression ends too early')} (an unclosed (, [ or {, or nothing after a |)`;
    const col = Number(column);
    return `${what} at column ${col}: '${expr.slice(Math.max(0, col - 1), col + 11)}'`;
  }
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('jq:'));
  return lines.length ? lines.map((l) => l.replace(/:$/, '')).join('; ') : text.trim();
}

export interface JqMode {
  /** With --all: the expression runs on each item; `items` names what the page's list is called. */
  perItem?: { items: string; example: string; pageFields?: readonly string[] };
  /** Without --all: an expression of the command's own answer (`.codeScans[].scanId`), if known. */
  example?: string;
}

function fail(expr: string, err: unknown, mode: JqMode = {}): never {
  // The example is of this command's answer: `.issues[].id` given to `repos list`, or under --all
  // (which refuses it), would send the user the wrong way.
  const hint = mode.perItem
    ? `with --all the expression runs on each item (like jq -c over NDJSON), e.g. --jq '${mode.perItem.example}'`
    : `see the jq manual for the language${mode.example ? `; e.g. --jq '${mode.example}'` : ''}`;
  throw new UsageError(`--jq '${expr}': ${jqMessage(err, expr)}`, hint);
}

/**
 * Compile the expression before anything is sent: a syntax error is exit 2 at once. It is compiled
 * on a line of its own inside `limit(0; ...)`, which never runs it. With --all, an expression that
 * starts from the page's list (`.issues[].id`) is exit 2 too, naming the per-item form (`.id`).
 */
export async function checkJq(expr: string, mode: JqMode = {}): Promise<void> {
  const jq = await engine();
  try {
    jq.json(null, `limit(0; (\n${expr}\n))`, ['-n']);
  } catch (err) {
    if (/compile error/.test((err as JqFailure).stderr ?? (err as JqFailure).message ?? '')) fail(expr, err, mode);
  }
  const items = mode.perItem?.items;
  const page = items ? new RegExp(`^\\s*\\.${items}\\b\\s*(\\[\\s*\\])?\\s*\\|?\\s*`).exec(expr) : null;
  if (page) {
    const rest = expr.slice(page[0].length).trim();
    const form = rest === '' ? '.' : rest;
    throw new UsageError(`--jq '${expr}' with --all: the expression runs on each item (one of .${items}), not on the page`, `use the per-item form: --jq '${form}'`);
  }
  // A field of the page (`.totalCount`) is null on every item: say so instead of printing a null an item.
  const field = /^\s*\.([A-Za-z_][A-Za-z0-9_]*)\b/.exec(expr)?.[1];
  if (field && mode.perItem?.pageFields?.includes(field)) {
    throw new UsageError(`--jq '${expr}' with --all: the expression runs on each item, and .${field} is a field of the page, not of an item`, `drop --all to read it from one page: --jq '${expr}'`);
  }
}

/**
 * jq's engine could not run on the data, as opposed to an error of jq's (a value of the wrong type):
 * its WebAssembly aborted (out of memory or stack; jq-wasm prints "Aborted()" to the console as it
 * stops), or the data is too large for one JavaScript string, which jq-wasm hands it as.
 */
function engineStopped(err: unknown): boolean {
  // jq-wasm turns JSON.stringify's RangeError into a TypeError that keeps its message.
  return err instanceof WebAssembly.RuntimeError || err instanceof RangeError || /^Aborted\(|Invalid string length/.test((err as JqFailure).message ?? '');
}

/** How much JSON jq was given, for the message: its size, or that it is beyond one string's. */
function jsonSize(data: unknown): string {
  let bytes: number;
  try {
    bytes = Buffer.byteLength(JSON.stringify(data) ?? '');
  } catch {
    return 'more JSON than one string holds';
  }
  const mb = bytes / (1024 * 1024);
  return `${mb >= 1 ? `${mb.toFixed(1)} MB` : `${Math.ceil(mb * 1024)} KB`} of JSON`;
}

/** The results of the expression on the data. */
export async function jqValues(data: unknown, expr: string, mode: JqMode = {}): Promise<unknown[]> {
  const jq = await engine();
  // Whatever jq-wasm prints to the console as its engine stops: svc says it in one line of its own.
  const consoleError = console.error;
  console.error = () => {};
  try {
    return jq.json(data, expr);
  } catch (err) {
    // jq-wasm hands the data over as JSON.stringify's text: data nested too deeply for that is the
    // data's fault, not the expression's (exit 7, as -o json says it; an answer is refused before).
    if (/not JSON-serializable \(Maximum call stack size exceeded/.test((err as JqFailure).message ?? '')) {
      throw new ResponseError('the data is nested too deeply to process', undefined, 'check the response with --verbose');
    }
    if (engineStopped(err)) {
      throw new CliError(
        `--jq '${expr}': jq stopped without a result (it ran out of memory or stack on ${jsonSize(data)}), so the output is missing`,
        EXIT.OUTPUT,
        'for an answer this large, pipe -o json into a jq program instead (svc ... -o json | jq ...); an expression that recurses without end stops this way too',
        { cause: err },
      );
    }
    return fail(expr, err, mode);
  } finally {
    console.error = consoleError;
  }
}

/** Results as text: a string raw on its line, anything else as JSON (indented on a terminal). */
export function jqText(values: readonly unknown[], pretty: boolean): string {
  let out = '';
  for (const v of values) {
    const line = typeof v === 'string' ? v : JSON.stringify(v, null, pretty ? 2 : undefined);
    out += (pretty ? stripControls(line) : line) + '\n';
  }
  return out;
}
