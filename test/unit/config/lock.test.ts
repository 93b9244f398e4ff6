/**
 * The config lock's stale takeover. svc releases its lock and exits a moment later, so a lock naming a
 * dead pid may be a newer, live one read just after its predecessor's owner exited: it is taken over only
 * once it has stood a second, and only if the file is still the one judged stale.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { withLock } from '../../../src/config/lock.js';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
const lockPathIn = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-lock-'));
  dirs.push(dir);
  return join(dir, 'config.json');
};
/** The pid of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout.trim();

describe('config lock: taking over a lock whose owner is gone', () => {
  it('a fresh lock naming a dead pid is not taken over at once, but after a second', async () => {
    const path = lockPathIn();
    writeFileSync(`${path}.lock`, `${deadPid()} ${hostname()}\n`);
    const made = statSync(`${path}.lock`).mtimeMs;
    let ageAtEntry = -1;
    await withLock(path, async () => { ageAtEntry = Date.now() - made; });
    expect(ageAtEntry).toBeGreaterThanOrEqual(1000);
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('a live owner keeps its lock: the waiter enters only after the owner releases', async () => {
    const path = lockPathIn();
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => { release = r; });
    const first = withLock(path, async () => { order.push('first in'); await held; order.push('first out'); });
    await new Promise((r) => setTimeout(r, 50));
    const second = withLock(path, async () => { order.push('second in'); });
    await new Promise((r) => setTimeout(r, 1300));
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'first out', 'second in']);
  });
});
