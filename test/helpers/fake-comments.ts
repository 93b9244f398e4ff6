/**
 * Fakes of the three hosts' pull request comment APIs on 127.0.0.1, for `svc gate --comment`,
 * answering as each host documents:
 *
 * host A: GET/POST /repos/{owner}/{repo}/issues/{n}/comments (?per_page, ?page; a `Link` header with
 *   rel="next"/"last"), PATCH /repos/{owner}/{repo}/issues/comments/{id}; `Authorization: Bearer`;
 *   401 {"message":"Bad credentials"}, 403 {"message":"Resource not accessible by integration"}.
 * host B: GET/POST /api/v4/projects/{id}/merge_requests/{iid}/notes (?per_page, ?page; X-Page,
 *   X-Next-Page (empty on the last page), X-Total, X-Total-Pages and Link headers), PUT .../notes/{id};
 *   `PRIVATE-TOKEN`; system notes in the list; 401 {"message":"401 Unauthorized"}, 403 {"message":"403 Forbidden"}.
 * host C: GET/POST /2.0/repositories/{ws}/{slug}/pullrequests/{id}/comments (?pagelen, ?page; the
 *   page's `next` URL), PUT .../comments/{id}; `Authorization: Bearer`; body {content: {raw}};
 *   deleted comments in the list; 401/403 {"type":"error","error":{"message":...}}.
 *
 * Pages hold at most `pageSize` comments (default 2) whatever the request asks, so a few comments
 * span several pages. A comment with `locked: true` answers 403 to an edit.
 *
 * The token belongs to someone (`me`), and who may edit whose comment is as each host documents:
 * GitHub: the token is the Actions run's GITHUB_TOKEN by default (an installation token of the
 *   `github-actions` app: its comments are by `github-actions[bot]`, type Bot); `me.app = false` makes
 *   it a personal access token. Write access edits anyone's comment. POST /graphql answers
 *   `{ viewer { login } }` with the token's login for both kinds; GET /user answers a personal token
 *   with its user and an installation token with 403 "Resource not accessible by integration".
 * GitLab: the token's user (a project access token's bot user by default) at GET /api/v4/user; notes
 *   carry `author: {id, username}`; the author edits their note, and so does a Maintainer or Owner
 *   (`me.maintainer`, true by default: GitLab's `admin_note`), anyone else gets 403.
 * Bitbucket: comments carry `user`; an edit of a comment is refused only when `locked`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type FakeHost = 'hosta' | 'hostb' | 'hostc';

export interface FakeComment {
  id: number;
  body: string;
  author: string;
  /** An edit answers 403 (a comment the token may not edit). */
  locked?: boolean;
  /** host B: a system note; host C: a deleted comment. */
  system?: boolean;
}

export interface SeenRequest {
  method: string;
  path: string;
  /** The credential header as received. */
  auth?: string;
  body?: unknown;
}

/** Whose the token is. */
export interface FakeIdentity {
  login: string;
  id: number;
  /** GitHub: an app's installation token (GITHUB_TOKEN), not a person's token. */
  app?: boolean;
  /** GitLab: Maintainer or Owner of the project, who may edit anyone's note. */
  maintainer?: boolean;
}

export interface FakeComments {
  host: FakeHost;
  me: FakeIdentity;
  url: string;
  comments: FakeComment[];
  requests: SeenRequest[];
  /** Every request answers this status. */
  status?: number;
  /** The "who am I" request (GitHub's GraphQL viewer, GitLab's GET /user) answers this status. */
  whoAmIStatus?: number;
  /** A next-page link pointing at this origin instead (a hostile or broken API). */
  nextOrigin?: string;
  pageSize: number;
  token: string;
  /** The CI variables that point svc at this fake for pull request 7. */
  env: Record<string, string>;
  /** Comments that start with svc's marker. */
  marked(): FakeComment[];
  close(): Promise<void>;
}

const ROUTES: Record<FakeHost, { list: RegExp; item: RegExp }> = {
  hosta: { list: /^\/repos\/o\/r\/issues\/7\/comments$/, item: /^\/repos\/o\/r\/issues\/comments\/(\d+)$/ },
  hostb: { list: /^\/api\/v4\/projects\/42\/merge_requests\/7\/notes$/, item: /^\/api\/v4\/projects\/42\/merge_requests\/7\/notes\/(\d+)$/ },
  hostc: { list: /^\/2\.0\/repositories\/ws\/slug\/pullrequests\/7\/comments$/, item: /^\/2\.0\/repositories\/ws\/slug\/pullrequests\/7\/comments\/(\d+)$/ },
};

