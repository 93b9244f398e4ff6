/** The API spec lives beside the repository (../shared/spec), as it does on CI. */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

// Beside the clone (../shared, as on CI), or beside the folder of worktrees it is in (../../shared).
const CANDIDATES = ['../../../shared/spec/service-api.md', '../../../../shared/spec/service-api.md'].map((p) => resolve(__dirname, p));
export const SPEC_PATH = CANDIDATES.find((p) => existsSync(p)) ?? CANDIDATES[0];

/**
 * Whether the spec and the outside schemas beside the clone (../shared) must be there: in CI, where
 * missing is a failure, not a skip; but for a clone that never had them (a mirror's release
 * workflow, .github/workflows/release.yml), which says so with SVC_TEST_SPEC=optional.
 */
export const SHARED_REQUIRED = !!process.env.CI && process.env.SVC_TEST_SPEC !== 'optional';

/** Operation paths of the spec's endpoint tables, or undefined when the spec is not beside the clone. */
export function specPaths(): string[] | undefined {
  if (!existsSync(SPEC_PATH)) {
    if (SHARED_REQUIRED) throw new Error(`the API spec is missing at ${SPEC_PATH}`);
    console.warn(`SKIPPED: the tests against the API spec: it is not at ${SPEC_PATH}`);
    return undefined;
  }
  const text = readFileSync(SPEC_PATH, 'utf8');
  return [...new Set([...text.matchAll(/^\| POST (\/api\/v1\/[A-Za-z/-]+)/gm)].map((m) => m[1]))].sort();
}

/**
 * Operations svc has beyond the spec: those the field notes (beside the spec) list as "(not in the
 * spec)", seen in public clients. Read from the notes, as the spec's are from the spec.
 */
export function fieldNotesPaths(): string[] | undefined {
  const notes = resolve(SPEC_PATH, '../field-notes.md');
  if (!existsSync(notes)) return undefined;
  const text = readFileSync(notes, 'utf8');
  return [...new Set([...text.matchAll(/^\| ([a-z]+\/[A-Za-z-]+) \(not in the spec\)/gm)].map((m) => `/api/v1/${m[1]}`))].sort();
}

/** Every operation path the table must have (the spec's and the field notes'), sorted; undefined without the spec. */
export function expectedPaths(): string[] | undefined {
  const paths = specPaths();
  const notes = fieldNotesPaths();
  return paths && notes && [...paths, ...notes].sort();
}
