/**
 * Every API call svc makes goes through a row of the operation table (issue 33.5): the row gives the
 * path, the request and response schemas and whether the call is safe to send again, so the checks
 * and the shape of an operation live in one place (src/http/row-call.ts sends it). This test fails
 * when code names an API path itself or calls the HTTP client past the rows.
 *
 * Where a path may be spelled, and why:
 * - src/operations/: the table; row.ts's apiPath() is the one place a path is made.
 * - src/commands/builtin/api.ts: `svc api`, the raw escape hatch: its user names the path (README
 *   "svc api"); it is the one caller of the client besides row-call.ts.
 * - src/sandbox/: the stand-in for the service, the other side of the wire: it routes requests by the
 *   path they arrive at, as a real service does, and is no caller. Its handler keys are held to the
 *   table both ways below (a row without a handler, or a handler no row calls, fails), so the two
 *   cannot drift apart.
 * Prose is not code: comments are skipped, and a message may name `/api/v1` as the base URL's prefix
 * (src/http/base-url.ts) as long as it is not a path (`/api/v1/...` or the bare prefix as a value).
 * Run alone: npx vitest run test/unit/architecture/api-paths.test.ts
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { HANDLERS } from '../../../src/sandbox/router.js';
import { loadAllOperations } from '../../../src/operations/index.js';
import { scan, sourceScan, type Found } from '../../helpers/source-scan.js';

/** Files and folders (src-relative, a folder ends with /) where an API path may be written, see above. */
const MAY_NAME_PATHS = ['src/operations/', 'src/commands/builtin/api.ts', 'src/sandbox/'];
/** Files that may call the HTTP client's call() directly. */
const MAY_CALL_CLIENT = ['src/http/row-call.ts', 'src/commands/builtin/api.ts'];

const allowed = (file: string, list: string[]) => list.some((a) => (a.endsWith('/') ? file.startsWith(a) : file === a));

describe('every API call goes through a row of the operation table', () => {
  // The string and template literals of each file of src/ that name an API path, and its calls of
  // Client.call: scan() of test/helpers/source-scan.ts, on the parse it makes once per run.
  let found: Array<{ file: string } & Found>;
  beforeAll(async () => { found = (await sourceScan()).api; });

  it('finds what it looks for (a path in a string or a template, a client call by name or by its options)', () => {
    const sample = [
      "const A = '/api/v1/issues/search';",
      'const B = `/api/v1/issues/${name}`;',
      "const C = '/api/v1' + path;",
      "// '/api/v1/orgs/list' in a comment is prose",
      "const D = 'ends with /api/v1, which svc adds';",
      "await client.call(A, {}, { safe: true });",
      "await this.http.call(B, body, { safe: false, raw: true });",
      'Object.prototype.hasOwnProperty.call(o, k);',
    ].join('\n');
    const f = scan('sample.ts', sample);
    expect(f.paths.map((p) => p.split(': ')[0])).toEqual(['sample.ts:1', 'sample.ts:2', 'sample.ts:3']);
    expect(f.clientCalls.map((p) => p.split(': ')[0])).toEqual(['sample.ts:6', 'sample.ts:7']);
  });

  it('reads the files it checks (the table and `svc api` do name paths)', () => {
    expect(found.find((f) => f.file === 'src/operations/row.ts')?.paths.length).toBeGreaterThan(0);
    expect(found.find((f) => f.file === 'src/commands/builtin/api.ts')?.clientCalls.length).toBeGreaterThan(0);
    expect(found.find((f) => f.file === 'src/http/row-call.ts')?.clientCalls.length).toBeGreaterThan(0);
  });

  it('no API path is written outside the operation table (and `svc api`, the sandbox)', () => {
    const outside = found.filter((f) => !allowed(f.file, MAY_NAME_PATHS)).flatMap((f) => f.paths);
    expect(outside, 'call through the row: callRow(client, await rowOf(group, name), body) (src/http/row-call.ts); a check keyed by operation takes apiPath(group, name)').toEqual([]);
  });

  it('no code calls the HTTP client past the rows (only row-call.ts and `svc api`)', () => {
    const outside = found.filter((f) => !allowed(f.file, MAY_CALL_CLIENT)).flatMap((f) => f.clientCalls);
    expect(outside, 'send through the row: callRow / sendRow (src/http/row-call.ts)').toEqual([]);
  });

  it("the sandbox answers exactly the table's paths: a handler for every row, a row for every handler", async () => {
    const paths = new Set((await loadAllOperations()).map((op) => op.path));
    const keys = new Set(Object.keys(HANDLERS));
    expect([...paths].filter((p) => !keys.has(p)), 'rows without a sandbox handler').toEqual([]);
    expect([...keys].filter((k) => !paths.has(k)), 'sandbox handlers no row calls').toEqual([]);
  });
});