/** A stable user id per login (the token's own id for its login). */
function userId(fake: FakeComments, login: string): number {
  if (login === fake.me.login) return fake.me.id;
  let h = 7;
  for (const ch of login) h = (h * 31 + ch.charCodeAt(0)) % 1_000_000;
  return 100 + h;
}

function view(fake: FakeComments, c: FakeComment): Record<string, unknown> {
  const id = userId(fake, c.author);
  if (fake.host === 'hosta') {
    const bot = c.author.endsWith('[bot]');
    return { id: c.id, body: c.body, user: { login: c.author, id, type: bot ? 'Bot' : 'User' }, performed_via_github_app: null, author_association: bot ? 'NONE' : 'MEMBER' };
  }
  if (fake.host === 'hostb') return { id: c.id, body: c.body, system: c.system === true, author: { id, username: c.author, name: c.author } };
  return { id: c.id, content: { raw: c.body, markup: 'markdown' }, deleted: c.system === true, user: { display_name: c.author, type: 'user' } };
}

/** The token's identity as each host's "who am I" answers it (see the top). */
function whoAmI(fake: FakeComments, method: string, path: string, body: unknown): { status: number; json: unknown } | undefined {
  const me = fake.me;
  if (fake.host === 'hosta' && method === 'POST' && path === '/graphql') {
    const query = (body as { query?: unknown } | undefined)?.query;
    if (typeof query !== 'string' || !/\bviewer\s*\{\s*login\s*\}/.test(query)) {
      return { status: 200, json: { errors: [{ message: 'the fake answers only { viewer { login } }' }] } };
    }
    return { status: 200, json: { data: { viewer: { login: me.login } } } };
  }
  if (fake.host === 'hosta' && method === 'GET' && path === '/user') {
    return me.app
      ? { status: 403, json: { message: 'Resource not accessible by integration', documentation_url: 'https://docs.github.com/rest/users/users#get-the-authenticated-user', status: '403' } }
      : { status: 200, json: { login: me.login, id: me.id, type: 'User' } };
  }
  if (fake.host === 'hostb' && method === 'GET' && path === '/api/v4/user') {
    return { status: 200, json: { id: me.id, username: me.login, name: me.login, bot: /_bot_/.test(me.login), state: 'active' } };
  }
  return undefined;
}

/** May the token edit this comment (see the top)? */
function mayEdit(fake: FakeComments, c: FakeComment): boolean {
  if (c.locked) return false;
  if (fake.host === 'hostb') return c.author === fake.me.login || fake.me.maintainer === true;
  return true;
}

function errorBody(host: FakeHost, status: number): unknown {
  if (host === 'hosta') return { message: status === 401 ? 'Bad credentials' : status === 403 ? 'Resource not accessible by integration' : 'Not Found' };
  if (host === 'hostb') return { message: `${status} ${status === 401 ? 'Unauthorized' : status === 403 ? 'Forbidden' : 'Not Found'}` };
  return { type: 'error', error: { message: status === 401 ? 'Access token expired.' : 'Forbidden' } };
}

function credential(host: FakeHost, req: IncomingMessage): string | undefined {
  if (host === 'hostb') return req.headers['private-token'] as string | undefined;
  const a = req.headers.authorization;
  return a?.startsWith('Bearer ') ? a.slice(7) : undefined;
}

