/**
 * One sticky comment on a pull request: list the comments (every page), find the one that starts
 * with the marker, edit it; create one only when there is none. The three hosts' comment APIs:
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
 * The token goes only to the API root the CI names (pull-request.ts): a next-page link to another
 * origin ends the listing (and the comment is not posted, rather than posted twice). A comment that
 * holds the marker but cannot be edited (403/404: someone else's, who copied the marker) is passed
 * over for the next; none editable: a new one is created. Every failure is a `CommentError` with one
 * line that names no token; the caller turns it into a warning.
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

function provider(t: CommentTarget): Provider {
  const api = root(t.apiUrl);
  if (t.host === 'hosta') {
    const base = `${api}/repos/${t.repository.split('/').map(encodeURIComponent).join('/')}`;
    return {
      listUrl: `${base}/issues/${encodeURIComponent(t.number)}/comments?per_page=100`,
      readPage: (json, h) => ({
        comments: array(json, 'comments').flatMap((c) => {
          const o = c as { id?: unknown; body?: unknown };
          const id = idOf(o?.id);
          return id !== undefined && typeof o.body === 'string' ? [{ id, body: o.body }] : [];
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
            const o = c as { id?: unknown; body?: unknown; system?: unknown };
            const id = idOf(o?.id);
            return id !== undefined && typeof o.body === 'string' && o.system !== true ? [{ id, body: o.body }] : [];
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
  /** Marked comments passed over because they could not be edited. */
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
