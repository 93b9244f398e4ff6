/**
 * Commands that change things, one at a time (src/commands/operation/run.ts): what they send, what
 * they refuse before sending, and what they say when the answer leaves the change's fate unknown.
 */
import { describe, expect, it } from 'vitest';
import { useFakeServer } from '../../../helpers/fake-server.js';
import { runCli } from '../../../helpers/host.js';

const fake = useFakeServer({ mock: true });
const run = (argv: string[]) => runCli([...argv, '--org', 'org_1'], { env: fake.env, dispatcher: fake.dispatcher });
const SET = '/api/v1/repositories/set-show-check-status';

describe('a change whose answer svc cannot read', () => {
  it.each([
    ['not JSON', { text: '{"ok":tr', type: 'application/json' }],
    ['a list where an object is documented', { json: [{ ok: true }] }],
    ['a key twice', { text: '{"ok":true,"ok":false}', type: 'application/json' }],
  ])('%s: exit 7, sent once, and says the change may or may not have been made (not "try again")', async (_name, reply) => {
    fake.stub(SET, reply);
    const r = await run(['repos', 'set-show-check-status', 'repo_1', '--show-check-status', '-o', 'json']);
    expect(r.code, r.stderr).toBe(7);
    expect(fake.hits(SET)).toBe(1);
    expect(r.stderr).toMatch(/the change may or may not have been made: check before repeating it/);
    expect(r.stderr).not.toMatch(/try again/);
  });

  it('a read keeps its own words (nothing was changed)', async () => {
    fake.stub('/api/v1/issues/get', [{ text: '{"ok":tr', type: 'application/json' }]);
    const r = await run(['issues', 'get', 'iss_1', '-o', 'json', '--retries', '0']);
    expect(r.code, r.stderr).toBe(7);
    expect(r.stderr).not.toMatch(/may or may not have been made/);
  });
});
