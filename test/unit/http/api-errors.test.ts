import { describe, expect, it } from 'vitest';
import { useFakeServer } from '../../helpers/fake-server.js';
import { runCli } from '../../helpers/host.js';
import { BadRequestError, NotFoundError, RateLimitedError, ServerError, UnauthorizedError, errorMessage, statusError } from '../../../src/http/api-errors.js';
import { EXIT } from '../../../src/core/exit-codes.js';

describe('statusError', () => {
  it.each([
    [400, BadRequestError, EXIT.REJECTED], [401, UnauthorizedError, EXIT.AUTH], [403, UnauthorizedError, EXIT.AUTH],
    [404, NotFoundError, EXIT.NOT_FOUND], [408, ServerError, EXIT.NETWORK], [409, BadRequestError, EXIT.REJECTED],
    [422, BadRequestError, EXIT.REJECTED], [429, RateLimitedError, EXIT.NETWORK], [500, ServerError, EXIT.NETWORK],
    [502, ServerError, EXIT.NETWORK], [503, ServerError, EXIT.NETWORK],
  ])('HTTP %i -> %o, exit %i', (status, cls, code) => {
    const e = statusError(status, 'issues/search', '{"error":"nope"}', 1000);
    expect(e).toBeInstanceOf(cls);
    expect(e.exitCode).toBe(code);
    expect(e.message).toBe(status === 429 ? 'issues/search: rate-limited: retry later (HTTP 429, Retry-After: 1 s): nope' : `issues/search failed: HTTP ${status}: nope`);
    expect(e.hint).toBeTruthy();
  });
  it('keeps Retry-After for 429 and 5xx', () => {
    expect(statusError(429, 'x', '', 2000).retryAfterMs).toBe(2000);
    expect(statusError(503, 'x', '', 0).retryAfterMs).toBe(0);
    expect(statusError(429, 'x', '', 150_000).message).toBe('x: rate-limited: retry later (HTTP 429, Retry-After: 2 min 30 s)');
    expect(statusError(429, 'x', '').message).toBe('x: rate-limited: retry later (HTTP 429, the service gave no Retry-After)');
  });
  it('a status HTTP does not define (600 and up) is an answer svc cannot read (7), never a server error retried (6)', () => {
    for (const status of [600, 799, 999]) {
      const e = statusError(status, 'x', '');
      expect(e.exitCode, String(status)).toBe(7);
      expect(e.message).toBe(`x failed: HTTP ${status}: not a status HTTP defines`);
    }
    expect(statusError(599, 'x', '').exitCode).toBe(6);
  });
});

describe('errorMessage', () => {
  it('reads every error shape', () => {
    expect(errorMessage('{"error":"bad issueId"}')).toBe('bad issueId');
    expect(errorMessage('{"error":{"message":"m","code":"E1","requestId":"r9"}}')).toBe('m, code E1, request r9');
    expect(errorMessage('{"message":"plain"}')).toBe('plain');
    // Frameworks' validation errors: what to fix first, the status phrase beside it (it said only "Bad Request").
    expect(errorMessage('{"statusCode":400,"message":["pageSize must not be greater than 100","page must be an integer"],"error":"Bad Request"}'))
      .toBe('pageSize must not be greater than 100; page must be an integer (Bad Request)');
    expect(errorMessage('{"message":"Validation failed","errors":[{"field":"pageSize","message":"too big"}]}')).toBe('Validation failed; pageSize: too big');
    expect(errorMessage('{"type":"about:blank","title":"Bad Request","status":400,"detail":"pageSize too big"}')).toBe('pageSize too big');
    expect(errorMessage('{"error":"bad issueId","message":"bad issueId"}')).toBe('bad issueId');
    expect(errorMessage('{"weird":1}')).toBe('{"weird":1}');
    expect(errorMessage('Bad Gateway\n')).toBe('Bad Gateway');
    expect(errorMessage('')).toBe('');
  });
  it('keeps one line without control characters, at most 300 characters', () => {
    const m = errorMessage('{"error":"line1\\nline2\\u001b[2J\\u0007x"}');
    expect(m).not.toMatch(/[\u0000-\u001f]/);
    expect(m).toContain('line1');
    expect(errorMessage('x'.repeat(1000))).toHaveLength(300);
  });
});

describe('a 404: the id or the base URL', () => {
  const fake = useFakeServer();
  const notFound = { status: 404, json: { error: "unknown path '/svc/api/v1/orgs/list'" } };

  it('a request that names no id (orgs list): the hint is the base URL, not "check the id"', async () => {
    fake.stub('/api/v1/orgs/list', notFound);
    const r = await runCli(['orgs', 'list', '-o', 'json'], { env: fake.env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('the request names no id, so the path was not found: check the base URL and its path prefix');
    expect(r.stderr).not.toContain('check the id');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('repos resolve-by-url without an organization (a 404 the spec declares: no repository has that URL): not "check the base URL"', async () => {
    fake.stub('/api/v1/repositories/resolve-by-url', { status: 404, json: { error: 'no repository linked with that URL' } });
    const r = await runCli(['repos', 'resolve-by-url', 'https://hosta.example/team/api', '--vcs', 'hosta', '-o', 'json'], { env: fake.env });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('no repository linked with that URL');
    expect(r.stderr).not.toContain('check the base URL');
  });

  it('a request that names an issue: "check the id" stays', async () => {
    fake.stub('/api/v1/issues/get', { status: 404, json: { error: "issue 'iss_nope' not found" } });
    const r = await runCli(['issues', 'get', 'iss_nope', '-o', 'json'], { env: fake.env });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/check the id\s*$/);
  });
});
