/**
 * The pull request a CI job builds, in neutral words from the CI's fields (detect.ts, whose variable
 * names are the providers' table, providers.ts): the base `svc gate --diff auto` diffs against, and
 * where `svc gate --comment` posts.
 *
 * Base: host B's base commit of the merge request (`baseSha`); elsewhere `origin/<baseRef>` (the
 * target branch, `refs/heads/` dropped). Comments:
 * - host A: `<apiUrl>/repos/<repositoryPath>/issues/<n>/comments`, n from a `refs/pull/<n>/merge`
 *   (or `/head`) ref, else `pull_request.number` of the event file; token svc's variable for it
 *   (PROVIDERS in the table), else the runner's token.
 * - host B: `<apiUrl>/projects/<projectId>/merge_requests/<pullRequest>/notes`; token svc's variable
 *   (the job's own token may not write notes).
 * - host C: `<api>/repositories/<repositoryPath>/pullrequests/<pullRequest>/comments`, <api> svc's
 *   variable for it or the table's public API; token svc's variable, else the CI's.
 * Each variable's earlier spelling is read too, for one release.
 */
import type { Env } from '../core/host.js';
import { missingText, type CiInfo } from './detect.js';
import { HOSTC_API_VARIABLE, PROVIDERS } from './providers.js';

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
  /** For messages, in the provider's own words: "<provider> merge request group/project!5" (the providers table). */
  label: string;
  /** The old spelling of a variable this target was read from (said once, to be renamed). */
  renamed?: string;
  token?: string;
  /** The variables a token is read from, for the message when none is set. */
  tokenVars: string;
}

interface PullRequestInfo {
  /** For messages: the CI's name (the providers table), and its provider's word for a change under review. */
  name: string;
  change: string;
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

/** A variable of svc's by its name, else by its earlier spelling (then `renamed` says so). */
function own(env: Env, name: string, old: string): { value?: string; renamed?: string } {
  if (set(env[name])) return { value: env[name]!.trim() };
  if (set(env[old])) return { value: env[old]!.trim(), renamed: `${old} is now ${name} (the old name is read until the next release)` };
  return {};
}

function comments(ci: CiInfo, env: Env, event: unknown): CommentTarget | { missing: string } {
  const not = (field: 'pullRequest' | 'ref' | 'apiUrl' | 'repositoryPath' | 'projectId') => ({ missing: missingText(ci, field, env) });
  if (ci.kind === 'hosta') {
    const words = PROVIDERS.hosta;
    const number = numberFrom(ci.ref, event);
    if (number === undefined) return { missing: `not a ${words.change} build (the ref is not refs/pull/<n>/merge and the event names no ${words.change})` };
    if (!set(ci.apiUrl)) return not('apiUrl');
    if (!set(ci.repositoryPath)) return not('repositoryPath');
    const token = own(env, words.tokenVariable, words.oldTokenVariable);
    return {
      host: 'hosta', apiUrl: ci.apiUrl, apiFrom: (ci.variables.apiUrl ?? []).join(', '), repository: ci.repositoryPath, number, token: token.value ?? ci.token,
      tokenVars: tokenText(ci, words.tokenVariable, true), label: `${words.name} ${words.change} ${words.reference(ci.repositoryPath, number)}`, renamed: token.renamed,
    };
  }
  if (ci.kind === 'hostb') {
    const words = PROVIDERS.hostb;
    if (!set(ci.pullRequest)) return { missing: `not a ${words.change} pipeline (${missingText(ci, 'pullRequest', env)})` };
    if (!set(ci.apiUrl)) return not('apiUrl');
    if (!set(ci.projectId)) return not('projectId');
    const token = own(env, words.tokenVariable, words.oldTokenVariable);
    const path = set(ci.repositoryPath) ? ci.repositoryPath : `project ${ci.projectId}`;
    return {
      host: 'hostb', apiUrl: ci.apiUrl, apiFrom: (ci.variables.apiUrl ?? []).join(', '), repository: ci.projectId, number: ci.pullRequest, token: token.value,
      tokenVars: words.tokenVariable, label: `${words.name} ${words.change} ${words.reference(path, ci.pullRequest)}`, renamed: token.renamed,
    };
  }
  if (ci.kind === 'hostc') {
    const words = PROVIDERS.hostc;
    if (!set(ci.pullRequest)) return { missing: `not a ${words.change} pipeline (${missingText(ci, 'pullRequest', env)})` };
    if (!set(ci.repositoryPath)) return not('repositoryPath');
    const api = own(env, HOSTC_API_VARIABLE.name, HOSTC_API_VARIABLE.old);
    const apiUrl = api.value ?? ci.apiUrl;
    if (!set(apiUrl)) return not('apiUrl');
    const token = own(env, words.tokenVariable, words.oldTokenVariable);
    return {
      host: 'hostc', apiUrl, apiFrom: api.value !== undefined ? HOSTC_API_VARIABLE.name : 'its public API', repository: ci.repositoryPath, number: ci.pullRequest, token: token.value ?? ci.token,
      tokenVars: tokenText(ci, words.tokenVariable, true), label: `${words.name} ${words.change} ${words.reference(ci.repositoryPath, ci.pullRequest)}`,
      renamed: [api.renamed, token.renamed].filter(Boolean).join('; ') || undefined,
    };
  }
  const names = Object.values(PROVIDERS).map((p) => p.name);
  return { missing: `svc posts comments on ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} pull and merge requests, not on ${ci.name}'s` };
}

/** The pull request of the CI job, or undefined outside CI. `event`: host A's event file, parsed. */
export function pullRequestOf(ci: CiInfo | undefined, env: Env, event?: unknown): PullRequestInfo | undefined {
  if (!ci) return undefined;
  const change = ci.kind === 'generic' ? 'pull request' : PROVIDERS[ci.kind].change;
  const info: PullRequestInfo = { name: ci.name, change, noBase: '', comments: comments(ci, env, event) };
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
