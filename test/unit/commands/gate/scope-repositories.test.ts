/**
 * An issue without a repositoryId whose repositoryName is another repository's (red team, borderline):
 * not counted, and no PASS (exit 7; a FAIL read in scope stands), only where the name is known to differ, i.e. it is the name of another repository of the
 * organization and of none asked for. A name that matches no repository (the spec does not say it is
 * written as the record's `name`) is taken as it is, as an issue without a name is.
 */
import { describe, expect, it } from 'vitest';
import { useFakeServer } from '../../../helpers/fake-server.js';
import { runCli } from '../../../helpers/host.js';
import { repositoryNames, sameRepositoryName } from '../../../../src/commands/gate/scope-repositories.js';
import { Doubts } from '../../../../src/answers/doubts.js';

const fake = useFakeServer();
const REPOS = [{ id: 'repo_a', name: 'a', projectId: 'p' }, { id: 'repo_b', name: 'b', projectId: 'p' }, { id: 'repo_c', name: 'a', projectId: 'p' }];

function serve(issue: Record<string, unknown>): void {
  fake.stub('/api/v1/repositories/list', { json: REPOS });
  const base = { id: 'iss_1', status: 'open', score: 20, generatedTitle: 't', createdAt: '2026-11-20T10:00:00Z' };
  fake.stub('/api/v1/issues/search', { json: { issues: [{ ...base, ...issue }], totalCount: 1, currentPage: 1, pageSize: 500 } });
}
const gate = () => runCli(['gate', '--repository-ids', 'repo_a', '--fail-on', 'high'], { env: fake.env });

describe('gate --repository-ids: an issue without a repositoryId', () => {
  it('named after another repository of the organization: not counted, exit 7, no verdict (it passed)', async () => {
    serve({ repositoryName: 'b' });
    const r = await gate();
    expect([r.code, r.stdout]).toEqual([7, '']);
    expect(r.stderr).toMatch(/gate: no PASS: page 1 holds issue 'iss_1' without a repositoryId, of repository 'b', which is repo_b's name, outside the repositories asked for \('a'\): the service ignored the repositoryIds filter; not counted/);
  });

  it('named after another repository, of score 95: not counted, so no FAIL either (exit 7)', async () => {
    serve({ repositoryName: 'b', score: 95 });
    const r = await gate();
    expect([r.code, r.stdout]).toEqual([7, '']);
  });

  for (const [why, issue] of [
    ['named after the repository asked for', { repositoryName: 'a' }],
    ['named otherwise (owner/name): not known to differ', { repositoryName: 'o/b' }],
    ['without a name', {}],
    ['with the repositoryId asked for (the id is what is checked)', { repositoryId: 'repo_a', repositoryName: 'b' }],
  ] as const) {
    it(`${why}: counted, the gate passes`, async () => {
      serve(issue);
      const r = await gate();
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/PASSED/);
    });
  }
});

describe('repositoryNames / sameRepositoryName', () => {
  it('a name shared by a repository asked for and another one is not known to differ', () => {
    const names = repositoryNames(REPOS, ['repo_a'])!;
    expect([...names.asked]).toEqual(['a']);
    expect([...names.others]).toEqual([['b', 'repo_b']]);
    const doubts = new Doubts('gate');
    expect(sameRepositoryName(names, { id: 'x', repositoryName: 'a' }, 1, doubts)).toBe(true);
    expect(doubts.found()).toEqual([]);
    expect(sameRepositoryName(names, { id: 'x', repositoryName: 'b', repositoryId: null }, 2, doubts)).toBe(false);
    expect(doubts.stopping()[0].details[0]).toMatch(/page 2 holds issue 'x'/);
    // Nothing to tell apart: no other named repository.
    expect(repositoryNames([{ id: 'repo_a', name: 'a' }, { id: 'repo_x' }], ['repo_a'])).toBeUndefined();
  });
});
