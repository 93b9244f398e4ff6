/**
 * The config lock's stale takeover. svc releases its lock and exits a moment later, so a lock naming a
 * dead pid may be a newer, live one read just after its predecessor's owner exited: it is taken over only
 * once it has stood a second, and only if the file is still the one judged stale.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { withLock } from '../../../src/config/lock.js';
import { UsageError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/temp.js';

const lockPathIn = () => join(tempDir('svc-lock-'), 'config.json');
/** The pid of a process that has exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout.trim();

// Side by side: each test waits on real time (the lock's polls), in a folder of its own.
describe.concurrent('config lock: taking over a lock whose owner is gone', () => {
  it('a fresh lock naming a dead pid is not taken over at once, but after a second', async () => {
    const path = lockPathIn();
    writeFileSync(`${path}.lock`, `${deadPid()} ${hostname()}\n`);
    // Made 0.8 s ago: taken over at once, it would be entered at an age under a second.
    const madeAgo = new Date(Date.now() - 800);
    utimesSync(`${path}.lock`, madeAgo, madeAgo);
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
    let entered!: () => void;
    const firstIn = new Promise<void>((r) => { entered = r; });
    const first = withLock(path, async () => { order.push('first in'); entered(); await held; order.push('first out'); });
    // The second asks only once the first holds the lock (a fixed sleep raced a loaded machine).
    await firstIn;
    // The lock now looks a minute old (past the one second a dead owner's lock must stand), but its
    // owner (this process) lives: the waiter keeps polling and waiting meanwhile.
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, minuteAgo, minuteAgo);
    const second = withLock(path, async () => { order.push('second in'); });
    await new Promise((r) => setTimeout(r, 300));
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first in', 'first out', 'second in']);
  });

  it('a live owner on this host keeps a lock however old: the waiter gives up, changing nothing', async () => {
    // A starved svc on a loaded machine can hold the lock for seconds; taking it over by age lost updates.
    const path = lockPathIn();
    const owner = `${process.pid} ${hostname()}\n`;
    writeFileSync(`${path}.lock`, owner);
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(`${path}.lock`, minuteAgo, minuteAgo);
    let entered = false;
    await expect(withLock(path, async () => { entered = true; }, 300)).rejects.toThrow(/is locked by another svc/);
    expect(entered).toBe(false);
    expect(readFileSync(`${path}.lock`, 'utf8')).toBe(owner);
  });

  it('a lock of another host, or an empty one, is taken over once it is old', async () => {
    for (const text of ['4242 some-other-host\n', '']) {
      const path = lockPathIn();
      writeFileSync(`${path}.lock`, text);
      const old = new Date(Date.now() - 60_000);
      utimesSync(`${path}.lock`, old, old);
      let entered = false;
      await withLock(path, async () => { entered = true; }, 300);
      expect(entered).toBe(true);
      expect(existsSync(`${path}.lock`)).toBe(false);
    }
  });
});

describe('config lock: a lock path that is not a regular file', () => {
  it('a socket there (as a FIFO would be) is a usage error at once, naming it, and is left alone', async () => {
    const path = lockPathIn();
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(`${path}.lock`, resolve));
    try {
      let ran = false;
      // Without the check it would be waited on as another svc's lock (the whole of waitMs) and then called locked.
      const err = await withLock(path, async () => { ran = true; }, 3_000).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).message).toBe(`the lock file ${path}.lock of the config file is a socket, not a lock svc made; nothing was changed`);
      expect((err as UsageError).hint).toBe(`delete ${path}.lock and try again`);
      expect(ran).toBe(false);
      expect(statSync(`${path}.lock`).isSocket()).toBe(true);
    } finally {
      await new Promise((r) => server.close(r));
    }
  });
});
