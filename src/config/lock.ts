/**
 * A lock around the config file's read-modify-write, so that concurrent `svc config set` / `auth login`
 * (parallel CI steps, a script's `&`) lose no update: an O_EXCL lock file next to the config file,
 * holding the owner's pid and host. A lock whose owner on this host is gone (a killed svc) for
 * DEAD_OWNER_MS is stale and taken over, if the file is still the one judged stale. A live owner on this
 * host keeps its lock however long it holds it (a starved or fsync-blocked svc on a loaded machine can
 * hold it for seconds; taking it over then lost updates): the waiter gives up after WAIT_MS instead,
 * changing nothing. Only a lock svc cannot judge (empty, or of another host) is stale by age alone.
 */
import { promises } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { UsageError } from '../core/errors.js';
import { NotRegularFile, openRegularFile } from './regular-file.js';

/** A lock that cannot be judged by its owner (empty, or of another host) and is this old was left behind. */
const STALE_MS = 10_000;
/** How long to wait for another svc's update before giving up. */
const WAIT_MS = 15_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether the lock's owner runs: true, false, or undefined when the lock names another host (unknowable). */
function ownerAlive(text: string): boolean | undefined {
  const [pid, host] = text.split(/\s+/);
  if (host && host !== hostname()) return undefined;
  const n = Number(pid);
  if (!Number.isInteger(n) || n <= 0) return false;
  try {
    process.kill(n, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A lock whose owner is gone is taken over only once it has stood this long. svc releases its lock and
 * exits a moment later, so the pid this svc read may be one that released (and exited) since, while the
 * file there now is a newer, live lock: judged stale at once, it would be deleted under its owner and
 * two updates would run together (one lost).
 */
const DEAD_OWNER_MS = 1_000;

interface Seen { ino: number; mtimeMs: number }

/** The lock as read, when it is stale: read and stat'ed through one handle, so both are of one file. */
async function staleLock(lockPath: string, what: string): Promise<Seen | undefined> {
  let handle: FileHandle;
  try {
    // Never a plain open: a FIFO there would block it for good.
    handle = await openRegularFile(lockPath);
  } catch (err) {
    if (err instanceof NotRegularFile) {
      throw new UsageError(`the lock file ${lockPath} of ${what} is ${err.kind}, not a lock svc made; nothing was changed`, `delete ${lockPath} and try again`);
    }
    return undefined;
  }
  try {
    const info = await handle.stat();
    const text = await handle.readFile('utf8');
    const age = Date.now() - info.mtimeMs;
    // An empty file is a lock being written this instant: stale only when old.
    const alive = text.trim() === '' ? undefined : ownerAlive(text);
    const stale = alive === undefined ? age > STALE_MS : !alive && age >= DEAD_OWNER_MS;
    return stale ? { ino: info.ino, mtimeMs: info.mtimeMs } : undefined;
  } catch {
    return undefined;
  } finally {
    await handle.close().catch(() => {});
  }
}

/** Deletes the lock judged stale, but only if the file there is still that one (not a newer lock). */
async function removeStale(lockPath: string, seen: Seen): Promise<void> {
  const now = await promises.stat(lockPath).catch(() => undefined);
  if (now && now.ino === seen.ino && now.mtimeMs === seen.mtimeMs) await promises.unlink(lockPath).catch(() => {});
}

/** Runs `fn` holding the lock of `path` (`path.lock`); `what` names the file in messages. */
export async function withLock<T>(path: string, fn: () => Promise<T>, waitMs = WAIT_MS, what = 'the config file'): Promise<T> {
  const lockPath = `${path}.lock`;
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      // fs.promises is read here, not imported: loading it costs ~1 ms, and only writes need it.
      const handle = await promises.open(lockPath, 'wx', 0o600);
      try {
        await handle.writeFile(`${process.pid} ${hostname()}\n`);
      } finally {
        await handle.close();
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const stale = await staleLock(lockPath, what);
      if (stale) {
        await removeStale(lockPath, stale);
        continue;
      }
      if (Date.now() - started > waitMs) {
        throw new UsageError(`${what} ${path} is locked by another svc (lock file ${lockPath}); nothing was changed`, `try again; if no other svc is running, delete ${lockPath}`);
      }
      await sleep(Math.min(5 + attempt * 5, 50) + Math.random() * 10);
    }
  }
  try {
    return await fn();
  } finally {
    await promises.unlink(lockPath).catch(() => {});
  }
}
