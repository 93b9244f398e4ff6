/**
 * THE table of outside names. The service's own API vocabulary is neutral (its providers are host A,
 * host B, host C: `hosta`... in its paths, fields and the flags generated from them), and so is svc's
 * code; the systems a user works in are named as their users know them wherever the user reads:
 * messages, help, svc's own flags and variables. The mapping between the two is here, and real names
 * appear nowhere else in src/ (test/unit/ci/providers-only.test.ts greps for them): code that words a
 * message takes the name from here.
 *
 * - host A = GitHub (GitHub Actions, github.com, Enterprise Server under GITHUB_SERVER_URL)
 * - host B = GitLab (GitLab CI/CD, gitlab.com, self-managed under CI_SERVER_URL)
 * - host C = Bitbucket (Bitbucket Pipelines, bitbucket.org)
 * - other CIs (Azure Pipelines, Jenkins, CircleCI, Buildkite, any CI=true) are "generic" CI with
 *   whatever they offer.
 *
 * Everything svc reads from a CI is read through `detectCi()` as neutral fields (`CiInfo`): code that
 * needs the base branch of a pull request reads `ci.baseRef`, never an environment variable name.
 * `svc help environment` is generated from the same rows, so what is read and what is documented
 * cannot drift.
 */

/** The neutral providers of the service (its `vcs` values). */
export type Vcs = 'hosta' | 'hostb' | 'hostc' | 'generic';
export type CiKind = 'hosta' | 'hostb' | 'hostc' | 'generic';

/** How a CI folds log lines: host A's `::group::`, host B's sections, Azure's `##[group]`, or not at all. */
export type GroupStyle = 'workflow' | 'sections' | 'logging' | 'none';
/** How a CI shows file annotations from a log line: host A's workflow commands, Azure's `##vso[task.logissue]`. */
export type AnnotationStyle = 'workflow' | 'logissue';

/** What svc reads from a CI, in neutral words. */
export const CI_FIELDS = {
  repositoryUrl: 'the repository for --repository auto',
  commit: 'the commit for --commit auto, unless a head commit of the pull request is given',
  headCommit: 'the head commit of the pull request, which --commit auto takes (the commit built is a merge the CI made)',
  stepSummary: 'file the gate appends its markdown summary to (earlier content is kept)',
  event: 'what started the run (a push, a pull request, ...)',
  ref: 'the branch or tag ref being built',
  headRef: 'the source branch of a pull request',
  baseRef: 'the target (base) branch of a pull request',
  baseSha: 'the commit a pull request is compared with',
  pullRequest: 'the number (id) of the pull request being built',
  serverUrl: 'the web address of the provider',
  apiUrl: "the provider's API address",
  projectId: "the provider's id of the repository",
  repositoryPath: 'the repository as owner/name',
  workspace: 'the workspace (owner) of the repository',
  eventPath: 'a JSON file describing the event',
  token: 'a token for the provider\'s API (pull-request comments)',
  workingDirectory: 'the checked-out repository',
  tempDir: "a directory emptied at the start and end of each job: the job's annotation count is kept there",
  runId: 'the id of the run (the annotation count is per run, attempt and job)',
  runAttempt: 'the attempt of the run',
  jobId: 'the id of the job',
  stepId: 'the id of the step (annotations are limited per step too)',
} as const;
export type CiField = keyof typeof CI_FIELDS;

/** A field read from one variable, the first of several that is set, or several joined with '/'. */
export type Source = string | { anyOf: readonly string[] } | { join: readonly string[] };

