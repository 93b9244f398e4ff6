/**
 * Something several test files need, made once per test run (an npm pack, a release tree): the
 * first caller, in whichever worker, makes it in a folder of the run's shared folder
 * (SVC_TEST_SHARED, made and removed by test/global-setup.ts) and writes what it made, as JSON,
 * beside it; the others wait for that. Outside such a run, each file makes its own in `ownDir()`.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export async function oncePerRun<T>(name: string, make: (dir: string) => Promise<T>, ownDir: () => string): Promise<T> {
  const root = process.env.SVC_TEST_SHARED;
  if (!root) return make(ownDir());
  const dir = join(root, name);
  const result = join(root, `${name}.json`);
  let first = true;
  try {
    mkdirSync(dir);
  } catch {
    first = false;
  }
  if (first) {
    let made: T | { error: string };
    try {
      made = await make(dir);
    } catch (e) {
      made = { error: e instanceof Error ? e.message : String(e) };
    }
    writeFileSync(`${result}.part`, JSON.stringify(made));
    renameSync(`${result}.part`, result);
  }
  const end = Date.now() + 120_000;
  while (!existsSync(result)) {
    if (Date.now() > end) throw new Error(`${name}: no result in ${result} after 120 s`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const got = JSON.parse(readFileSync(result, 'utf8')) as T | { error: string };
  if (got !== null && typeof got === 'object' && 'error' in got) throw new Error(`${name} could not be made: ${(got as { error: string }).error}`);
  return got as T;
}
