/**
 * The pull request a CI job builds, in neutral words from the CI's fields (detect.ts, whose variable
 * names are the providers' table, providers.ts): the base `svc gate --diff auto` diffs against, and
 * where `svc gate --comment` posts.
 *
 * Base: host B's base commit of the merge request (`baseSha`); elsewhere `origin/<baseRef>` (the
 * target branch, `refs/heads/` dropped). Comments:
 * - host A: `<apiUrl>/repos/<repositoryPath>/issues/<n>/comments`, n from a `refs/pull/<n>/merge`
 *   (or `/head`) ref, else `pull_request.number` of the event file; token SVC_HOSTA_TOKEN, else the
 *   runner's token.
 * - host B: `<apiUrl>/projects/<projectId>/merge_requests/<pullRequest>/notes`; token SVC_HOSTB_TOKEN
 *   (the job's own token may not write notes).
 * - host C: `<api>/repositories/<repositoryPath>/pullrequests/<pullRequest>/comments`, <api>
 *   SVC_HOSTC_API_URL or the table's public API; token SVC_HOSTC_TOKEN, else the CI's.
 */
import type { Env } from '../core/host.js';
import { missingText, type CiInfo } from './detect.js';

export type PullRequestHost = 'hosta' | 'hostb' | 'hostc';

export interface CommentTarget {
  host: PullRequestHost;
  /** The API root the token is sent to (and only there). */
  apiUrl: string;
  /** Where the API root came from, for messages. */
  apiFrom: string;
  /** host A and C: owner/name; host B: the project id. */
  repository: string;
  number: string;
  token?: string;
  /** The variables a token is read from, for the message when none is set. */
  tokenVars: string;
}

interface PullRequestInfo {
  /** For messages: "host A's runner". */
  name: string;
  /** The git revision of the base (undefined: not a pull request build). */
  base?: string;
  /** Why there is no base, naming the CI's variables. */
  noBase: string;
  /** Where --comment posts, or why it cannot. */
  comments: CommentTarget | { missing: string };
}

const set = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/** The pull request number from a `refs/pull/<n>/merge` ref, else from the event's `pull_request.number`. */
function numberFrom(ref: string | undefined, event: unknown): string | undefined {
  const m = /^refs\/pull\/(\d+)\/(?:merge|head)$/.exec(ref?.trim() ?? '');
  if (m) return m[1];
  if (event !== null && typeof event === 'object') {
    const n = (event as { pull_request?: { number?: unknown } }).pull_request?.number;
    if ((typeof n === 'number' && Number.isInteger(n) && n > 0) || (typeof n === 'string' && /^\d+$/.test(n))) return String(n);
  }
  return undefined;
}

/** The event file to read for host A's pull request number, when the ref does not hold it. */
export function eventFileOf(ci: CiInfo | undefined): string | undefined {
  return ci?.kind === 'hosta' && !numberFrom(ci.ref, undefined) && set(ci.eventPath) ? ci.eventPath : undefined;
}

function tokenText(ci: CiInfo, own: string, withCi: boolean): string {
  const names = withCi ? ci.variables.token ?? [] : [];
  return [own, ...names].join(' or ');
}

function comments(ci: CiInfo, env: Env, event: unknown): CommentTarget | { missing: string } {
  const not = (field: 'pullRequest' | 'ref' | 'apiUrl' | 'repositoryPath' | 'projectId') => ({ missing: missingText(ci, field, env) });
  if (ci.kind === 'hosta') {
    const number = numberFrom(ci.ref, event);
    if (number === undefined) return { missing: `not a pull request build (the ref is not refs/pull/<n>/merge and the event names no pull request)` };
    if (!set(ci.apiUrl)) return not('apiUrl');
    if (!set(ci.repositoryPath)) return not('repositoryPath');
    const token = set(env.SVC_HOSTA_TOKEN) ? env.SVC_HOSTA_TOKEN.trim() : ci.token;
    return { host: 'hosta', apiUrl: ci.apiUrl, apiFrom: (ci.variables.apiUrl ?? []).join(', '), repository: ci.repositoryPath, number, token, tokenVars: tokenText(ci, 'SVC_HOSTA_TOKEN', true) };
  }
  if (ci.kind === 'hostb') {
    if (!set(ci.pullRequest)) return { missing: `not a merge request pipeline (${missingText(ci, 'pullRequest', env)})` };
    if (!set(ci.apiUrl)) return not('apiUrl');
    if (!set(ci.projectId)) return not('projectId');
    const token = set(env.SVC_HOSTB_TOKEN) ? env.SVC_HOSTB_TOKEN.trim() : undefined;
    return { host: 'hostb', apiUrl: ci.apiUrl, apiFrom: (ci.variables.apiUrl ?? []).join(', '), repository: ci.projectId, number: ci.pullRequest, token, tokenVars: 'SVC_HOSTB_TOKEN' };
  }
  if (ci.kind === 'hostc') {
    if (!set(ci.pullRequest)) return { missing: `not a pull request pipeline (${missingText(ci, 'pullRequest', env)})` };
    if (!set(ci.repositoryPath)) return not('repositoryPath');
    const own = set(env.SVC_HOSTC_API_URL);
    const apiUrl = own ? env.SVC_HOSTC_API_URL!.trim() : ci.apiUrl;
    if (!set(apiUrl)) return not('apiUrl');
    const token = set(env.SVC_HOSTC_TOKEN) ? env.SVC_HOSTC_TOKEN.trim() : ci.token;
    return { host: 'hostc', apiUrl, apiFrom: own ? 'SVC_HOSTC_API_URL' : 'its public API', repository: ci.repositoryPath, number: ci.pullRequest, token, tokenVars: tokenText(ci, 'SVC_HOSTC_TOKEN', true) };
  }
  return { missing: `svc posts comments on host A, B and C pull requests, not on ${ci.name}'s` };
}

/** The pull request of the CI job, or undefined outside CI. `event`: host A's event file, parsed. */
export function pullRequestOf(ci: CiInfo | undefined, env: Env, event?: unknown): PullRequestInfo | undefined {
  if (!ci) return undefined;
  const info: PullRequestInfo = { name: ci.name, noBase: '', comments: comments(ci, env, event) };
  if (ci.kind === 'hostb') {
    if (set(ci.baseSha)) info.base = ci.baseSha.trim();
    else info.noBase = missingText(ci, 'baseSha', env);
  } else if (set(ci.baseRef)) {
    info.base = `origin/${ci.baseRef.trim().replace(/^refs\/heads\//, '')}`;
  } else {
    info.noBase = missingText(ci, 'baseRef', env);
  }
  return info;
}
