/**
 * `--commit auto` takes the commit the CI's pipeline built for review (src/ci/review-commit.ts),
 * read from the variables real runners set: in a host A pull request event the head sha of the event
 * payload, not GITHUB_SHA (the merge commit of refs/pull/<n>/merge, or the base branch's head for
 * pull_request_target); in a host B merged results pipeline CI_MERGE_REQUEST_SOURCE_BRANCH_SHA, not
 * CI_COMMIT_SHA (the merge commit); on host C BITBUCKET_COMMIT.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectCi } from '../../../src/ci/detect.js';
import { reviewCommit } from '../../../src/ci/review-commit.js';
import { UsageError } from '../../../src/core/errors.js';
import { tempDir } from '../../helpers/temp.js';

const HEAD = '0123456789abcdef0123456789abcdef01234567';
const MERGE = 'fedcba9876543210fedcba9876543210fedcba98';
const BASE = '1111111111111111111111111111111111111111';

/** What GitHub Actions sets for a job of `event`, its event file written with `payload` (a string: as is). */
function hostA(event: string, payload: unknown, sha = MERGE): { env: Record<string, string>; dir: string } {
  const dir = tempDir('svc-review-commit-');
  const eventPath = join(dir, 'event.json');
  writeFileSync(eventPath, typeof payload === 'string' ? payload : JSON.stringify(payload));
  return {
    dir,
    env: {
      CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_EVENT_NAME: event, GITHUB_SHA: sha,
      GITHUB_REF: event === 'pull_request_target' ? 'refs/heads/main' : event.startsWith('pull_request') ? 'refs/pull/12/merge' : 'refs/heads/main',
      GITHUB_HEAD_REF: 'feature', GITHUB_BASE_REF: 'main', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'acme/payments',
      GITHUB_EVENT_PATH: eventPath,
    },
  };
}

const auto = (env: Record<string, string>, cwd = '/') => reviewCommit(detectCi(env), env, cwd);
const pr = (sha: string | undefined) => ({ action: 'synchronize', number: 12, pull_request: { number: 12, head: { sha, ref: 'feature' }, base: { sha: BASE, ref: 'main' } } });

async function refused(env: Record<string, string>): Promise<string> {
  const err = await auto(env).then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(UsageError);
  expect((err as UsageError).exitCode).toBe(2);
  return (err as Error).message;
}

describe("GitHub Actions", () => {
  for (const event of ['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']) {
    it(`${event}: the pull request's head from the event file, not GITHUB_SHA`, async () => {
      const { env } = hostA(event, pr(HEAD), event === 'pull_request_target' ? BASE : MERGE);
      expect(await auto(env)).toEqual({ sha: HEAD, from: 'pull_request.head.sha of the event file (GITHUB_EVENT_PATH)' });
    });
  }

  it('push (and any event without a pull request): GITHUB_SHA, the commit built', async () => {
    for (const event of ['push', 'workflow_dispatch', 'schedule']) {
      const { env } = hostA(event, { ref: 'refs/heads/main', after: HEAD }, HEAD);
      expect(await auto(env)).toEqual({ sha: HEAD, from: 'GITHUB_SHA' });
    }
  });

  it('an event file that cannot be used is exit 2 naming it, never GITHUB_SHA', async () => {
    const noHead = hostA('pull_request', pr(undefined));
    expect(await refused(noHead.env)).toContain(`the event file '${noHead.env.GITHUB_EVENT_PATH}' (GITHUB_EVENT_PATH) of this pull_request event has no pull_request.head.sha`);
    const notJson = hostA('pull_request', '{"pull_request": {"head": ');
    expect(await refused(notJson.env)).toContain('of this pull_request event is not JSON');
    const empty = hostA('pull_request', '');
    expect(await refused(empty.env)).toContain('is not JSON');
    const notObject = hostA('pull_request', '[1, 2]');
    expect(await refused(notObject.env)).toContain('has no pull_request.head.sha');
    const gone = hostA('pull_request', pr(HEAD));
    expect(await refused({ ...gone.env, GITHUB_EVENT_PATH: join(gone.dir, 'missing.json') })).toMatch(/cannot read the event file '.*missing\.json' \(GITHUB_EVENT_PATH\) of this pull_request event \(ENOENT\)/);
    const dir = join(gone.dir, 'a-directory');
    mkdirSync(dir);
    expect(await refused({ ...gone.env, GITHUB_EVENT_PATH: dir })).toContain('is not a regular file');
    const { GITHUB_EVENT_PATH: _unset, ...unset } = gone.env;
    expect(await refused(unset)).toContain("a pull_request event's commit under review is pull_request.head.sha of the event file, and GITHUB_EVENT_PATH is not set on GitHub Actions");
  });
});

