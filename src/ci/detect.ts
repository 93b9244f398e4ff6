/**
 * Which CI svc runs in, from the variables CI systems set (a small table instead of a dependency).
 * Provider-specific names are read in their neutral form, as the spec writes identifiers: host A's
 * runner sets HOSTA_ACTIONS=true, host B's HOSTB_CI=true, host C's pipelines HOSTC_BUILD_NUMBER.
 * Names that carry no brand (CI, CI_PROJECT_URL, CI_COMMIT_SHA) are read as they are.
 *
 * Off when `--no-ci` is given, SVC_NO_CI is set (not "0"), or CI is "false"/"0" ("CI=false is not CI").
 * The table feeds `svc help environment` too, so what is read and what is documented cannot drift.
 */
import type { Env } from '../host.js';

type CiKind = 'hosta' | 'hostb' | 'hostc' | 'generic';

export interface CiInfo {
  kind: CiKind;
  /** For messages: "host A's runner". */
  name: string;
  /** File the job summary is appended to (host A's runner). */
  stepSummary?: string;
  /** Web URL of the repository being built. */
  repositoryUrl?: string;
  /** `vcs` value of `repos resolve-by-url` for that URL. */
  vcs?: 'hosta' | 'hostb' | 'hostc' | 'generic';
  /** The commit being built. */
  commit?: string;
  /** Output grouping: host A's `::group::`, host B's collapsible sections, or none. */
  groups: 'hosta' | 'hostb' | 'none';
  /** Annotations (`::error file=...::`) are printed without --annotations. */
  annotations: boolean;
}

interface EnvVarDoc {
  name: string;
  ci: string;
  use: string;
}

/** Every variable svc reads to know its CI, with what it does: the source of `svc help environment`. */
export const CI_VARIABLES: readonly EnvVarDoc[] = [
  { name: 'CI', ci: 'any', use: 'set (not "false" or "0"): a CI job: plain progress lines instead of a spinner; CI=false turns every CI behaviour off' },
  { name: 'CONTINUOUS_INTEGRATION, BUILD_NUMBER', ci: 'any', use: 'also mark a CI job' },
  { name: 'SVC_NO_CI', ci: 'any', use: 'set (not "0"): ignore the CI, as --no-ci' },
  { name: 'HOSTA_ACTIONS', ci: "host A's runner", use: '"true": append the gate summary to the step summary, print annotations, group long output (::group::)' },
  { name: 'HOSTA_STEP_SUMMARY', ci: "host A's runner", use: 'file the gate appends its markdown summary to (earlier content is kept)' },
  { name: 'HOSTA_SERVER_URL, HOSTA_REPOSITORY', ci: "host A's runner", use: 'the repository for --repository auto (SERVER_URL/REPOSITORY)' },
  { name: 'HOSTA_SHA', ci: "host A's runner", use: 'the commit for --commit auto' },
  { name: 'HOSTB_CI', ci: "host B's CI", use: '"true": collapsible sections around long output' },
  { name: 'CI_PROJECT_URL', ci: "host B's CI", use: 'the repository for --repository auto' },
  { name: 'CI_COMMIT_SHA', ci: "host B's CI", use: 'the commit for --commit auto' },
  { name: 'GITHUB_BASE_REF', ci: "host A's runner", use: 'svc gate --diff auto: the base is origin/<this branch>' },
  { name: 'GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_REF, GITHUB_EVENT_PATH, GITHUB_TOKEN', ci: "host A's runner", use: 'svc gate --comment: the API, the repository, the pull request (refs/pull/<n>/merge, else the event file), the token (after SVC_HOSTA_TOKEN)' },
  { name: 'CI_MERGE_REQUEST_DIFF_BASE_SHA', ci: "host B's CI", use: 'svc gate --diff auto: the base commit' },
  { name: 'CI_API_V4_URL, CI_PROJECT_ID, CI_MERGE_REQUEST_IID', ci: "host B's CI", use: 'svc gate --comment: the API, the project, the merge request (token: SVC_HOSTB_TOKEN)' },
  { name: 'BITBUCKET_PR_DESTINATION_BRANCH', ci: "host C's pipelines", use: 'svc gate --diff auto: the base is origin/<this branch>' },
  { name: 'BITBUCKET_WORKSPACE, BITBUCKET_REPO_SLUG, BITBUCKET_PR_ID', ci: "host C's pipelines", use: 'svc gate --comment: the repository and the pull request (token: SVC_HOSTC_TOKEN)' },
  { name: 'HOSTC_BUILD_NUMBER', ci: "host C's pipelines", use: 'marks a host C pipeline' },
  { name: 'HOSTC_GIT_HTTP_ORIGIN, HOSTC_COMMIT', ci: "host C's pipelines", use: 'the repository for --repository auto, the commit for --commit auto' },
];

