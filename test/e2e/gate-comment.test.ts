/**
 * `svc gate --comment` against fakes of the three hosts' comment APIs (test/helpers/fake-comments.ts):
 * one comment, created once and edited on every later run, never two; a comment that cannot be
 * posted is a warning and leaves the verdict's exit code as it was.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeService, type FakeService, type Issue } from '../helpers/fake-service.js';
import { startFakeComments, type FakeComments, type FakeHost } from '../helpers/fake-comments.js';
import { runCli } from '../helpers/host.js';
import { tempDir } from '../helpers/temp.js';

const closers: Array<() => Promise<void>> = [];
afterAll(async () => { await Promise.all(closers.splice(0).map((c) => c())); });

async function service(issues: Issue[]): Promise<FakeService> {
  const s = await startFakeService();
  s.setIssues(issues);
  closers.push(() => s.close());
  return s;
}

async function comments(host: FakeHost): Promise<FakeComments> {
  const c = await startFakeComments(host);
  closers.push(() => c.close());
  return c;
}

const FAILING: Issue[] = [{ id: 'iss-1', status: 'open', score: 95, generatedTitle: 'SQL built from input', affectedFile: 'src/db.ts', startLine: 3, repositoryId: 'repo-1' }];
const PASSING: Issue[] = [{ id: 'iss-2', status: 'open', score: 20, generatedTitle: 'Weak hash', affectedFile: 'src/h.ts', startLine: 9, repositoryId: 'repo-1' }];

function gate(s: FakeService, c: FakeComments, args: string[] = [], env: Record<string, string> = {}) {
  return runCli(['gate', '--fail-on', 'high', '--comment', ...args], { env: { ...s.env, ...c.env, ...env } });
}

/** Three comments by people, so that svc's lands on the second page (2 a page). */
function others(c: FakeComments): void {
  c.comments.push(
    { id: 1, body: 'LGTM', author: 'alice' },
    { id: 2, body: 'Please look at this:\n> <!-- svc-gate-comment -->\n> [//]: # (svc-gate-comment)\n> svc gate failed', author: 'bob' },
    { id: 3, body: 'system: added 1 commit', author: 'carol', system: true },
  );
}

const HOSTS: FakeHost[] = ['hosta', 'hostb', 'hostc'];