describe("GitLab CI/CD", () => {
  const base = { CI: 'true', GITLAB_CI: 'true', CI_PIPELINE_SOURCE: 'merge_request_event', CI_PROJECT_URL: 'https://gitlab.com/acme/payments', CI_MERGE_REQUEST_IID: '7' };

  it('a merged results pipeline: CI_MERGE_REQUEST_SOURCE_BRANCH_SHA (the head), not CI_COMMIT_SHA (the merge commit)', async () => {
    expect(await auto({ ...base, CI_COMMIT_SHA: MERGE, CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: HEAD, CI_MERGE_REQUEST_TARGET_BRANCH_SHA: BASE })).toEqual({ sha: HEAD, from: 'CI_MERGE_REQUEST_SOURCE_BRANCH_SHA' });
  });

  it('a merge request pipeline (the variable empty) and a branch pipeline: CI_COMMIT_SHA', async () => {
    expect(await auto({ ...base, CI_COMMIT_SHA: HEAD, CI_MERGE_REQUEST_SOURCE_BRANCH_SHA: '' })).toEqual({ sha: HEAD, from: 'CI_COMMIT_SHA' });
    expect(await auto({ CI: 'true', GITLAB_CI: 'true', CI_PIPELINE_SOURCE: 'push', CI_COMMIT_SHA: HEAD })).toEqual({ sha: HEAD, from: 'CI_COMMIT_SHA' });
  });
});

describe("Bitbucket Pipelines and Azure Pipelines", () => {
  it('host C: BITBUCKET_COMMIT, also in a pull request pipeline', async () => {
    expect(await auto({ CI: 'true', BITBUCKET_BUILD_NUMBER: '9', BITBUCKET_COMMIT: HEAD, BITBUCKET_PR_ID: '3', BITBUCKET_BRANCH: 'feature', BITBUCKET_PR_DESTINATION_BRANCH: 'main' })).toEqual({ sha: HEAD, from: 'BITBUCKET_COMMIT' });
  });

  it('Azure: SYSTEM_PULLREQUEST_SOURCECOMMITID in a pull request build, BUILD_SOURCEVERSION otherwise', async () => {
    const azure = { TF_BUILD: 'True', BUILD_REASON: 'PullRequest', BUILD_SOURCEVERSION: MERGE };
    expect(await auto({ ...azure, SYSTEM_PULLREQUEST_SOURCECOMMITID: HEAD })).toEqual({ sha: HEAD, from: 'SYSTEM_PULLREQUEST_SOURCECOMMITID' });
    expect(await auto({ ...azure, BUILD_REASON: 'IndividualCI', BUILD_SOURCEVERSION: HEAD })).toEqual({ sha: HEAD, from: 'BUILD_SOURCEVERSION' });
  });

  it('outside CI, or a CI without the variable: exit 2 naming what is missing', async () => {
    expect(await refused({})).toContain('--commit auto: no CI job is detected');
    expect(await refused({ CI: 'true', BITBUCKET_BUILD_NUMBER: '9' })).toContain("--commit auto: BITBUCKET_COMMIT is not set on Bitbucket Pipelines");
  });
});
