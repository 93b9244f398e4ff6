/** The sandbox's pull requests (POST /__sandbox/pull-request): a new head gets a PR scan when PR scanning is on. */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers/sandbox.js';

const sb = useSandbox();
const post = async (body: unknown) => {
  const r = await fetch(`${sb.url}/__sandbox/pull-request`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json() as Record<string, unknown> };
};

describe('POST /__sandbox/pull-request', () => {
  it('a head of a repository with PR scanning on gets a PR scan of that commit, which lists the findings given once it completes', async () => {
    const repo = sb.state.repos.find((r) => r.organizationId === sb.organizationId && r.isPrScanningEnabled)!;
    const sha = 'abcdef0123456789abcdef0123456789abcdef01';
    const r = await post({ repositoryUrl: `${repo.url}.git`, headSha: sha.toUpperCase(), headBranch: 'feat', findings: [{ score: 97, affectedFile: 'a/b.js', startLine: 3, generatedTitle: 'T' }, {}] });
    expect(r).toMatchObject({ status: 200, json: { ok: true, prScanning: true, repositoryId: repo.id } });
    const listed = await sb.runJson(['scans', 'list', '--scan-id', String(r.json.scanId)]);
    expect(listed.codeScans[0]).toMatchObject({ codeScanType: 'PrScan', status: 'running', scanTargetBranch: 'feat', prTargetBranch: repo.defaultScanTargetBranch, commitSha: sha });
    sb.advance(120_000);
    const done = await sb.runJson(['scans', 'list', '--scan-id', String(r.json.scanId)]);
    expect(done.codeScans[0]).toMatchObject({ status: 'completed', finished: true, issueCounts: { open: 2 } });
    const found = await sb.runJson(['issues', 'search', '--scan-id', String(r.json.scanId), '--sort-by', 'score']);
    // A startLine alone is a one-line span, not the generated issue's (which ran on past short files).
    expect(found.issues[0]).toMatchObject({ score: 97, affectedFile: 'a/b.js', startLine: 3, endLine: 3, generatedTitle: 'T', codeScan: { id: r.json.scanId, scanTargetBranchCommitSha: sha } });
  });

  it('a finding\'s span is the one given: endLine, startColumn and endColumn', async () => {
    const repo = sb.state.repos.find((r) => r.organizationId === sb.organizationId && r.isPrScanningEnabled)!;
    const findings = [
      { score: 99, affectedFile: 'src/a.js', startLine: 40, endLine: 44, startColumn: 5, endColumn: 2 },
      { score: 98, affectedFile: 'src/b.js', startLine: 7, startColumn: 3, endColumn: 18 },
      { score: 97, affectedFile: 'src/c.js', startLine: 9, startColumn: 95 },
    ];
    const r = await post({ repositoryId: repo.id, headSha: 'abcdef0123456789abcdef0123456789abcdef02', headBranch: 'span', findings });
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    sb.advance(120_000);
    const found = await sb.runJson(['issues', 'search', '--scan-id', String(r.json.scanId), '--sort-by', 'score', '--sort-order', 'desc']);
    const spans = found.issues.map((i: Record<string, unknown>) => [i.affectedFile, i.startLine, i.endLine, i.startColumn, i.endColumn]);
    // A start column past the generated end (on one line): the end follows it.
    expect(spans).toEqual([['src/a.js', 40, 44, 5, 2], ['src/b.js', 7, 7, 3, 18], ['src/c.js', 9, 9, 95, 95]]);
  });

  it('a bad span is 400 naming the field', async () => {
    const repo = sb.state.repos.find((r) => r.organizationId === sb.organizationId && r.isPrScanningEnabled)!;
    const bad = async (finding: Record<string, unknown>) => (await post({ repositoryId: repo.id, headSha: 'abcdef0', headBranch: 'x', findings: [finding] })).json.error;
    expect(await bad({ startLine: 5, endLine: 0 })).toBe('findings[0].endLine is a line number (1 or more)');
    expect(await bad({ startLine: 5, endLine: 4 })).toBe('findings[0].endLine is before its startLine');
    expect(await bad({ endLine: 4 })).toBe('findings[0].endLine needs a startLine');
    expect(await bad({ startLine: 5, startColumn: 1.5 })).toBe('findings[0].startColumn is a column number (1 or more)');
    expect(await bad({ startLine: 5, startColumn: 9, endColumn: 3 })).toBe('findings[0].endColumn is before its startColumn on the same line');
  });

  it('PR scanning off: no scan; bad bodies are 400 naming the field, an unknown repository 404', async () => {
    const off = sb.state.repos.find((r) => r.organizationId === sb.organizationId && !r.isPrScanningEnabled)!;
    expect(await post({ repositoryId: off.id, headSha: 'abcdef0', headBranch: 'x' })).toEqual({ status: 200, json: { ok: true, prScanning: false, repositoryId: off.id } });
    expect((await post({ repositoryId: off.id, headSha: 'nope', headBranch: 'x' })).json.error).toMatch(/headSha/);
    expect((await post({ repositoryId: off.id, headSha: 'abcdef0' })).json.error).toMatch(/headBranch/);
    expect((await post({ headSha: 'abcdef0', headBranch: 'x' })).json.error).toMatch(/repositoryId/);
    expect((await post({ repositoryId: off.id, headSha: 'abcdef0', headBranch: 'x', findings: [{ score: 200 }] })).json.error).toMatch(/findings\[0\]\.score/);
    expect(await post({ repositoryId: 'repo_nope', headSha: 'abcdef0', headBranch: 'x' })).toMatchObject({ status: 404 });
  });
});
