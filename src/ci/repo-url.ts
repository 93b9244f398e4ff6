/**
 * Repository URLs compared as people write them: `https://Host/Team/Api.git/`, `git@host:team/api.git`
 * and `ssh://git@host/team/api` name the same repository. Reusable by anything that looks a repository
 * up by URL (the gate's --repository, src/repos/find.ts, ...).
 */
import { PUBLIC_HOSTS, type Vcs } from './providers.js';
import { editDistance } from '../core/edit-distance.js';

/**
 * A repository URL as a web URL: `https://host/path` with the host lower case, no credentials, an
 * http(s) port kept, no `.git` and no trailing `/`. Accepts the scp form (`git@host:owner/name.git`)
 * and `ssh://`/`git://` URLs. A public provider host is always https. undefined when it is no URL.
 */
export function webUrl(url: string): string | undefined {
  let u = url.trim();
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(u)) {
    const scp = /^(?:[^@/\s]+@)?([^:/\s]+):(?!\d+(?:\/|$))([^\s]+)$/.exec(u);
    if (!scp) return undefined;
    u = `ssh://${scp[1]}/${scp[2]}`;
  }
  let parsed: URL;
  try {
    parsed = new URL(u);
  } catch {
    return undefined;
  }
  if (!/^(https?|ssh|git|git\+ssh|ssh\+git):$/.test(parsed.protocol) || parsed.hostname === '') return undefined;
  const host = parsed.hostname.toLowerCase();
  const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  const scheme = parsed.protocol === 'http:' && !isPublicHost(host) ? 'http' : 'https';
  const port = web && parsed.port ? `:${parsed.port}` : '';
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\.git$/i, '').replace(/\/+$/, '').replace(/^\/+/, '');
  return `${scheme}://${host}${port}${path === '' ? '' : `/${path}`}`;
}

function isPublicHost(host: string): boolean {
  return host.replace(/^www\./, '') in PUBLIC_HOSTS;
}

/** The neutral provider of a URL on a public host (the host A site is hosta), else undefined. */
export function publicHostVcs(url: string): Exclude<Vcs, 'generic'> | undefined {
  const web = webUrl(url);
  if (web === undefined) return undefined;
  return PUBLIC_HOSTS[new URL(web).hostname.replace(/^www\./, '')];
}

/** What two URLs of one repository have in common: `host[:port]/path`, no scheme, `www.`, `.git` or trailing `/`. */
function repoUrlKey(url: string): string | undefined {
  const web = webUrl(url);
  return web === undefined ? undefined : web.replace(/^https?:\/\//, '').replace(/^www\./, '');
}

interface UrlCandidate {
  /** Every URL the candidate is known by (a repository's `url` and `repositoryUrl`). */
  urls: readonly string[];
}

/**
 * The candidates whose URL names the same repository as `url`: exact after normalising scheme, host
 * case, `.git` and trailing slashes; when none is, the same ignoring the path's case (providers
 * treat owner/name case-insensitively).
 */
export function matchByUrl<T extends UrlCandidate>(url: string, candidates: readonly T[]): T[] {
  const key = repoUrlKey(url);
  if (key === undefined) return [];
  const keys = (c: T) => c.urls.map(repoUrlKey).filter((k): k is string => k !== undefined);
  const exact = candidates.filter((c) => keys(c).includes(key));
  if (exact.length > 0) return exact;
  const lower = key.toLowerCase();
  return candidates.filter((c) => keys(c).some((k) => k.toLowerCase() === lower));
}

/** Host (lower case, no port) and path segments (lower case) of a URL; undefined when it is no URL. */
function hostAndPath(url: string): { host: string; path: string[] } | undefined {
  const web = webUrl(url);
  if (web === undefined) return undefined;
  const parsed = new URL(web);
  return { host: parsed.hostname.replace(/^www\./, ''), path: parsed.pathname.split('/').filter(Boolean).map((p) => p.toLowerCase()) };
}

/**
 * Whether a repository known by `urls` may be the one at `url` where a plain comparison (matchByUrl)
 * cannot tell: an SSH URL (`git@host:group/proj.git`, `ssh://`, `git://`) carries neither the web
 * port nor, on a server under a relative root (`https://host/scm/group/proj`), always the root.
 * So an SSH URL of the same host (the port ignored) whose path is the web path, or ends it at a
 * segment boundary (or the other way round), case ignored, is no disagreement. Web URLs are
 * compared only as matchByUrl compares them.
 */
export function mayNameSameRepository(url: string, urls: readonly string[]): boolean {
  if (matchByUrl(url, [{ urls }]).length > 0) return true;
  const given = hostAndPath(url);
  if (given === undefined) return false;
  const endsWith = (a: string[], b: string[]) => b.length > 0 && b.length <= a.length && b.every((seg, i) => a[a.length - b.length + i] === seg);
  return urls.some((u) => {
    if (/^https?:\/\//i.test(u.trim())) return false;
    const other = hostAndPath(u);
    return other !== undefined && other.host === given.host && (endsWith(given.path, other.path) || endsWith(other.path, given.path));
  });
}

/** The `n` candidates whose URL is closest to `url` (for "did you mean"), nearest first. */
export function closestByUrl<T extends UrlCandidate>(url: string, candidates: readonly T[], n = 3): T[] {
  const key = (repoUrlKey(url) ?? url).toLowerCase();
  const scored = candidates.map((c) => ({
    c, d: Math.min(...c.urls.map((u) => editDistance(key, (repoUrlKey(u) ?? u).toLowerCase())), Number.MAX_SAFE_INTEGER),
  }));
  return scored.sort((a, b) => a.d - b.d).slice(0, n).map((s) => s.c);
}
