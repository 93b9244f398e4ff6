/**
 * --jq when jq's engine itself stops (jq-wasm's WebAssembly aborts: out of memory on a very large
 * answer, or out of stack on an expression that recurses without end): one line of svc's saying the
 * output is missing, exit 9, and nothing of the engine's own on the console.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jqValues } from '../../../src/output/jq.js';
import { CliError } from '../../../src/core/errors.js';
import { EXIT } from '../../../src/core/exit-codes.js';

// Recurses without end: jq-wasm aborts (out of stack) in about a second, on any input.
const STOPS = 'def f: 1 + f; f';

describe('--jq when the engine stops', () => {
  afterEach(() => { vi.restoreAllMocks(); });

  it('is exit 9 naming the expression and the size of the JSON, prints nothing of its own, and leaves jq working', async () => {
    const printed = vi.spyOn(console, 'error');
    const err = await jqValues({ issues: [{ id: 'iss_1' }] }, STOPS).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(EXIT.OUTPUT);
    expect((err as CliError).message).toBe(`--jq '${STOPS}': jq stopped without a result (it ran out of memory or stack on 1 KB of JSON), so the output is missing`);
    expect((err as CliError).hint).toMatch(/pipe -o json into a jq program/);
    // jq-wasm's "Aborted()" went nowhere; the console is svc's own again afterwards.
    expect(printed).not.toHaveBeenCalled();
    expect(console.error).toBe(printed);
    // The next expression runs; an error of jq's own is still the user's (exit 2).
    expect(await jqValues({ a: [1, 2] }, '.a[]')).toEqual([1, 2]);
    const own = await jqValues({ a: 'x' }, '.a.b').catch((e: unknown) => e);
    expect((own as CliError).exitCode).toBe(EXIT.USAGE);
    expect((own as Error).message).toMatch(/Cannot index string/);
  });

  it('data too large for one string (jq-wasm hands it as one) is the same exit 9, not a crash or a usage error', async () => {
    // What JSON.stringify throws past V8's longest string, without building one.
    const huge = { toJSON() { throw new RangeError('Invalid string length'); } };
    const err = await jqValues(huge, '.id').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as CliError).exitCode).toBe(EXIT.OUTPUT);
    expect((err as CliError).message).toBe("--jq '.id': jq stopped without a result (it ran out of memory or stack on more JSON than one string holds), so the output is missing");
  });
});
