/**
 * Files svc writes must appear whole or not at all (Ctrl-C mid-write must not leave half a file):
 * reports go through writeFileAtomic, the config through conf (temp file + rename). This guard
 * fails when code elsewhere starts writing files directly.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(__dirname, '../../../src');
// The lock file holds only a pid (an empty one counts as being written, never as stale).
const ALLOWED = new Set(['output/write-file.ts', 'config/lock.ts']);
const DIRECT_WRITE = /\b(writeFileSync|writeFile|appendFileSync|appendFile|createWriteStream|truncateSync|ftruncate)\s*\(/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('atomic writes only', () => {
  it('no source file writes files directly, except the atomic writer', () => {
    const offenders = files(ROOT).map((p) => relative(ROOT, p)).filter((rel) => !ALLOWED.has(rel) && DIRECT_WRITE.test(readFileSync(join(ROOT, rel), 'utf8')));
    expect(offenders).toEqual([]);
  });
});
