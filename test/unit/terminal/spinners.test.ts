/** Spinners still drawn can be erased by a process that must leave at once (a closed stdout, a second Ctrl-C). */
import { describe, expect, it } from 'vitest';
import { eraseSpinners, tracked } from '../../../src/terminal/spinners.js';

describe('eraseSpinners', () => {
  it('stops every spinner still drawn, once; a spinner stopped by its owner is forgotten', () => {
    const stops: string[] = [];
    const a = tracked({ stop: () => stops.push('a') });
    tracked({ stop: () => stops.push('b') });
    a.stop();
    eraseSpinners();
    eraseSpinners();
    expect(stops).toEqual(['a', 'b']);
  });
});
