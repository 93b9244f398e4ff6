/**
 * The pull request a CI job builds, from the variables each CI sets: the base `--diff auto` diffs
 * against, and where `--comment` posts. The one place that reads these variables (to be folded into
 * the providers' table, src/ci/providers.ts, when it lands).
 *
 * host A's runner (GITHUB_ACTIONS=true): base `origin/$GITHUB_BASE_REF`; comments on
 *   `$GITHUB_API_URL/repos/$GITHUB_REPOSITORY/issues/<n>/comments`, n from GITHUB_REF
 *   `refs/pull/<n>/merge` (or `/head`), else `pull_request.number` of the event file GITHUB_EVENT_PATH;
 *   token SVC_HOSTA_TOKEN, else GITHUB_TOKEN.
 * host B's CI (GITLAB_CI=true): base `$CI_MERGE_REQUEST_DIFF_BASE_SHA`; comments (notes) on
 *   `$CI_API_V4_URL/projects/$CI_PROJECT_ID/merge_requests/$CI_MERGE_REQUEST_IID/notes`; token SVC_HOSTB_TOKEN.
 * host C's pipelines (BITBUCKET_BUILD_NUMBER set): base `origin/$BITBUCKET_PR_DESTINATION_BRANCH`;
 *   comments on `<api>/repositories/$BITBUCKET_WORKSPACE/$BITBUCKET_REPO_SLUG/pullrequests/$BITBUCKET_PR_ID/comments`,
 *   <api> SVC_HOSTC_API_URL or the public https://api.bitbucket.org/2.0 (the pipeline names no API
 *   host); token SVC_HOSTC_TOKEN.
 */
import type { Env } from '../host.js';

export type PullRequestHost = 'hosta' | 'hostb' | 'hostc';

export interface CommentTarget {
  host: PullRequestHost;
  /** The API root the token is sent to (and only there). */
  apiUrl: string;
  /** Where the API root came from, for messages. */
  apiFrom: string;
  /** host A: owner/name; host B: the project id; host C: workspace/slug. */
  repository: string;
  number: string;
  token?: string;
  /** The variables a token is read from, for the message when none is set. */
  tokenVars: string;
}

interface PullRequestInfo {
  host: PullRequestHost;
  /** "host A's runner". */
  name: string;
  /** The git revision of the base (undefined: not a pull request build, or the variable is unset). */
  base?: string;
  /** The variable the base came from. */
  baseFrom: string;
  /** Where --comment posts; a reason when it cannot. */
  comments: CommentTarget | { missing: string };
}

/** Public API roots used when the CI names none. */
const HOSTC_API = 'https://api.bitbucket.org/2.0';
const HOSTA_API = 'https://api.github.com';

const set = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

function missing(env: Env, names: string[]): string | undefined {
  const gone = names.filter((n) => !set(env[n]));
  return gone.length === 0 ? undefined : gone.join(', ');
}

/** The pull request number of host A from GITHUB_REF, else from the event file (read by the caller). */
function hostaNumber(env: Env, event?: unknown): string | undefined {
  const m = /^refs\/pull\/(\d+)\/(?:merge|head)$/.exec(env.GITHUB_REF?.trim() ?? '');
  if (m) return m[1];
  if (event !== null && typeof event === 'object') {
    const pr = (event as { pull_request?: { number?: unknown } }).pull_request;
    const n = pr?.number;
    if ((typeof n === 'number' && Number.isInteger(n) && n > 0) || (typeof n === 'string' && /^\d+$/.test(n))) return String(n);
  }
  return undefined;
}

/** The file host A's runner writes the triggering event to. */
export function eventFile(env: Env): string | undefined {
  return env.GITHUB_ACTIONS === 'true' && set(env.GITHUB_EVENT_PATH) ? env.GITHUB_EVENT_PATH : undefined;
}

