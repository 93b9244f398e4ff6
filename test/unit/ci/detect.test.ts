import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectCi, groupLines, missingText } from '../../../src/ci/detect.js';
import { appendSummary } from '../../../src/ci/step-summary.js';

// The variables the runners really set (as their documentation lists them).
const HOSTA = {
  CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: '/tmp/summary.md', GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'team/api', GITHUB_SHA: 'abc123', GITHUB_EVENT_NAME: 'pull_request', GITHUB_BASE_REF: 'main',
  GITHUB_HEAD_REF: 'feature', GITHUB_REF: 'refs/pull/7/merge', GITHUB_API_URL: 'https://api.github.com', GITHUB_EVENT_PATH: '/tmp/event.json',
  GITHUB_WORKSPACE: '/home/runner/work/api/api', GITHUB_REPOSITORY_OWNER: 'team', GITHUB_REPOSITORY_ID: '123',
};
const HOSTB = {
  CI: 'true', GITLAB_CI: 'true', CI_PROJECT_URL: 'https://gitlab.example.com/group/api', CI_COMMIT_SHA: 'def456', CI_SERVER_URL: 'https://gitlab.example.com',
  CI_API_V4_URL: 'https://gitlab.example.com/api/v4', CI_PROJECT_ID: '42', CI_MERGE_REQUEST_IID: '9', CI_MERGE_REQUEST_DIFF_BASE_SHA: 'b45e',
  CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main', CI_PIPELINE_SOURCE: 'merge_request_event', CI_JOB_TOKEN: 'job-token', CI_PROJECT_PATH: 'group/api',
};
const HOSTC = {
  CI: 'true', BITBUCKET_BUILD_NUMBER: '3', BITBUCKET_GIT_HTTP_ORIGIN: 'http://bitbucket.org/team/repo', BITBUCKET_COMMIT: 'c0ffee',
  BITBUCKET_PR_ID: '11', BITBUCKET_PR_DESTINATION_BRANCH: 'main', BITBUCKET_REPO_FULL_NAME: 'team/repo', BITBUCKET_WORKSPACE: 'team',
};

