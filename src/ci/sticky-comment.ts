/**
 * One sticky comment on a pull request: learn whose token this is, list the comments (every page),
 * find the one that starts with the marker and was written by that same identity, edit it; create
 * one only when there is none. The three hosts' comment APIs:
 *
 * host A:  GET/POST {api}/repos/{owner}/{name}/issues/{n}/comments?per_page=100 (next page: the
 *          `Link: <...>; rel="next"` header), PATCH {api}/repos/{owner}/{name}/issues/comments/{id};
 *          body {body}; `Authorization: Bearer <token>`.
 * host B:  GET/POST {api}/projects/{id}/merge_requests/{iid}/notes?per_page=100&sort=asc (next page:
 *          the `X-Next-Page` header, else `Link`), PUT .../notes/{note_id}; body {body};
 *          `PRIVATE-TOKEN: <token>`. System notes are skipped.
 * host C:  GET/POST {api}/repositories/{workspace}/{slug}/pullrequests/{id}/comments?pagelen=100
 *          (next page: the `next` URL of the page), PUT .../comments/{comment_id};
 *          body {content: {raw}}; `Authorization: Bearer <token>`. Deleted comments are skipped.
 *
 * Only svc's own comment is edited. A marker proves nothing (anyone can type it), and a token that
 * may write may edit other people's comments: on host A anyone with write access to the repository,
 * on host B a Maintainer or Owner (`admin_note`). So the token's identity is asked first and a marked
 * comment by anyone else is passed over:
 * - host A: the GraphQL `viewer { login }` ({api}/graphql; {host}/api/graphql for an {host}/api/v3
 *   API root, its self-hosted server's), which answers for a personal access token (the user) and for
 *   an app's installation token alike: the token the host's CI gives a job is the installation token
 *   of the CI's app, `<app-slug>[bot]`. REST `GET /user` does not do: it is 403 "Resource not
 *   accessible by integration" for installation tokens. Compared with the REST comment's
 *   `user.login`, ignoring case (host A's logins are). Inferred, not stated by host A's reference:
 *   that `viewer.login` of an installation token is the same `<app-slug>[bot]` as the `user.login` of
 *   the comments it writes (public clients rely on it: marocchino/sticky-pull-request-comment
 *   compares the two).
 * - host B: `GET {api}/user` (the token's user; a project or group access token's bot user), its
 *   `id` compared with the note's `author.id`. The CI's job token cannot write notes, so it is never
 *   used here.
 * - host C: none. Its access tokens cannot call `GET /2.0/user` ("Token is invalid or not supported
 *   for this endpoint", its tracker's BCLOUD-23528); an edit host C refuses is passed over below.
 * A failed identity lookup posts nothing (svc cannot tell which comment is its own).
 *
 * The token goes only to the API root the CI names (pull-request.ts): a next-page link to another
 * origin ends the listing (and the comment is not posted, rather than posted twice). A comment that
 * holds the marker but cannot be edited (403/404) is passed over for the next; none editable: a new
 * one is created. Every failure is a `CommentError` with one line that names no token; the caller
 * turns it into a warning.
 */
import { Agent, envHttpProxyAgent, request, type Dispatcher } from '../http/undici.js';
import { proxyFor, proxySettings } from '../http/proxy.js';
import type { Env } from '../core/host.js';
import type { CommentTarget, PullRequestHost } from './pull-request.js';

export class CommentError extends Error {
  override readonly name = 'CommentError';
}

/** The hidden first line that marks svc's comment (host C's markdown shows HTML, so a link definition there). */
const MARKERS: Record<PullRequestHost, string> = {
  hosta: '<!-- svc-gate-comment -->',
  hostb: '<!-- svc-gate-comment -->',
  hostc: '[//]: # (svc-gate-comment)',
};

/** Most pages of comments read (100 a page). */
const MAX_PAGES = 100;
const TIMEOUT_MS = 30_000;

interface Found {
  id: string;
  body: string;
  /** Who wrote it, as `identity.read` gives the token's own (host A: the login in lower case; host B: the user id). */
  author?: string;
}

interface Page {
  comments: Found[];
  next?: string;
}

interface Provider {
  listUrl: string;
  readPage(json: unknown, headers: Record<string, string | string[] | undefined>, url: string): Page;
  createBody(text: string): unknown;
  updateUrl(id: string): string;
  updateMethod: 'PATCH' | 'PUT';
  auth(token: string): Record<string, string>;
  /** How to ask whose token this is (none on host C: see above). */
  identity?: { method: 'GET' | 'POST'; url: string; payload?: unknown; what: string; read(json: unknown): string | undefined };
}

