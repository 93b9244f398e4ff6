/**
 * Before each test file: a temp folder of its own (TMPDIR, under the run's folder made by
 * test/global-setup.ts). After it: tempDir() folders removed, and anything else left there fails the
 * file, naming what leaked.
 */
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, expect } from 'vitest';
import { removeAllTempDirs } from './helpers/temp.js';

const root = process.env.SVC_TEST_TMP_ROOT;
const testPath = expect.getState().testPath;
if (root && testPath) {
  const dir = join(root, relative(process.cwd(), testPath).replace(/[\\/]/g, '_'));
  mkdirSync(dir, { recursive: true });
  process.env.TMPDIR = dir;
  afterAll(() => {
    removeAllTempDirs();
    const left = readdirSync(dir);
    rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    if (left.length) throw new Error(`this test file left ${left.length} entries in the temp folder: ${left.join(', ')}; remove what a test creates (or use tempDir() from test/helpers/temp.ts)`);
  });
}
