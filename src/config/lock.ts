/**
 * A lock around the config file's read-modify-write, so that concurrent `svc config set` / `auth login`
 * (parallel CI steps, a script's `&`) lose no update: an O_EXCL lock file next to the config file,
 * holding the owner's pid. A lock whose owner is gone (a killed svc), or older than STALE_MS, is stale
 * and taken over.
 */
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { UsageError } from '../errors.js';

/** No update holds the lock this long (one read and one small write); an older lock was left behind. */
const STALE_MS = 10_000;
/** How long to wait for another svc's update before giving up. */
const WAIT_MS = 15_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function ownerAlive(text: string): boolean {
  const [pid, host] = text.split(/\s+/);
  if (host && host !== hostname()) return true;
  const n = Number(pid);
  if (!Number.isInteger(n) || n <= 0) return false;
  try {
    process.kill(n, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isStale(lockPath: string): Promise<boolean> {
  try {
    const [info, text] = await Promise.all([fs.promises.stat(lockPath), fs.promises.readFile(lockPath, 'utf8')]);
    if (Date.now() - info.mtimeMs > STALE_MS) return true;
    // An empty file is a lock being written this instant: not stale.
    return text.trim() !== '' && !ownerAlive(text);
  } catch {
    return false;
  }
}

/** Runs `fn` holding the lock of `path` (`path.lock`). */
export async function withLock<T>(path: string, fn: () => Promise<T>): Promise<T> {
  const lockPath = `${path}.lock`;
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      // fs.promises is read here, not imported: loading it costs ~1 ms, and only writes need it.
      const handle = await fs.promises.open(lockPath, 'wx', 0o600);
      try {
        await handle.writeFile(`${process.pid} ${hostname()}\n`);
      } finally {
        await handle.close();
      }
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (await isStale(lockPath)) {
        await fs.promises.unlink(lockPath).catch(() => {});
        continue;
      }
      if (Date.now() - started > WAIT_MS) {
        throw new UsageError(`the config file ${path} is locked by another svc (lock file ${lockPath}); nothing was changed`, `try again; if no other svc is running, delete ${lockPath}`);
      }
      await sleep(Math.min(5 + attempt * 5, 50) + Math.random() * 10);
    }
  }
  try {
    return await fn();
  } finally {
    await fs.promises.unlink(lockPath).catch(() => {});
  }
}
