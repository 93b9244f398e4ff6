import { describe, expect, it } from 'vitest';
import { GateUsageError, parseLevel, parseLevels } from '../../../src/gate/policy.js';
import { DEFAULT_CUTOFFS, levelAtLeast, levelOf } from '../../../src/operations/levels.js';

describe('levelOf with the default cut-offs', () => {
  it.each([
    [100, 'critical'],
    [90, 'critical'],
    [89.99, 'high'],
    [70, 'high'],
    [69.99, 'medium'],
    [40, 'medium'],
    [39.99, 'low'],
    [10, 'low'],
    [9.99, 'info'],
    [0, 'info'],
    [-5, 'info'],
    [150, 'critical'],
  ] as const)('score %s is %s', (score, level) => {
    expect(levelOf(score, DEFAULT_CUTOFFS)).toBe(level);
  });

  it('accepts numeric strings', () => {
    expect(levelOf('72')).toBe('high');
  });

  it.each([undefined, null, NaN, Infinity, '', 'high', {}, []])('fails closed: %s is critical', (score) => {
    expect(levelOf(score)).toBe('critical');
  });

  it('uses custom cut-offs', () => {
    const cutoffs = parseLevels('critical=80,high=60');
    expect(levelOf(80, cutoffs)).toBe('critical');
    expect(levelOf(79.9, cutoffs)).toBe('high');
    expect(levelOf(59.9, cutoffs)).toBe('medium');
  });
});

describe('parseLevels', () => {
  it('overrides some cut-offs and keeps the rest', () => {
    expect(parseLevels('high=75')).toEqual({ critical: 90, high: 75, medium: 40, low: 10 });
  });

  it('overrides all cut-offs, ignoring spaces, case and empty items', () => {
    expect(parseLevels(' Critical = 95 , high=80,,medium=50.5,low=0 ')).toEqual({
      critical: 95,
      high: 80,
      medium: 50.5,
      low: 0,
    });
  });

  it('does not change the defaults', () => {
    parseLevels('critical=99');
    expect(DEFAULT_CUTOFFS.critical).toBe(90);
  });

  it.each([
    ['', /empty/],
    ['severe=50', /unknown level "severe"/],
    ['info=5', /info has no cut-off/],
    ['high', /not LEVEL=SCORE/],
    ['high=abc', /high=abc is not a number/],
    ['high=-1', /high=-1 is out of range/],
    ['high=1e2', /not a number/],
    ['high=', /not a number/],
    ['high=101', /out of range/],
    ['high=95', /must descend.*critical=90, high=95/],
    ['medium=70', /must descend.*high=70, medium=70/],
    ['low=45', /must descend/],
    ['high=70,high=71', /high given twice/],
  ])('rejects %j', (spec, message) => {
    expect(() => parseLevels(spec)).toThrow(GateUsageError);
    expect(() => parseLevels(spec)).toThrow(message);
  });

  it('gives one-line messages', () => {
    try {
      parseLevels('bogus=1');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(GateUsageError);
      expect((error as Error).message).not.toContain('\n');
      expect((error as Error).name).toBe('GateUsageError');
    }
  });
});

describe('parseLevel and levelAtLeast', () => {
  it('parses level names case-insensitively', () => {
    expect(parseLevel(' HIGH ')).toBe('high');
    expect(() => parseLevel('severe')).toThrow(GateUsageError);
  });

  it('orders levels', () => {
    expect(levelAtLeast('critical', 'high')).toBe(true);
    expect(levelAtLeast('high', 'high')).toBe(true);
    expect(levelAtLeast('medium', 'high')).toBe(false);
    expect(levelAtLeast('info', 'low')).toBe(false);
    expect(levelAtLeast('info', 'info')).toBe(true);
  });
});