interface CiRow {
  /** For messages: "GitHub Actions", "Jenkins". */
  name: string;
  kind: CiKind;
  /** The variable that marks this CI, and the value it must have (any non-empty value when absent). */
  marker: { variable: string; value?: RegExp; doc: string };
  fields: Partial<Record<CiField, Source>>;
  /** Fields that are the same on every run of this CI. */
  constants?: Partial<Record<CiField, string>>;
  /**
   * Fields read from the JSON file at `eventPath` when `event` is one of `events` (host A's event
   * payload): each a path of keys into it. In such an event the field must be there: a file that
   * cannot be read or lacks it is an error, never a fallback to the variable.
   */
  eventFile?: { events: readonly string[]; fields: Partial<Record<CiField, readonly string[]>> };
  /** Which provider the repository is on, when the CI says so (a variable and its values). */
  vcsFrom?: { variable: string; values: Readonly<Record<string, Vcs>> };
  groups: GroupStyle;
  annotations?: AnnotationStyle;
  /**
   * The log acts on commands in any line a step prints (`##[` and `##vso[` anywhere, `::` at a line's
   * start): svc writes no service text that could form one (log-guard.ts).
   */
  logCommands?: true;
}

/** The marker of host A's runner and of Azure Pipelines: the CIs whose log acts on commands. */
const HOSTA_MARKER = { variable: 'GITHUB_ACTIONS', value: /^true$/, doc: '"true": a GitHub Actions job: step summary, annotations, ::group:: folding' };
const AZURE_MARKER = { variable: 'TF_BUILD', value: /^true$/i, doc: '"True": an Azure Pipelines job: ##[group] folding, ##vso[task.logissue] annotations' };

/**
 * The markers of the rows with `logCommands` (a test checks they are the same): log-guard.ts reads
 * them on every run, and the rest of the table is then not made.
 */
export const LOG_COMMAND_MARKERS: ReadonlyArray<CiRow['marker']> = [HOSTA_MARKER, AZURE_MARKER];

let rows: readonly CiRow[] | undefined;
/**
 * The CIs svc recognises, in the order they are tried. Made when first read (a CI is detected, help
 * is written): a call outside a CI's log-command check does not make it, and a table of this many
 * keys costs ~0.9 M instructions to make the first time (docs/performance.md).
 */