function header(h: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** The `rel="next"` URL of a Link header. */
function nextLink(link: string | undefined): string | undefined {
  if (!link) return undefined;
  for (const part of link.split(',')) {
    const m = /<([^>]*)>\s*;(.*)$/.exec(part.trim());
    if (m && /\brel\s*=\s*"?([^"]*\s)?next(\s[^"]*)?"?/.test(m[2])) return m[1];
  }
  return undefined;
}

function root(url: string): string {
  return url.replace(/\/+$/, '');
}

function array(json: unknown, what: string): unknown[] {
  if (!Array.isArray(json)) throw new CommentError(`the ${what} answer is not a list`);
  return json;
}

function idOf(value: unknown): string | undefined {
  return typeof value === 'number' || (typeof value === 'string' && value !== '') ? String(value) : undefined;
}

/** Host A's GraphQL endpoint beside its REST root: {host}/api/graphql for its self-hosted server's {host}/api/v3. */
export function graphqlUrl(api: string): string {
  return /\/api\/v3$/i.test(api) ? api.replace(/\/v3$/i, '/graphql') : `${api}/graphql`;
}

function provider(t: CommentTarget): Provider {
  const api = root(t.apiUrl);
  if (t.host === 'hosta') {
    const base = `${api}/repos/${t.repository.split('/').map(encodeURIComponent).join('/')}`;
    const login = (v: unknown) => (typeof v === 'string' && v !== '' ? v.toLowerCase() : undefined);
    return {
      listUrl: `${base}/issues/${encodeURIComponent(t.number)}/comments?per_page=100`,
      identity: {
        method: 'POST', url: graphqlUrl(api), payload: { query: 'query { viewer { login } }' }, what: "asking whose token this is (GraphQL viewer)",
        read: (json) => login((json as { data?: { viewer?: { login?: unknown } } } | null)?.data?.viewer?.login),
      },
      readPage: (json, h) => ({
        comments: array(json, 'comments').flatMap((c) => {
          const o = c as { id?: unknown; body?: unknown; user?: { login?: unknown } | null };
          const id = idOf(o?.id);
          return id !== undefined && typeof o.body === 'string' ? [{ id, body: o.body, author: login(o.user?.login) }] : [];
        }),
        next: nextLink(header(h, 'link')),
      }),
      createBody: (body) => ({ body }),
      updateUrl: (id) => `${base}/issues/comments/${encodeURIComponent(id)}`,
      updateMethod: 'PATCH',
      auth: (token) => ({ authorization: `Bearer ${token}` }),
    };
  }
  if (t.host === 'hostb') {
    const base = `${api}/projects/${encodeURIComponent(t.repository)}/merge_requests/${encodeURIComponent(t.number)}/notes`;
    return {
      listUrl: `${base}?per_page=100&sort=asc&order_by=created_at`,
      identity: {
        method: 'GET', url: `${api}/user`, what: 'asking whose token this is (GET /user)',
        read: (json) => idOf((json as { id?: unknown } | null)?.id),
      },
      readPage: (json, h, url) => {
        const nextPage = header(h, 'x-next-page')?.trim();
        let next = nextLink(header(h, 'link'));
        if (nextPage) {
          const u = new URL(url);
          u.searchParams.set('page', nextPage);
          next = u.href;
        }
        return {
          comments: array(json, 'notes').flatMap((c) => {
            const o = c as { id?: unknown; body?: unknown; system?: unknown; author?: { id?: unknown } | null };
            const id = idOf(o?.id);
            return id !== undefined && typeof o.body === 'string' && o.system !== true ? [{ id, body: o.body, author: idOf(o.author?.id) }] : [];
          }),
          next,
        };
      },
      createBody: (body) => ({ body }),
      updateUrl: (id) => `${base}/${encodeURIComponent(id)}`,
      updateMethod: 'PUT',
      auth: (token) => ({ 'private-token': token }),
    };
  }
  const base = `${api}/repositories/${t.repository.split('/').map(encodeURIComponent).join('/')}/pullrequests/${encodeURIComponent(t.number)}/comments`;
  return {
    listUrl: `${base}?pagelen=100`,
    readPage: (json) => {
      if (json === null || typeof json !== 'object' || !Array.isArray((json as { values?: unknown }).values)) throw new CommentError('the comments answer has no values list');
      const page = json as { values: unknown[]; next?: unknown };
      return {
        comments: page.values.flatMap((c) => {
          const o = c as { id?: unknown; content?: { raw?: unknown }; deleted?: unknown };
          const id = idOf(o?.id);
          const raw = o?.content?.raw;
          return id !== undefined && typeof raw === 'string' && o.deleted !== true ? [{ id, body: raw }] : [];
        }),
        next: typeof page.next === 'string' && page.next !== '' ? page.next : undefined,
      };
    },
    createBody: (raw) => ({ content: { raw } }),
    updateUrl: (id) => `${base}/${encodeURIComponent(id)}`,
    updateMethod: 'PUT',
    auth: (token) => ({ authorization: `Bearer ${token}` }),
  };
}

/** Does the comment start with the marker (its first line)? A quote or a mention further down is not it. */
function isMarked(body: string, marker: string): boolean {
  return body.replace(/^\uFEFF/, '').trimStart().split(/\r?\n/, 1)[0].trim() === marker;
}

interface StickyResult {
  action: 'created' | 'updated';
  id?: string;
  /** Marked comments passed over: written by someone else, or not editable. */
  skipped: number;
}

class HttpFailure extends CommentError {
  constructor(readonly status: number, what: string) {
    super(`${what} answered ${status}${status === 401 ? ' (the token was refused)' : status === 403 ? ' (the token may not do this)' : status === 404 ? ' (not found, or the token cannot see it)' : ''}`);
  }
}

/** Posts or edits svc's one comment on the pull request. Throws CommentError. */
export async function postStickyComment(t: CommentTarget, text: string, o: { env: Env; userAgent: string; signal?: AbortSignal }): Promise<StickyResult> {
  if (!t.token) throw new CommentError(`no token: set ${t.tokenVars}`);
  const token = t.token;
  let api: URL;
  try {
    api = new URL(root(t.apiUrl));
  } catch {
    throw new CommentError(`the API URL of ${t.apiFrom} is not a URL`);
  }
  if (api.protocol !== 'https:' && !(api.protocol === 'http:' && ['127.0.0.1', '[::1]', 'localhost'].includes(api.hostname))) {
    throw new CommentError(`the API URL of ${t.apiFrom} is not https: the token is not sent in clear text`);
  }
  const p = provider(t);
  const marker = MARKERS[t.host];
  const body = `${marker}\n${text}`;
  const proxies = proxySettings(o.env);
  const dispatcher: Dispatcher = proxyFor(api, proxies)
    ? envHttpProxyAgent({ headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS })
    : new Agent({ headersTimeout: TIMEOUT_MS, bodyTimeout: TIMEOUT_MS, connect: { timeout: TIMEOUT_MS } });
  const headers = { ...p.auth(token), accept: 'application/json', 'content-type': 'application/json', 'user-agent': o.userAgent };
  const call = async (method: string, url: string, what: string, payload?: unknown): Promise<{ json: unknown; headers: Record<string, string | string[] | undefined> }> => {
    // The token is for the CI's own API root only.
    if (new URL(url).origin !== api.origin) throw new CommentError(`${what}: the API pointed to another host (${new URL(url).host}); the token is not sent there`);
    let res: Dispatcher.ResponseData;
    try {
      res = await request(dispatcher, url, { method: method as Dispatcher.HttpMethod, headers, body: payload === undefined ? undefined : JSON.stringify(payload), signal: o.signal });
    } catch (err) {
      throw new CommentError(`${what}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    const raw = await res.body.text().catch(() => '');
    if (res.statusCode < 200 || res.statusCode > 299) throw new HttpFailure(res.statusCode, what);
    let json: unknown = null;
    if (raw.trim() !== '') {
      try { json = JSON.parse(raw); } catch { throw new CommentError(`${what}: the answer is not JSON`); }
    }
    return { json, headers: res.headers };
  };
  try {
    // Whose token this is: only that identity's marked comment is svc's.
    let me: string | undefined;
    if (p.identity) {
      const who = await call(p.identity.method, p.identity.url, p.identity.what, p.identity.payload);
      me = p.identity.read(who.json);
      if (me === undefined) throw new CommentError(`${p.identity.what}: the answer names no one, so svc cannot tell its own comment from others'`);
    }
    const marked: Found[] = [];
    let url: string | undefined = p.listUrl;
    for (let page = 1; url !== undefined; page++) {
      if (page > MAX_PAGES) throw new CommentError(`listing comments: more than ${MAX_PAGES} pages`);
      const r = await call('GET', url, 'listing comments');
      const read = p.readPage(r.json, r.headers, url);
      marked.push(...read.comments.filter((c) => isMarked(c.body, marker)));
      url = read.next;
    }
    let skipped = 0;
    for (const c of marked) {
      if (me !== undefined && c.author !== me) { skipped++; continue; }
      try {
        await call(p.updateMethod, p.updateUrl(c.id), `editing comment ${c.id}`, p.createBody(body));
        return { action: 'updated', id: c.id, skipped };
      } catch (err) {
        if (err instanceof HttpFailure && (err.status === 403 || err.status === 404)) { skipped++; continue; }
        throw err;
      }
    }
    const created = await call('POST', p.listUrl.replace(/\?.*$/, ''), 'creating the comment', p.createBody(body));
    const id = created.json !== null && typeof created.json === 'object' ? idOf((created.json as { id?: unknown }).id) : undefined;
    return { action: 'created', id, skipped };
  } finally {
    await dispatcher.close().catch(() => { /* nothing to keep */ });
  }
}