describe.each(HOSTS)('svc gate --comment on %s', (host) => {
  it('creates one comment, then edits that same comment on the next run (never two)', async () => {
    const c = await comments(host);
    others(c);
    const s = await service(FAILING);
    const first = await gate(s, c, ['--issue-url', 'https://svc.example/issues/{id}']);
    expect(first.code, first.stderr).toBe(1);
    expect(c.marked()).toHaveLength(1);
    const mine = c.marked()[0];
    expect(mine.body).toContain('svc gate failed');
    expect(mine.body).toContain('[SQL built from input](https://svc.example/issues/iss-1)');
    expect(first.stderr).toContain(`created the comment ${mine.id}`);
    // The list was read page by page: 4 comments, 2 a page.
    expect(c.requests.filter((r) => r.method === 'GET' && !r.path.endsWith('/user')).length).toBe(2);

    s.setIssues(PASSING);
    const second = await gate(s, c);
    expect(second.code, second.stderr).toBe(0);
    expect(c.marked()).toHaveLength(1);
    expect(c.marked()[0].id).toBe(mine.id);
    expect(c.marked()[0].body).toContain('svc gate passed');
    expect(second.stderr).toContain(`updated the comment ${mine.id}`);
    expect(c.comments).toHaveLength(4);
    // People's comments, the quote of the marker included, are left as they were.
    expect(c.comments.find((x) => x.id === 2)!.body).toContain('Please look at this');
    // The token went with every request, and only to the API.
    for (const r of c.requests) expect(r.auth).toContain(c.token);
    expect(first.stderr + first.stdout + second.stderr + second.stdout).not.toContain(c.token);
  });

  it('a marked comment someone else owns (403 on edit) is passed over: svc edits its own', async () => {
    const c = await comments(host);
    const marker = host === 'hostc' ? '[//]: # (svc-gate-comment)' : '<!-- svc-gate-comment -->';
    c.comments.push({ id: 5, body: `${marker}\ncopied by dave`, author: 'dave', locked: true });
    const s = await service(FAILING);
    await gate(s, c);
    // dave's cannot be edited: a comment of svc's own is created...
    expect(c.comments.find((x) => x.id === 5)!.body).toContain('copied by dave');
    expect(c.marked()).toHaveLength(2);
    const mine = c.marked().find((x) => x.id !== 5)!;
    // ...and from then on edited, never a third.
    const again = await gate(s, c);
    expect(again.code).toBe(1);
    expect(c.marked()).toHaveLength(2);
    expect(again.stderr).toContain(`updated the comment ${mine.id}`);
  });

  it('a 403 is one warning line; the exit code stays the verdict\'s (1 failing, 0 passing)', async () => {
    const c = await comments(host);
    c.status = 403;
    const failing = await gate(await service(FAILING), c);
    expect(failing.code).toBe(1);
    const warnings = failing.stderr.split('\n').filter((l) => l.startsWith('warning:'));
    expect(warnings).toHaveLength(1);
    // GitHub and GitLab ask whose token it is first, Bitbucket lists first.
    const first = host === 'hostc' ? 'listing comments' : 'asking whose token this is \\(.*\\)';
    expect(warnings[0]).toMatch(new RegExp(`--comment: could not post the comment on .*#7: ${first} answered 403 .*\\(the verdict stands\\)`));
    expect(failing.stderr).not.toContain(c.token);
    const passing = await gate(await service(PASSING), c);
    expect(passing.code, passing.stderr).toBe(0);
    expect(passing.stderr).toContain('answered 403');
    expect(c.comments).toHaveLength(0);
  });

  it('no token: a warning, nothing sent, the verdict stands', async () => {
    const c = await comments(host);
    const env: Record<string, string> = { GITHUB_TOKEN: '', SVC_HOSTB_TOKEN: '', SVC_HOSTC_TOKEN: '' };
    const r = await gate(await service(PASSING), c, [], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/--comment: could not post the comment on .*: no token: set /);
    expect(c.requests).toHaveLength(0);
  });

  it('a next-page link to another host is not followed: the token stays with the API', async () => {
    const c = await comments(host);
    const elsewhere = await comments(host);
    c.nextOrigin = elsewhere.url.replace('127.0.0.1', 'localhost');
    others(c);
    const r = await gate(await service(PASSING), c);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('the API pointed to another host');
    expect(elsewhere.requests).toHaveLength(0);
    // Not knowing every comment, svc creates none (it could be a second).
    expect(c.marked()).toHaveLength(0);
  });
});

const MARKER = '<!-- svc-gate-comment -->';

describe.each(['hosta', 'hostb'] as const)("svc gate --comment on %s edits only the token's own comment", (host) => {
  it("a person's comment that starts with the marker is left as it is, though the token may edit it", async () => {
    const c = await comments(host);
    c.comments.push({ id: 5, body: `${MARKER}\nmy own notes, formatted like svc's`, author: 'dave' });
    const s = await service(FAILING);
    const first = await gate(s, c);
    expect(first.code, first.stderr).toBe(1);
    expect(c.comments.find((x) => x.id === 5)!.body).toBe(`${MARKER}\nmy own notes, formatted like svc's`);
    // No edit was even tried: the only write is the new comment, by the token's own identity.
    expect(c.requests.filter((r) => r.method === 'PATCH' || r.method === 'PUT')).toHaveLength(0);
    const mine = c.marked().find((x) => x.id !== 5)!;
    expect(mine.author).toBe(c.me.login);
    expect(first.stderr).toContain(`created the comment ${mine.id}`);
    expect(first.stderr).toContain('passed over 1 marked comment that is not the token\'s own');
    const again = await gate(s, c);
    expect(again.stderr).toContain(`updated the comment ${mine.id}`);
    expect(c.comments.find((x) => x.id === 5)!.body).toBe(`${MARKER}\nmy own notes, formatted like svc's`);
    expect(c.marked()).toHaveLength(2);
  });

  it('the identity cannot be learnt: nothing is edited or created, one warning, the verdict stands', async () => {
    const c = await comments(host);
    c.comments.push({ id: 5, body: `${MARKER}\nsomeone's`, author: 'dave' });
    c.whoAmIStatus = 401;
    const r = await gate(await service(PASSING), c);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/--comment: could not post the comment on .*: asking whose token this is \(.*\) answered 401 \(the token was refused\)/);
    expect(c.requests.filter((x) => x.method !== 'GET' && !x.path.endsWith('/graphql'))).toHaveLength(0);
    expect(c.comments).toHaveLength(1);
  });
});

