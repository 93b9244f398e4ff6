/** The API spec lives beside the repository (../shared/spec), as it does on CI. */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// Beside the clone (../shared, as on CI), or beside the folder of worktrees it is in (../../shared).
const CANDIDATES = ['../../../shared/spec/service-api.md', '../../../../shared/spec/service-api.md'].map((p) => resolve(__dirname, p));
export const SPEC_PATH = CANDIDATES.find((p) => existsSync(p)) ?? CANDIDATES[0];

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

/** Operations svc has beyond the spec: seen in public clients (the field notes). */
export const FIELD_NOTES_PATHS = ['/api/v1/issues/unarchive', '/api/v1/scans/list', '/api/v1/scans/start'];

/** Every operation path the table must have (the spec's and the field notes'), sorted; undefined without the spec. */
export function expectedPaths(): string[] | undefined {
  const paths = specPaths();
  return paths && [...paths, ...FIELD_NOTES_PATHS].sort();
}
