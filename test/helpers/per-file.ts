/** `perFile(name, start, stop)`: one resource for a whole test file, made in beforeAll, ended in afterAll. */
import { afterAll, beforeAll } from 'vitest';

/**
 * Returns a stand-in that reads the resource once beforeAll has made it (tests and hooks may use it;
 * the describe body may not: nothing exists yet then).
 */
export function perFile<T extends object>(name: string, start: () => Promise<T>, stop: (t: T) => Promise<void>): T {
  let made: T | undefined;
  beforeAll(async () => { made = await start(); });
  afterAll(async () => { if (made) await stop(made); });
  return new Proxy({} as T, {
    get(_t, key) {
      if (!made) throw new Error(`${name}: it starts in beforeAll; use it inside tests or hooks`);
      const v = (made as Record<PropertyKey, unknown>)[key];
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(made) : v;
    },
  });
}