export async function startFakeComments(host: FakeHost, o: { pageSize?: number } = {}): Promise<FakeComments> {
  let nextId = 1000;
  const me: FakeIdentity = host === 'hosta'
    ? { login: 'github-actions[bot]', id: 41898282, app: true }
    : host === 'hostb'
      ? { login: 'project_42_bot_5f1c2d', id: 9001, maintainer: true }
      : { login: 'svc-bot', id: 77 };
  const fake = {
    host, me, url: '', comments: [] as FakeComment[], requests: [] as SeenRequest[], pageSize: o.pageSize ?? 2,
    token: `${host}-token-very-secret-1234`, env: {} as Record<string, string>,
    status: undefined as number | undefined, nextOrigin: undefined as string | undefined,
  } as FakeComments;
  const send = (res: ServerResponse, status: number, json: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(json));
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', fake.url);
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try { body = raw === '' ? undefined : JSON.parse(raw); } catch { body = raw; }
      const auth = host === 'hostb' ? req.headers['private-token'] as string | undefined : req.headers.authorization;
      fake.requests.push({ method: req.method ?? '', path: url.pathname + url.search, auth, body });
      if (credential(host, req) !== fake.token) return send(res, 401, errorBody(host, 401));
      if (fake.status !== undefined) return send(res, fake.status, errorBody(host, fake.status));
      const who = whoAmI(fake, req.method ?? '', url.pathname, body);
      if (who && fake.whoAmIStatus !== undefined) return send(res, fake.whoAmIStatus, errorBody(host, fake.whoAmIStatus));
      if (who) return send(res, who.status, who.json);
      const route = ROUTES[host];
      const text = (b: unknown): string | undefined => {
        const v = host === 'hostc' ? (b as { content?: { raw?: unknown } })?.content?.raw : (b as { body?: unknown })?.body;
        return typeof v === 'string' ? v : undefined;
      };
      if (route.list.test(url.pathname) && req.method === 'GET') {
        const per = Math.min(Number(url.searchParams.get(host === 'hostc' ? 'pagelen' : 'per_page') ?? 30), fake.pageSize);
        const page = Math.max(1, Number(url.searchParams.get('page') ?? 1));
        const all = fake.comments;
        const pages = Math.max(1, Math.ceil(all.length / per));
        const slice = all.slice((page - 1) * per, page * per).map((c) => view(fake, c));
        const link = (p: number) => {
          const u = new URL(url.href);
          u.searchParams.set('page', String(p));
          return (fake.nextOrigin ? fake.nextOrigin : fake.url) + u.pathname + u.search;
        };
        const hasNext = page < pages;
        if (host === 'hosta') {
          const parts = [];
          if (hasNext) parts.push(`<${link(page + 1)}>; rel="next"`, `<${link(pages)}>; rel="last"`);
          if (page > 1) parts.push(`<${link(1)}>; rel="first"`, `<${link(page - 1)}>; rel="prev"`);
          return send(res, 200, slice, parts.length ? { link: parts.join(', ') } : {});
        }
        if (host === 'hostb') {
          const headers: Record<string, string> = {
            'x-page': String(page), 'x-per-page': String(per), 'x-total': String(all.length), 'x-total-pages': String(pages),
            'x-next-page': hasNext ? String(page + 1) : '', 'x-prev-page': page > 1 ? String(page - 1) : '',
          };
          if (hasNext) headers.link = `<${link(page + 1)}>; rel="next", <${link(1)}>; rel="first", <${link(pages)}>; rel="last"`;
          if (fake.nextOrigin && hasNext) delete headers['x-next-page'];
          return send(res, 200, slice, headers);
        }
        const out: Record<string, unknown> = { pagelen: per, size: all.length, page, values: slice };
        if (hasNext) out.next = link(page + 1);
        return send(res, 200, out);
      }
      if (route.list.test(url.pathname) && req.method === 'POST') {
        const t = text(body);
        if (t === undefined) return send(res, 400, errorBody(host, 400));
        const c: FakeComment = { id: nextId++, body: t, author: fake.me.login };
        fake.comments.push(c);
        return send(res, 201, view(fake, c));
      }
      const m = route.item.exec(url.pathname);
      const method = host === 'hosta' ? 'PATCH' : 'PUT';
      if (m && req.method === method) {
        const c = fake.comments.find((x) => x.id === Number(m[1]));
        if (!c || c.system) return send(res, 404, errorBody(host, 404));
        if (!mayEdit(fake, c)) return send(res, 403, errorBody(host, 403));
        const t = text(body);
        if (t === undefined) return send(res, 400, errorBody(host, 400));
        c.body = t;
        return send(res, 200, view(fake, c));
      }
      send(res, 404, errorBody(host, 404));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fake.url = `http://127.0.0.1:${port}`;
  fake.env = host === 'hosta'
    ? { GITHUB_ACTIONS: 'true', GITHUB_API_URL: fake.url, GITHUB_REPOSITORY: 'o/r', GITHUB_REF: 'refs/pull/7/merge', GITHUB_TOKEN: fake.token }
    : host === 'hostb'
      ? { GITLAB_CI: 'true', CI_API_V4_URL: `${fake.url}/api/v4`, CI_PROJECT_ID: '42', CI_MERGE_REQUEST_IID: '7', SVC_HOSTB_TOKEN: fake.token }
      : { BITBUCKET_BUILD_NUMBER: '12', BITBUCKET_REPO_FULL_NAME: 'ws/slug', BITBUCKET_PR_ID: '7', SVC_HOSTC_API_URL: `${fake.url}/2.0`, SVC_HOSTC_TOKEN: fake.token };
  fake.marked = () => fake.comments.filter((c) => /^(<!-- svc-gate-comment -->|\[\/\/\]: # \(svc-gate-comment\))\n/.test(c.body));
  fake.close = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); });
  return fake;
}