describe('CI detection from the variables real runners set', () => {
  it("GitHub Actions: step summary, repository URL, commit, pull request, annotations and groups", () => {
    expect(detectCi(HOSTA)).toMatchObject({
      kind: 'hosta', name: "GitHub Actions", stepSummary: '/tmp/summary.md', repositoryUrl: 'https://github.com/team/api',
      vcs: 'hosta', commit: 'abc123', groups: 'workflow', annotations: 'workflow', event: 'pull_request', baseRef: 'main', headRef: 'feature',
      apiUrl: 'https://api.github.com', ref: 'refs/pull/7/merge', eventPath: '/tmp/event.json', serverUrl: 'https://github.com', repositoryPath: 'team/api',
    });
    expect(detectCi(HOSTA)?.variables.baseRef).toEqual(['GITHUB_BASE_REF']);
    expect(detectCi({ ...HOSTA, GITHUB_TOKEN: 'ghs_x' })?.token).toBe('ghs_x');
  });

  it('an Enterprise Server URL is host A too', () => {
    expect(detectCi({ ...HOSTA, GITHUB_SERVER_URL: 'https://GHE.corp.example/', GITHUB_REPOSITORY: 'team/api' })).toMatchObject({ repositoryUrl: 'https://ghe.corp.example/team/api', vcs: 'hosta' });
  });

  it("GitLab CI/CD: repository URL, commit, merge request, sections, no annotations", () => {
    const ci = detectCi(HOSTB)!;
    expect(ci).toMatchObject({
      kind: 'hostb', name: "GitLab CI/CD", repositoryUrl: 'https://gitlab.example.com/group/api', vcs: 'hostb', commit: 'def456', groups: 'sections',
      pullRequest: '9', baseSha: 'b45e', baseRef: 'main', apiUrl: 'https://gitlab.example.com/api/v4', projectId: '42', serverUrl: 'https://gitlab.example.com',
      event: 'merge_request_event',
    });
    expect(ci.annotations).toBeUndefined();
    // GitLab's comment token is svc's own SVC_GITLAB_TOKEN (pull-request.ts): no CI variable is read
    // as a token (GITLAB_TOKEN is not GitLab's; CI_JOB_TOKEN cannot write notes).
    expect(ci.token).toBeUndefined();
    expect(detectCi({ ...HOSTB, GITLAB_TOKEN: 'glpat' })?.token).toBeUndefined();
  });

  it("Bitbucket Pipelines: repository URL (https), commit, pull request", () => {
    expect(detectCi(HOSTC)).toMatchObject({
      kind: 'hostc', repositoryUrl: 'https://bitbucket.org/team/repo', vcs: 'hostc', commit: 'c0ffee', pullRequest: '11', baseRef: 'main',
      repositoryPath: 'team/repo', workspace: 'team', apiUrl: 'https://api.bitbucket.org/2.0',
    });
  });

  it('Azure Pipelines: its own group syntax; the provider from BUILD_REPOSITORY_PROVIDER', () => {
    const env = { TF_BUILD: 'True', BUILD_REPOSITORY_URI: 'https://github.com/team/api', BUILD_SOURCEVERSION: 'abc', BUILD_REPOSITORY_PROVIDER: 'GitHub', SYSTEM_PULLREQUEST_TARGETBRANCH: 'refs/heads/main' };
    expect(detectCi(env)).toMatchObject({ kind: 'generic', name: 'Azure Pipelines', repositoryUrl: 'https://github.com/team/api', vcs: 'hosta', commit: 'abc', groups: 'logging', baseRef: 'refs/heads/main' });
    expect(detectCi({ ...env, BUILD_REPOSITORY_PROVIDER: 'TfsGit', BUILD_REPOSITORY_URI: 'https://dev.azure.com/o/p/_git/r' })).toMatchObject({ vcs: 'generic' });
  });

  it('Jenkins and other CIs: what they offer; the provider from a public host', () => {
    expect(detectCi({ JENKINS_URL: 'https://ci.example/', GIT_URL: 'git@gitlab.com:team/api.git', GIT_COMMIT: 'f00', CHANGE_ID: '5', CHANGE_TARGET: 'main' }))
      .toMatchObject({ name: 'Jenkins', kind: 'generic', repositoryUrl: 'https://gitlab.com/team/api', vcs: 'hostb', commit: 'f00', pullRequest: '5', baseRef: 'main', groups: 'none' });
    expect(detectCi({ JENKINS_URL: 'https://ci.example/', GIT_URL: 'https://git.corp.example/team/api.git' })?.vcs).toBeUndefined();
    expect(detectCi({ CIRCLECI: 'true', CIRCLE_REPOSITORY_URL: 'git@github.com:team/api.git', CIRCLE_SHA1: 'abc' })).toMatchObject({ name: 'CircleCI', vcs: 'hosta', commit: 'abc' });
    expect(detectCi({ CI: 'true' })?.kind).toBe('generic');
    expect(detectCi({ CI: '1' })?.kind).toBe('generic');
    expect(detectCi({ BUILD_NUMBER: '12' })?.kind).toBe('generic');
  });

  it('not CI: nothing set, CI=false, --no-ci, SVC_NO_CI; only the value a runner sets', () => {
    expect(detectCi({})).toBeUndefined();
    expect(detectCi({ CI: '' })).toBeUndefined();
    expect(detectCi({ CI: 'false' })).toBeUndefined();
    expect(detectCi({ ...HOSTA, CI: 'false' })).toBeUndefined();
    expect(detectCi(HOSTA, { disabled: true })).toBeUndefined();
    expect(detectCi({ ...HOSTA, SVC_NO_CI: '1' })).toBeUndefined();
    expect(detectCi({ ...HOSTA, SVC_NO_CI: '0' })?.kind).toBe('hosta');
    expect(detectCi({ GITHUB_ACTIONS: 'yes' })).toBeUndefined();
    expect(detectCi({ GITLAB_CI: 'false' })).toBeUndefined();
  });

  it('messages name the real variable, and only the ones really unset', () => {
    const { GITHUB_REPOSITORY: _r, ...noRepo } = HOSTA;
    expect(missingText(detectCi(noRepo), 'repositoryUrl', noRepo)).toBe("GITHUB_REPOSITORY is not set on GitHub Actions");
    const { GITHUB_REPOSITORY: _r2, GITHUB_SERVER_URL: _s, ...neither } = HOSTA;
    expect(missingText(detectCi(neither), 'repositoryUrl', neither)).toBe("GITHUB_SERVER_URL and GITHUB_REPOSITORY are not set on GitHub Actions");
    const { CI_COMMIT_SHA: _c, ...noSha } = HOSTB;
    expect(missingText(detectCi(noSha), 'commit', noSha)).toBe("CI_COMMIT_SHA is not set on GitLab CI/CD");
    const badUrl = { ...HOSTB, CI_PROJECT_URL: 'not a url' };
    expect(missingText(detectCi(badUrl), 'repositoryUrl', badUrl)).toBe("CI_PROJECT_URL on GitLab CI/CD is set but gives no usable value");
    expect(missingText(detectCi({ CI: 'true' }), 'commit', { CI: 'true' })).toBe('CI sets no variable with the commit');
    expect(missingText(undefined, 'commit', {})).toMatch(/^no CI job is detected/);
  });

  it('groups: ::group:: on host A, collapsed sections on host B, ##[group] on Azure, nothing elsewhere', () => {
    expect(groupLines(detectCi(HOSTA), 'svc-gate', 'svc gate: issues', 0)).toEqual({ start: '::group::svc gate: issues\n', end: '::endgroup::\n' });
    const b = groupLines(detectCi(HOSTB), 'svc gate', 'svc gate: issues', 1_700_000_000_000);
    expect(b.start).toBe('\u001b[0Ksection_start:1700000000:svc_gate[collapsed=true]\r\u001b[0Ksvc gate: issues\n');
    expect(b.end).toBe('\u001b[0Ksection_end:1700000000:svc_gate\r\u001b[0K\n');
    expect(groupLines(detectCi({ TF_BUILD: 'True' }), 'x', 'y', 0)).toEqual({ start: '##[group]y\n', end: '##[endgroup]\n' });
    expect(groupLines(detectCi({ CI: 'true' }), 'x', 'y', 0)).toEqual({ start: '', end: '' });
    expect(groupLines(detectCi(HOSTC), 'x', 'y', 0)).toEqual({ start: '', end: '' });
  });
});

describe('appending to the step summary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-summary-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps what earlier steps wrote and starts on a line of its own', async () => {
    const file = join(dir, 'a.md');
    writeFileSync(file, '## Build\nok');
    await appendSummary(file, '### svc gate passed\n');
    await appendSummary(file, '### second\n');
    expect(readFileSync(file, 'utf8')).toBe('## Build\nok\n\n### svc gate passed\n\n### second\n');
  });

  it('creates the file when no step wrote to it yet', async () => {
    const file = join(dir, 'b.md');
    await appendSummary(file, 'x\n');
    expect(readFileSync(file, 'utf8')).toBe('x\n');
  });
});
