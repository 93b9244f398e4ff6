/**
 * `--jq <expr>`: filter JSON output with jq's own language, as `gh --jq` does. The engine is jq
 * itself compiled to WebAssembly (the `jq-wasm` package: no native binary, nothing downloaded),
 * loaded only when the flag is given. Each result is a line: strings raw, other values as JSON.
 */
import { UsageError } from '../errors.js';
import { stripControls } from './sanitize.js';

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

/** jq's message in one line: its error lines, without the excerpt of the expression under them. */
function jqMessage(err: unknown): string {
  const text = (err as JqFailure).stderr || (err as JqFailure).message || String(err);
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('jq:'));
  return lines.length ? lines.map((l) => l.replace(/:$/, '')).join('; ') : text.trim();
}

function fail(expr: string, err: unknown): never {
  throw new UsageError(`--jq '${expr}': ${jqMessage(err)}`, 'see the jq manual for the language; e.g. --jq \'.issues[].id\'');
}

/** Compile the expression before anything is sent: a syntax error is exit 2 at once. */
export async function checkJq(expr: string): Promise<void> {
  const jq = await engine();
  try {
    jq.json(null, `${expr} | empty`, ['-n']);
  } catch (err) {
    // Only compile errors count here; a run-time error on `null` says nothing about the real data.
    if (/compile error/.test((err as JqFailure).stderr ?? (err as JqFailure).message ?? '')) fail(expr, err);
  }
}

/** The results of the expression on the data. */
export async function jqValues(data: unknown, expr: string): Promise<unknown[]> {
  const jq = await engine();
  try {
    return jq.json(data, expr);
  } catch (err) {
    return fail(expr, err);
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
