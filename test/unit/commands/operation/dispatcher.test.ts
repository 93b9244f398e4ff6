/**
 * Flags -> request -> rendered output in-process, with no server: the host's dispatcher is an undici
 * MockAgent (Host.dispatcher), which answers the requests the command sends and refuses any other.
 */
import { describe, expect, it } from 'vitest';
import { MOCK_BASE, MOCK_ENV, useMockAgent } from '../../../helpers/mock-agent.js';
import { runCli } from '../../../helpers/host.js';
import { TOKEN_ID_HEADER } from '../../../../src/http/headers.js';

const BASE = MOCK_BASE;
const env = MOCK_ENV;
const mockAgent = useMockAgent();

describe('an operation command against a MockAgent', () => {
  it('sends the body its flags make, with the token headers, and renders the answer as a table', async () => {
    let sent: { body: unknown; headers: Record<string, string> } | undefined;
    mockAgent().get(BASE).intercept({ path: '/api/v1/orgs/list', method: 'POST' }).reply(200, (opts) => {
      sent = { body: JSON.parse(String(opts.body)), headers: opts.headers as Record<string, string> };
      return [{ id: 'org_1', name: 'Acme', role: 'owner' }, { id: 'org_2', name: 'Beta', role: 'member' }];
    }, { headers: { 'content-type': 'application/json' } });
    const r = await runCli(['orgs', 'list', '--search-query', 'ac', '-o', 'table'], { env, dispatcher: mockAgent() });
    expect(r.code, r.stderr).toBe(0);
    expect(sent?.body).toEqual({ searchQuery: 'ac' });
    expect(sent?.headers[TOKEN_ID_HEADER.toLowerCase()]).toBe('tid_1');
    expect(r.stdout).toMatch(/org_1\s+Acme\s+owner/);
    expect(r.stdout).toMatch(/org_2\s+Beta\s+member/);
  });

  it('maps an error answer to its exit code (404 -> 4) with the service message', async () => {
    mockAgent().get(BASE).intercept({ path: '/api/v1/orgs/list', method: 'POST' })
      .reply(404, { error: 'no such organization' }, { headers: { 'content-type': 'application/json' } });
    const r = await runCli(['orgs', 'list', '-o', 'json'], { env, dispatcher: mockAgent() });
    expect(r.code).toBe(4);
    expect(r.stderr).toContain('no such organization');
    expect(r.stdout).toBe('');
  });

  it('issues search --all --jq .totalCount: exit 2 before anything is sent (it printed null for every issue)', async () => {
    // No interception: a request would fail the run with another code.
    const r = await runCli(['issues', 'search', '--all', '--jq', '.totalCount'], { env, dispatcher: mockAgent() });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('.totalCount is a field of the page, not of an item');
    expect(r.stderr).toContain("drop --all to read it from one page: --jq '.totalCount'");
    expect(r.stdout).toBe('');
  });
});
