/**
 * Temporary directories that remove themselves: made in a test, gone when the test ends; made
 * outside a test (describe body, beforeAll) or in a concurrent test, gone when the test file ends
 * (test/setup.ts).
 * test/setup.ts fails a test file that leaves anything else in the temp folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TestRunner, onTestFinished } from 'vitest';

const pending = new Set<string>();

export function tempDir(prefix = 'svc-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  pending.add(dir);
  // Concurrent tests share the "current test": theirs are removed when the file ends, like those
  // made outside a test.
  const test = TestRunner.getCurrentTest();
  if (test && !test.concurrent) onTestFinished(() => removeTempDir(dir));
  return dir;
}

export function removeTempDir(dir: string): void {
  pending.delete(dir);
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** Remove every directory tempDir() made that is still there (test/setup.ts calls it after each file). */
export function removeAllTempDirs(): void {
  for (const dir of [...pending]) removeTempDir(dir);
}
