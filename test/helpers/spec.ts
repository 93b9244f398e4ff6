/** The API spec lives beside the repository (../shared/spec), as it does on CI. */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const SPEC_PATH = resolve(__dirname, '../../../shared/spec/service-api.md');

/** Operation paths of the spec's endpoint tables, or undefined when the spec is not beside the clone. */
export function specPaths(): string[] | undefined {
  if (!existsSync(SPEC_PATH)) {
    // CI always has the spec beside the clone: missing there is a failure, not a skip.
    if (process.env.CI) throw new Error(`the API spec is missing at ${SPEC_PATH}`);
    return undefined;
  }
  const text = readFileSync(SPEC_PATH, 'utf8');
  return [...new Set([...text.matchAll(/^\| POST (\/api\/v1\/[A-Za-z/-]+)/gm)].map((m) => m[1]))].sort();
}