describe('svc gate --comment on GitHub: which identity the token is', () => {
  it("GITHUB_TOKEN (github-actions[bot]: GET /user is 403 for it) edits the bot's comment, not a person's", async () => {
    const c = await comments('hosta');
    c.comments.push({ id: 8, body: `${MARKER}\nold verdict`, author: 'github-actions[bot]' }, { id: 9, body: `${MARKER}\na person's`, author: 'erin' });
    const r = await gate(await service(PASSING), c);
    expect(r.stderr).toContain('updated the comment 8');
    expect(c.comments.find((x) => x.id === 9)!.body).toBe(`${MARKER}\na person's`);
    // The identity came from GraphQL's viewer, which answers for installation tokens.
    expect(c.requests.some((x) => x.method === 'POST' && x.path === '/graphql')).toBe(true);
  });

  it("a personal access token edits its user's comment (logins compared ignoring case), not the bot's", async () => {
    const c = await comments('hosta');
    c.me = { login: 'Alice', id: 5, app: false };
    c.comments.push({ id: 8, body: `${MARKER}\nsvc with GITHUB_TOKEN`, author: 'github-actions[bot]' }, { id: 9, body: `${MARKER}\nsvc with alice's token`, author: 'alice' });
    const r = await gate(await service(PASSING), c, [], { SVC_HOSTA_TOKEN: c.token });
    expect(r.stderr).toContain('updated the comment 9');
    expect(c.comments.find((x) => x.id === 8)!.body).toBe(`${MARKER}\nsvc with GITHUB_TOKEN`);
  });
});

describe('svc gate --comment: a marker someone removed', () => {
  it('the comment is no longer svc\'s: the next run creates one, and edits that one after', async () => {
    const c = await comments('hosta');
    const s = await service(FAILING);
    await gate(s, c);
    const first = c.marked()[0];
    first.body = first.body.replace('<!-- svc-gate-comment -->\n', '');
    await gate(s, c);
    expect(c.comments).toHaveLength(2);
    expect(c.marked()).toHaveLength(1);
    expect(c.marked()[0].id).not.toBe(first.id);
    await gate(s, c);
    expect(c.comments).toHaveLength(2);
  });
});

describe('svc gate --comment outside a pull request', () => {
  it('says so on stderr and posts nothing', async () => {
    const c = await comments('hosta');
    const s = await service(PASSING);
    const r = await gate(s, c, [], { GITHUB_REF: 'refs/heads/main' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('--comment: not a pull request build');
    expect(c.requests).toHaveLength(0);
    const none = await runCli(['gate', '--fail-on', 'high', '--comment'], { env: s.env });
    expect(none.code).toBe(0);
    expect(none.stderr).toContain('--comment: not a pull request build of a CI svc knows: no comment posted');
  });

  it("host A: the pull request number from the event file when GITHUB_REF does not hold it", async () => {
    const c = await comments('hosta');
    const dir = tempDir();
    const event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ pull_request: { number: 7 } }));
    const r = await gate(await service(PASSING), c, [], { GITHUB_REF: 'refs/heads/main', GITHUB_EVENT_PATH: event });
    expect(r.code, r.stderr).toBe(0);
    expect(c.marked()).toHaveLength(1);
  });

  it('an undecided gate posts that it could not decide, with its exit code', async () => {
    const c = await comments('hostb');
    const s = await service(PASSING);
    s.faults.status = 500;
    const r = await gate(s, c, ['--retries', '0']);
    expect(r.code).toBe(6);
    expect(c.marked()).toHaveLength(1);
    expect(c.marked()[0].body).toContain('svc gate could not decide');
  });
});
