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
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type * as TS from 'typescript';
import { describe, expect, it } from 'vitest';
import { HANDLERS } from '../../../src/sandbox/router.js';
import { loadAllOperations } from '../../../src/operations/index.js';

// TypeScript's parser, as lazy-imports.test.ts loads it (CommonJS: faster than through node's ESM loader).
const ts: typeof TS = createRequire(import.meta.url)('typescript');

const ROOT = resolve(__dirname, '../../..');

/** Files and folders (src-relative, a folder ends with /) where an API path may be written, see above. */
const MAY_NAME_PATHS = ['src/operations/', 'src/commands/builtin/api.ts', 'src/sandbox/'];
/** Files that may call the HTTP client's call() directly. */
const MAY_CALL_CLIENT = ['src/http/row-call.ts', 'src/commands/builtin/api.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.c?ts$/.test(n) && !n.endsWith('.d.cts') ? [p] : [];
  });
}

/** A literal's text that is an API path or its bare prefix: `/api/v1/...`, `/api/v1`. */
const PATH = /\/api\/v1(\/|$)/;

interface Found {
  paths: string[];
  clientCalls: string[];
}

/** The string and template literals of a source that name an API path, and its calls of Client.call. */
export function scan(file: string, text: string): Found {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const at = (n: TS.Node) => `${file}:${sf.getLineAndCharacterOfPosition(n.getStart()).line + 1}`;
  const found: Found = { paths: [], clientCalls: [] };
  const visit = (n: TS.Node) => {
    if (ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n) || ts.isTemplateMiddle(n) || ts.isTemplateTail(n)) {
      if (PATH.test(n.text)) found.paths.push(`${at(n)}: ${n.getText()}`);
    }
    // client.call(path, body, { safe }): the client's signature; Function.prototype.call is not one.
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && n.expression.name.text === 'call') {
      const opts = n.arguments[2];
      const byName = /client/i.test(n.expression.expression.getText());
      const bySignature = opts !== undefined && ts.isObjectLiteralExpression(opts) && opts.properties.some((p) => p.name !== undefined && p.name.getText() === 'safe');
      if (byName || bySignature) found.clientCalls.push(`${at(n)}: ${n.getText().split('\n')[0]}`);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return found;
}

const allowed = (file: string, list: string[]) => list.some((a) => (a.endsWith('/') ? file.startsWith(a) : file === a));

describe('every API call goes through a row of the operation table', () => {
  const files = sourceFiles(join(ROOT, 'src')).map((abs) => ({ file: relative(ROOT, abs), text: readFileSync(abs, 'utf8') }));
  const found = files.map(({ file, text }) => ({ file, ...scan(file, text) }));

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