/** The pull request of the CI job, or undefined outside the three CIs. `event`: host A's event file, parsed. */
export function pullRequestOf(env: Env, event?: unknown): PullRequestInfo | undefined {
  if (env.GITHUB_ACTIONS === 'true') {
    const info: PullRequestInfo = { host: 'hosta', name: "host A's runner", baseFrom: 'GITHUB_BASE_REF', comments: { missing: '' } };
    if (set(env.GITHUB_BASE_REF)) info.base = `origin/${env.GITHUB_BASE_REF.trim()}`;
    const number = hostaNumber(env, event);
    const gone = missing(env, ['GITHUB_REPOSITORY']);
    if (number === undefined) info.comments = { missing: 'not a pull request build (GITHUB_REF is not refs/pull/<n>/merge and the event names no pull request)' };
    else if (gone) info.comments = { missing: `${gone} not set` };
    else {
      const token = set(env.SVC_HOSTA_TOKEN) ? env.SVC_HOSTA_TOKEN : set(env.GITHUB_TOKEN) ? env.GITHUB_TOKEN : undefined;
      info.comments = {
        host: 'hosta', apiUrl: set(env.GITHUB_API_URL) ? env.GITHUB_API_URL.trim() : HOSTA_API, apiFrom: set(env.GITHUB_API_URL) ? 'GITHUB_API_URL' : 'the public API',
        repository: env.GITHUB_REPOSITORY!.trim(), number, token: token?.trim(), tokenVars: 'SVC_HOSTA_TOKEN or GITHUB_TOKEN',
      };
    }
    return info;
  }
  if (env.GITLAB_CI === 'true') {
    const info: PullRequestInfo = { host: 'hostb', name: "host B's CI", baseFrom: 'CI_MERGE_REQUEST_DIFF_BASE_SHA', comments: { missing: '' } };
    if (set(env.CI_MERGE_REQUEST_DIFF_BASE_SHA)) info.base = env.CI_MERGE_REQUEST_DIFF_BASE_SHA.trim();
    const gone = missing(env, ['CI_API_V4_URL', 'CI_PROJECT_ID']);
    if (!set(env.CI_MERGE_REQUEST_IID)) info.comments = { missing: 'not a merge request pipeline (CI_MERGE_REQUEST_IID is not set)' };
    else if (gone) info.comments = { missing: `${gone} not set` };
    else {
      info.comments = {
        host: 'hostb', apiUrl: env.CI_API_V4_URL!.trim(), apiFrom: 'CI_API_V4_URL', repository: env.CI_PROJECT_ID!.trim(),
        number: env.CI_MERGE_REQUEST_IID.trim(), token: set(env.SVC_HOSTB_TOKEN) ? env.SVC_HOSTB_TOKEN.trim() : undefined, tokenVars: 'SVC_HOSTB_TOKEN',
      };
    }
    return info;
  }
  if (set(env.BITBUCKET_BUILD_NUMBER)) {
    const info: PullRequestInfo = { host: 'hostc', name: "host C's pipelines", baseFrom: 'BITBUCKET_PR_DESTINATION_BRANCH', comments: { missing: '' } };
    if (set(env.BITBUCKET_PR_DESTINATION_BRANCH)) info.base = `origin/${env.BITBUCKET_PR_DESTINATION_BRANCH.trim()}`;
    const gone = missing(env, ['BITBUCKET_WORKSPACE', 'BITBUCKET_REPO_SLUG']);
    if (!set(env.BITBUCKET_PR_ID)) info.comments = { missing: 'not a pull request pipeline (BITBUCKET_PR_ID is not set)' };
    else if (gone) info.comments = { missing: `${gone} not set` };
    else {
      info.comments = {
        host: 'hostc', apiUrl: set(env.SVC_HOSTC_API_URL) ? env.SVC_HOSTC_API_URL.trim() : HOSTC_API, apiFrom: set(env.SVC_HOSTC_API_URL) ? 'SVC_HOSTC_API_URL' : 'the public API',
        repository: `${env.BITBUCKET_WORKSPACE!.trim()}/${env.BITBUCKET_REPO_SLUG!.trim()}`, number: env.BITBUCKET_PR_ID.trim(),
        token: set(env.SVC_HOSTC_TOKEN) ? env.SVC_HOSTC_TOKEN.trim() : undefined, tokenVars: 'SVC_HOSTC_TOKEN',
      };
    }
    return info;
  }
  return undefined;
}
