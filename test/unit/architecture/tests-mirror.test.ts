/**
 * test/unit mirrors src/: each folder of test/unit is a folder of src/ (or a file at its root, like
 * cli.ts -> test/unit/cli/), no test file sits loose at the root, and architecture/ holds the guards
 * of the whole tree. A test of src/<folder>/x.ts goes in test/unit/<folder>/.
 */
import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const UNIT = join(ROOT, 'test/unit');
/** Folders of test/unit that are not a folder of src/, and why. */
const NOT_SRC = new Map([['architecture', 'the guards of the whole tree (imports, exports, lazy edges, start-up)']]);

describe('test/unit mirrors src/', () => {
  const src = new Set(readdirSync(join(ROOT, 'src')).map((n) => n.replace(/\.ts$/, '')));
  const entries = readdirSync(UNIT);

  it('has no test file loose at its root', () => {
    expect(entries.filter((n) => !statSync(join(UNIT, n)).isDirectory())).toEqual([]);
  });

  it('names each of its folders after a folder (or root file) of src/', () => {
    const stray = entries.filter((n) => statSync(join(UNIT, n)).isDirectory() && !src.has(n) && !NOT_SRC.has(n));
    expect(stray, 'move its tests to test/unit/<the src folder they test>/').toEqual([]);
  });
});
