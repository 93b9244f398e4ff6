/** Which arguments of a command line are global flags (src/commands/globals.ts): what decides how much of the tree a call registers. */
import { describe, expect, it } from 'vitest';
import { globalFlag, onlyGlobalFlags } from '../../../src/commands/globals.js';

describe('global flags on a command line', () => {
  it('knows each spelling, and whether its value is the next argument', () => {
    expect(globalFlag('-o')).toEqual({ next: true });
    expect(globalFlag('--output')).toEqual({ next: true });
    expect(globalFlag('--output=json')).toEqual({ next: false });
    expect(globalFlag('--json')).toEqual({ next: false });
    expect(globalFlag('--no-color')).toEqual({ next: false });
    for (const other of ['--help', '-h', '-V', '--types', '--json=1x', '-ojson', '--', '-']) {
      expect(globalFlag(other), other).toBeUndefined();
    }
  });

  it('a command line of global flags only: their values may look like flags or commands', () => {
    expect(onlyGlobalFlags(['issues', 'search', '-o', 'json'])).toBe(true);
    expect(onlyGlobalFlags(['--org', '-x', 'issues', 'get', 'iss_1', '--timeout=5'])).toBe(true);
    expect(onlyGlobalFlags([])).toBe(true);
    expect(onlyGlobalFlags(['issues', 'search', '--types', 'open'])).toBe(false);
    expect(onlyGlobalFlags(['issues', 'search', '--', '-o'])).toBe(false);
    expect(onlyGlobalFlags(['issues', 'search', '-h'])).toBe(false);
  });
});