export const ciRows = (): readonly CiRow[] => (rows ??= [
    {
      name: 'GitHub Actions', kind: 'hosta',
      marker: HOSTA_MARKER,
      fields: {
        repositoryUrl: { join: ['GITHUB_SERVER_URL', 'GITHUB_REPOSITORY'] },
        commit: 'GITHUB_SHA',
        stepSummary: 'GITHUB_STEP_SUMMARY',
        event: 'GITHUB_EVENT_NAME',
        ref: 'GITHUB_REF',
        headRef: 'GITHUB_HEAD_REF',
        baseRef: 'GITHUB_BASE_REF',
        serverUrl: 'GITHUB_SERVER_URL',
        apiUrl: 'GITHUB_API_URL',
        projectId: 'GITHUB_REPOSITORY_ID',
        repositoryPath: 'GITHUB_REPOSITORY',
        workspace: 'GITHUB_REPOSITORY_OWNER',
        eventPath: 'GITHUB_EVENT_PATH',
        token: 'GITHUB_TOKEN',
        workingDirectory: 'GITHUB_WORKSPACE',
        tempDir: 'RUNNER_TEMP',
        runId: 'GITHUB_RUN_ID',
        runAttempt: 'GITHUB_RUN_ATTEMPT',
        jobId: 'GITHUB_JOB',
        stepId: 'GITHUB_ACTION',
      },
      // In these events GITHUB_SHA is the merge commit of refs/pull/<n>/merge (pull_request,
      // pull_request_review, pull_request_review_comment), or the base branch's last commit
      // (pull_request_target): not the commit under review, which is the payload's head sha.
      eventFile: {
        events: ['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment'],
        fields: { headCommit: ['pull_request', 'head', 'sha'] },
      },
      groups: 'workflow', annotations: 'workflow', logCommands: true,
    },
    {
      name: 'GitLab CI/CD', kind: 'hostb',
      marker: { variable: 'GITLAB_CI', value: /^true$/, doc: '"true": a GitLab CI/CD job: collapsible sections' },
      fields: {
        repositoryUrl: 'CI_PROJECT_URL',
        commit: 'CI_COMMIT_SHA',
        // Set only in merged results pipelines, whose CI_COMMIT_SHA is the merge commit; empty in plain
        // merge request pipelines, whose CI_COMMIT_SHA is the source branch's head.
        headCommit: 'CI_MERGE_REQUEST_SOURCE_BRANCH_SHA',
        event: 'CI_PIPELINE_SOURCE',
        ref: 'CI_COMMIT_REF_NAME',
        headRef: 'CI_MERGE_REQUEST_SOURCE_BRANCH_NAME',
        baseRef: 'CI_MERGE_REQUEST_TARGET_BRANCH_NAME',
        baseSha: 'CI_MERGE_REQUEST_DIFF_BASE_SHA',
        pullRequest: 'CI_MERGE_REQUEST_IID',
        serverUrl: 'CI_SERVER_URL',
        apiUrl: 'CI_API_V4_URL',
        projectId: 'CI_PROJECT_ID',
        repositoryPath: 'CI_PROJECT_PATH',
        workspace: 'CI_PROJECT_NAMESPACE',
        // No token here: GITLAB_TOKEN is no variable GitLab sets, and CI_JOB_TOKEN cannot write a
        // merge request's notes; the comment's token is svc's own SVC_GITLAB_TOKEN (pull-request.ts).
        workingDirectory: 'CI_PROJECT_DIR',
      },
      groups: 'sections',
    },
    {
      name: 'Bitbucket Pipelines', kind: 'hostc',
      marker: { variable: 'BITBUCKET_BUILD_NUMBER', doc: 'set: a Bitbucket Pipelines step' },
      fields: {
        repositoryUrl: 'BITBUCKET_GIT_HTTP_ORIGIN',
        // The commit that started the pipeline: in a pull request pipeline the source branch's head
        // (the destination branch is merged into it in the clone only).
        commit: 'BITBUCKET_COMMIT',
        ref: { anyOf: ['BITBUCKET_BRANCH', 'BITBUCKET_TAG'] },
        headRef: 'BITBUCKET_BRANCH',
        baseRef: 'BITBUCKET_PR_DESTINATION_BRANCH',
        baseSha: 'BITBUCKET_PR_DESTINATION_COMMIT',
        pullRequest: 'BITBUCKET_PR_ID',
        projectId: 'BITBUCKET_REPO_UUID',
        repositoryPath: 'BITBUCKET_REPO_FULL_NAME',
        workspace: 'BITBUCKET_WORKSPACE',
        token: 'BITBUCKET_ACCESS_TOKEN',
        workingDirectory: 'BITBUCKET_CLONE_DIR',
      },
      constants: { serverUrl: 'https://bitbucket.org', apiUrl: 'https://api.bitbucket.org/2.0' },
      groups: 'none',
    },
    {
      name: 'Azure Pipelines', kind: 'generic',
      marker: AZURE_MARKER,
      fields: {
        repositoryUrl: 'BUILD_REPOSITORY_URI',
        commit: 'BUILD_SOURCEVERSION',
        // Set in pull request builds, whose BUILD_SOURCEVERSION is the merge commit.
        headCommit: 'SYSTEM_PULLREQUEST_SOURCECOMMITID',
        event: 'BUILD_REASON',
        ref: 'BUILD_SOURCEBRANCH',
        headRef: 'SYSTEM_PULLREQUEST_SOURCEBRANCH',
        baseRef: 'SYSTEM_PULLREQUEST_TARGETBRANCH',
        pullRequest: { anyOf: ['SYSTEM_PULLREQUEST_PULLREQUESTNUMBER', 'SYSTEM_PULLREQUEST_PULLREQUESTID'] },
        repositoryPath: 'BUILD_REPOSITORY_NAME',
        token: 'SYSTEM_ACCESSTOKEN',
        workingDirectory: 'BUILD_SOURCESDIRECTORY',
      },
      vcsFrom: { variable: 'BUILD_REPOSITORY_PROVIDER', values: { GitHub: 'hosta', GitHubEnterprise: 'hosta', Bitbucket: 'hostc', TfsGit: 'generic', Git: 'generic' } },
      groups: 'logging', annotations: 'logissue', logCommands: true,
    },
    {
      name: 'Jenkins', kind: 'generic',
      marker: { variable: 'JENKINS_URL', doc: 'set: a Jenkins build' },
      fields: {
        repositoryUrl: 'GIT_URL', commit: 'GIT_COMMIT', ref: 'BRANCH_NAME',
        headRef: 'CHANGE_BRANCH', baseRef: 'CHANGE_TARGET', pullRequest: 'CHANGE_ID', workingDirectory: 'WORKSPACE',
      },
      groups: 'none',
    },
    {
      name: 'CircleCI', kind: 'generic',
      marker: { variable: 'CIRCLECI', value: /^true$/, doc: '"true": a CircleCI job' },
      fields: { repositoryUrl: 'CIRCLE_REPOSITORY_URL', commit: 'CIRCLE_SHA1', ref: 'CIRCLE_BRANCH', pullRequest: 'CIRCLE_PR_NUMBER', workingDirectory: 'CIRCLE_WORKING_DIRECTORY' },
      groups: 'none',
    },
    {
      name: 'Buildkite', kind: 'generic',
      marker: { variable: 'BUILDKITE', value: /^true$/, doc: '"true": a Buildkite job' },
      fields: {
        repositoryUrl: 'BUILDKITE_REPO', commit: 'BUILDKITE_COMMIT', ref: 'BUILDKITE_BRANCH',
        baseRef: 'BUILDKITE_PULL_REQUEST_BASE_BRANCH', pullRequest: 'BUILDKITE_PULL_REQUEST', workingDirectory: 'BUILDKITE_BUILD_CHECKOUT_PATH',
      },
      groups: 'none',
    },
]);

