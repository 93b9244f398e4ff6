/**
 * A listing's --optimize-for-size: set once, left out where the user sized the young generation
 * (theirs wins), and recorded with the flags that undo it before bin/svc.js makes a code cache.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const setFlagsFromString = vi.fn();
vi.mock('node:v8', () => ({ setFlagsFromString }));

const UNDO = Symbol.for('svc.v8FlagsUndo');
const globals = globalThis as { [k: symbol]: string[] | undefined };

describe('favourSmallHeap', () => {
  let before: string[] | undefined;
  beforeEach(() => {
    vi.resetModules();
    setFlagsFromString.mockClear();
    before = globals[UNDO];
    delete globals[UNDO];
  });
  afterEach(() => {
    if (before) globals[UNDO] = before;
    else delete globals[UNDO];
  });

  it('sets the flag once and records what undoes it, implications included', async () => {
    const { favourSmallHeap } = await import('../../../src/listing/heap.js');
    favourSmallHeap('--max-old-space-size=4096', []);
    favourSmallHeap('--max-old-space-size=4096', []);
    expect(setFlagsFromString.mock.calls).toEqual([['--optimize-for-size']]);
    expect(globals[UNDO]).toEqual(['--no-optimize-for-size', '--max-semi-space-size=0']);
  });

  for (const [where, nodeOptions, execArgv] of [
    ['NODE_OPTIONS', '--max-semi-space-size=64', []],
    ["node's command line", '', ['--optimize-for-size']],
    ["node's command line", '', ['--min-semi-space-size=16']],
    ['NODE_OPTIONS, spelt with _', '--max_semi_space_size=64', []],
    ["node's command line, spelt with _", '', ['--optimize_for_size']],
  ] as const) {
    it(`leaves the heap to the user who sized it in ${where} (${nodeOptions || execArgv.join(' ')})`, async () => {
      const { favourSmallHeap } = await import('../../../src/listing/heap.js');
      favourSmallHeap(nodeOptions, execArgv);
      expect(setFlagsFromString).not.toHaveBeenCalled();
      expect(globals[UNDO]).toBeUndefined();
    });
  }
});