const set = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';
const off = (v: string | undefined) => set(v) && /^(false|0|no)$/i.test(v.trim());
const on = (v: string | undefined) => set(v) && !off(v);

/** Without a trailing slash or `.git`. */
function webUrl(url: string): string {
  return url.trim().replace(/\/+$/, '').replace(/\.git$/, '');
}

/** The providers' CIs: what marks each, where it names the repository and the commit. */
const PROVIDERS: ReadonlyArray<{
  kind: 'hosta' | 'hostb' | 'hostc';
  name: string;
  marks: (env: Env) => boolean;
  url: (env: Env) => string | undefined;
  commit: string;
  groups: CiInfo['groups'];
  annotations: boolean;
  stepSummary?: string;
}> = [
  {
    kind: 'hosta', name: "host A's runner", marks: (env) => env.HOSTA_ACTIONS === 'true',
    url: (env) => (set(env.HOSTA_SERVER_URL) && set(env.HOSTA_REPOSITORY) ? `${webUrl(env.HOSTA_SERVER_URL)}/${env.HOSTA_REPOSITORY.trim().replace(/^\/+/, '')}` : undefined),
    commit: 'HOSTA_SHA', groups: 'hosta', annotations: true, stepSummary: 'HOSTA_STEP_SUMMARY',
  },
  {
    kind: 'hostb', name: "host B's CI", marks: (env) => env.HOSTB_CI === 'true',
    url: (env) => (set(env.CI_PROJECT_URL) ? webUrl(env.CI_PROJECT_URL) : undefined),
    commit: 'CI_COMMIT_SHA', groups: 'hostb', annotations: false,
  },
  {
    kind: 'hostc', name: "host C's pipelines", marks: (env) => set(env.HOSTC_BUILD_NUMBER),
    url: (env) => (set(env.HOSTC_GIT_HTTP_ORIGIN) ? webUrl(env.HOSTC_GIT_HTTP_ORIGIN) : undefined),
    commit: 'HOSTC_COMMIT', groups: 'none', annotations: false,
  },
];

export function detectCi(env: Env, o: { disabled?: boolean } = {}): CiInfo | undefined {
  if (o.disabled || on(env.SVC_NO_CI) || off(env.CI)) return undefined;
  const p = PROVIDERS.find((x) => x.marks(env));
  if (p) {
    const info: CiInfo = { kind: p.kind, name: p.name, groups: p.groups, annotations: p.annotations };
    const summary = p.stepSummary !== undefined ? env[p.stepSummary] : undefined;
    if (set(summary)) info.stepSummary = summary;
    const url = p.url(env);
    if (url !== undefined) {
      info.repositoryUrl = url;
      info.vcs = p.kind;
    }
    const commit = env[p.commit];
    if (set(commit)) info.commit = commit.trim();
    return info;
  }
  if (on(env.CI) || on(env.CONTINUOUS_INTEGRATION) || set(env.BUILD_NUMBER)) {
    return { kind: 'generic', name: 'CI', groups: 'none', annotations: false };
  }
  return undefined;
}

/**
 * Folds long output in the CI's log: host A's `::group::title` / `::endgroup::`, host B's section
 * markers (`section_start:<time>:<name>[collapsed=true]\r\e[0K<title>`), nothing elsewhere.
 */
export function groupLines(ci: CiInfo | undefined, name: string, title: string, nowMs: number): { start: string; end: string } {
  if (ci?.groups === 'hosta') return { start: `::group::${title}\n`, end: '::endgroup::\n' };
  if (ci?.groups === 'hostb') {
    const t = Math.floor(nowMs / 1000);
    const id = name.replace(/[^A-Za-z0-9_.-]/g, '_');
    return {
      start: `\u001b[0Ksection_start:${t}:${id}[collapsed=true]\r\u001b[0K${title}\n`,
      end: `\u001b[0Ksection_end:${t}:${id}\r\u001b[0K\n`,
    };
  }
  return { start: '', end: '' };
}
