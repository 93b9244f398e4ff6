/**
 * The zod check of a config profile's fields (config/store.ts), which loads it only when there is a
 * config file to check. A module of its own, with one export, rather than store.ts importing zod.ts:
 * import() of a module gives its namespace, which esbuild makes at the start of every call (zod.ts's:
 * 17 getters, ~0.3 M instructions). Here, beside zod.ts, it stays in dist/svc.cjs (a folder an API
 * call imports from: scripts/bundle-chunks.mjs), so a config file never loads the second script.
 */
import { looseObject, optional, string } from './zod.js';

/** Whether a value has the type of a profile's field (unknown fields are kept as they are). */
export function profileFieldCheck(fields: readonly string[]): (field: string, value: unknown) => boolean {
  const schema = looseObject(Object.fromEntries(fields.map((f) => [f, optional(string())])));
  return (field, value) => schema.safeParse({ [field]: value }).success;
}
