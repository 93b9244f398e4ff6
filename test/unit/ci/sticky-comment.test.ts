import { afterEach, describe, expect, it } from 'vitest';
import { graphqlUrl } from '../../../src/ci/sticky-comment.js';
import { startFakeComments, type FakeComments } from '../../helpers/fake-comments.js';

describe("graphqlUrl: GitHub's GraphQL endpoint beside the REST root the runner names", () => {
  it('github.com, GitHub Enterprise Server (/api/v3) and GHE.com data residency', () => {
    expect(graphqlUrl('https://api.github.com')).toBe('https://api.github.com/graphql');
    expect(graphqlUrl('https://ghes.example.com/api/v3')).toBe('https://ghes.example.com/api/graphql');
    expect(graphqlUrl('https://api.acme.ghe.com')).toBe('https://api.acme.ghe.com/graphql');
  });
});

/** The fakes' "who am I" answers, as the hosts document them (the e2e tests rely on them). */
describe('the comment fakes answer whose token it is as the hosts do', () => {
  let fake: FakeComments | undefined;
  afterEach(async () => { await fake?.close(); fake = undefined; });
  const call = async (f: FakeComments, method: string, path: string, body?: unknown) => {
    const auth: Record<string, string> = f.host === 'hostb' ? { 'private-token': f.token } : { authorization: `Bearer ${f.token}` };
    const res = await fetch(f.url + path, { method, headers: { ...auth, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: await res.json() as Record<string, unknown> };
  };

  it('GitHub, an installation token (GITHUB_TOKEN): GraphQL viewer is github-actions[bot]; GET /user is 403', async () => {
    fake = await startFakeComments('hosta');
    expect(await call(fake, 'POST', '/graphql', { query: 'query { viewer { login } }' })).toEqual({ status: 200, json: { data: { viewer: { login: 'github-actions[bot]' } } } });
    const user = await call(fake, 'GET', '/user');
    expect(user.status).toBe(403);
    expect(user.json.message).toBe('Resource not accessible by integration');
  });

  it("GitHub, a personal access token: both name the user; comments carry user.login", async () => {
    fake = await startFakeComments('hosta');
    fake.me = { login: 'alice', id: 5, app: false };
    expect((await call(fake, 'POST', '/graphql', { query: '{ viewer { login } }' })).json).toEqual({ data: { viewer: { login: 'alice' } } });
    expect(await call(fake, 'GET', '/user')).toEqual({ status: 200, json: { login: 'alice', id: 5, type: 'User' } });
    fake.comments.push({ id: 1, body: 'x', author: 'bob' });
    const list = await call(fake, 'GET', '/repos/o/r/issues/7/comments');
    expect((list.json as unknown as Array<{ user: { login: string; type: string } }>)[0].user).toMatchObject({ login: 'bob', type: 'User' });
  });

  it('GitLab: GET /user names the token\'s user; a Maintainer edits anyone\'s note, anyone else only their own', async () => {
    fake = await startFakeComments('hostb');
    const me = await call(fake, 'GET', '/api/v4/user');
    expect(me.json).toMatchObject({ id: fake.me.id, username: fake.me.login });
    fake.comments.push({ id: 1, body: 'x', author: 'bob' });
    const list = await call(fake, 'GET', '/api/v4/projects/42/merge_requests/7/notes');
    expect((list.json as unknown as Array<{ author: { id: number } }>)[0].author.id).not.toBe(fake.me.id);
    expect((await call(fake, 'PUT', '/api/v4/projects/42/merge_requests/7/notes/1', { body: 'y' })).status).toBe(200);
    fake.me.maintainer = false;
    expect((await call(fake, 'PUT', '/api/v4/projects/42/merge_requests/7/notes/1', { body: 'z' })).status).toBe(403);
  });
});