/** Variables that mark a CI job of any kind (plain progress lines instead of a spinner). */
export const GENERIC_CI_VARIABLES = [
  { name: 'CI', doc: 'set (not "false" or "0"): a CI job: plain progress lines instead of a spinner; CI=false turns every CI behaviour off' },
  { name: 'CONTINUOUS_INTEGRATION', doc: 'set (not "false" or "0"): also a CI job' },
  { name: 'BUILD_NUMBER', doc: 'set: also a CI job' },
] as const;

/** The providers' public web hosts, and which neutral provider each is. */
export const PUBLIC_HOSTS: Readonly<Record<string, Exclude<Vcs, 'generic'>>> = {
  'github.com': 'hosta',
  'gitlab.com': 'hostb',
  'bitbucket.org': 'hostc',
};

/**
 * The action (action.yml, run by the runner of `kind` with its own Node): the runner hands each input
 * over as the variable `inputPrefix` + the input's name in upper case (spaces as `_`, hyphens kept),
 * and reads the step's outputs from the file named by `outputFile`.
 */
export const ACTION_RUNNER = { kind: 'hosta', inputPrefix: 'INPUT_', outputFile: 'GITHUB_OUTPUT' } as const;

/** A provider as its users know it: its name, its word for a change under review and how it writes one's reference. */
interface ProviderWords {
  name: string;
  change: 'pull request' | 'merge request';
  /** "owner/repo#7", "group/project!5". */
  reference(path: string, number: string): string;
  /** The variable svc gate --comment reads the provider's token from; `oldTokenVariable`: its earlier spelling (read too, for one release). */
  tokenVariable: string;
  oldTokenVariable: string;
}

export const PROVIDERS: Readonly<Record<Exclude<Vcs, 'generic'>, ProviderWords>> = {
  hosta: { name: 'GitHub', change: 'pull request', reference: (p, n) => `${p}#${n}`, tokenVariable: 'SVC_GITHUB_TOKEN', oldTokenVariable: 'SVC_HOSTA_TOKEN' },
  hostb: { name: 'GitLab', change: 'merge request', reference: (p, n) => `${p}!${n}`, tokenVariable: 'SVC_GITLAB_TOKEN', oldTokenVariable: 'SVC_HOSTB_TOKEN' },
  hostc: { name: 'Bitbucket', change: 'pull request', reference: (p, n) => `${p}#${n}`, tokenVariable: 'SVC_BITBUCKET_TOKEN', oldTokenVariable: 'SVC_HOSTC_TOKEN' },
};

/** The API root of host C's comments, when not its public one (svc gate --comment); the old spelling read too, for one release. */
export const HOSTC_API_VARIABLE = { name: 'SVC_BITBUCKET_API_URL', old: 'SVC_HOSTC_API_URL' } as const;

/** The real names of the neutral providers, for the one place a user must recognise them (README, help). */
export const PROVIDER_NAMES: Readonly<Record<Exclude<Vcs, 'generic'>, string>> = { hosta: PROVIDERS.hosta.name, hostb: PROVIDERS.hostb.name, hostc: PROVIDERS.hostc.name };

/**
 * svc's words for the formats and limits an outside system defines: host B's SAST report (its flag,
 * and its earlier spelling, kept as a hidden alias for one release) and Code Quality report,
 * host A's code scanning.
 */
export const OUTSIDE_FORMATS = {
  sast: { flag: '--gitlab-sast', oldFlag: '--hostb-sast', name: "GitLab's SAST report" },
  codeQuality: { name: "GitLab's Code Quality report" },
  codeScanning: "GitHub's code scanning",
} as const;

/** How each CI folds a block of log lines. `name` is an id for host B's sections; `t` seconds since the epoch. */
export function groupMarkers(style: GroupStyle, name: string, title: string, t: number): { start: string; end: string } {
  switch (style) {
    case 'workflow': return { start: `::group::${title}\n`, end: '::endgroup::\n' };
    case 'logging': return { start: `##[group]${title}\n`, end: '##[endgroup]\n' };
    case 'sections': {
      const id = name.replace(/[^A-Za-z0-9_.-]/g, '_');
      return {
        start: `\u001b[0Ksection_start:${t}:${id}[collapsed=true]\r\u001b[0K${title}\n`,
        end: `\u001b[0Ksection_end:${t}:${id}\r\u001b[0K\n`,
      };
    }
    default: return { start: '', end: '' };
  }
}

/** The variables a source reads. */
export function sourceNames(source: Source): readonly string[] {
  if (typeof source === 'string') return [source];
  return 'anyOf' in source ? source.anyOf : source.join;
}

/** Every row of `svc help environment`'s CI part: variable(s), which CI, what svc does with it. */
export function ciVariableDocs(): Array<{ name: string; ci: string; use: string }> {
  const docs: Array<{ name: string; ci: string; use: string }> = GENERIC_CI_VARIABLES.map((v) => ({ name: v.name, ci: 'any', use: v.doc }));
  docs.push({ name: 'SVC_NO_CI', ci: 'any', use: 'set (not "0"): ignore the CI, as --no-ci' });
  for (const row of ciRows()) {
    docs.push({ name: row.marker.variable, ci: row.name, use: row.marker.doc });
    for (const [field, source] of Object.entries(row.fields) as Array<[CiField, Source]>) {
      const names = sourceNames(source);
      const how = typeof source === 'string' ? '' : 'anyOf' in source ? ' (the first that is set)' : ' (joined with /)';
      docs.push({ name: names.join(typeof source === 'object' && 'join' in source ? ' + ' : ', '), ci: row.name, use: `${CI_FIELDS[field]}${how}` });
    }
    if (row.eventFile) {
      const eventVars = (row.fields.eventPath ? sourceNames(row.fields.eventPath) : []).join(', ');
      for (const [field, path] of Object.entries(row.eventFile.fields) as Array<[CiField, readonly string[]]>) {
        docs.push({ name: `${eventVars} (${path.join('.')})`, ci: row.name, use: `${CI_FIELDS[field]}, in ${row.eventFile.events.join(', ')} events` });
      }
    }
    if (row.vcsFrom) docs.push({ name: row.vcsFrom.variable, ci: row.name, use: `which provider hosts the repository (${Object.entries(row.vcsFrom.values).map(([k, v]) => `${k}: ${v}`).join(', ')})` });
  }
  return docs;
}
