import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectCi, groupLines } from '../../../src/ci/detect.js';
import { appendSummary } from '../../../src/ci/step-summary.js';

const HOSTA = { CI: 'true', HOSTA_ACTIONS: 'true', HOSTA_STEP_SUMMARY: '/tmp/summary.md', HOSTA_SERVER_URL: 'https://hosta.example/', HOSTA_REPOSITORY: 'team/api', HOSTA_SHA: 'abc123' };
const HOSTB = { CI: 'true', HOSTB_CI: 'true', CI_PROJECT_URL: 'https://hostb.example/group/api', CI_COMMIT_SHA: 'def456' };

describe('CI detection', () => {
  it("host A's runner: step summary, repository URL, commit, annotations and groups", () => {
    expect(detectCi(HOSTA)).toEqual({
      kind: 'hosta', name: "host A's runner", stepSummary: '/tmp/summary.md', repositoryUrl: 'https://hosta.example/team/api',
      vcs: 'hosta', commit: 'abc123', groups: 'hosta', annotations: true,
    });
  });

  it("host B's CI: repository URL, commit, sections, no annotations", () => {
    expect(detectCi(HOSTB)).toEqual({ kind: 'hostb', name: "host B's CI", repositoryUrl: 'https://hostb.example/group/api', vcs: 'hostb', commit: 'def456', groups: 'hostb', annotations: false });
  });

  it('any other CI: generic', () => {
    expect(detectCi({ CI: 'true' })?.kind).toBe('generic');
    expect(detectCi({ CI: '1' })?.kind).toBe('generic');
    expect(detectCi({ BUILD_NUMBER: '12' })?.kind).toBe('generic');
    expect(detectCi({ HOSTC_BUILD_NUMBER: '3', HOSTC_GIT_HTTP_ORIGIN: 'https://hostc.example/t/r.git' })).toMatchObject({ kind: 'hostc', repositoryUrl: 'https://hostc.example/t/r', vcs: 'hostc' });
  });

  it('not CI: nothing set, CI=false, --no-ci, SVC_NO_CI', () => {
    expect(detectCi({})).toBeUndefined();
    expect(detectCi({ CI: '' })).toBeUndefined();
    expect(detectCi({ CI: 'false' })).toBeUndefined();
    expect(detectCi({ ...HOSTA, CI: 'false' })).toBeUndefined();
    expect(detectCi(HOSTA, { disabled: true })).toBeUndefined();
    expect(detectCi({ ...HOSTA, SVC_NO_CI: '1' })).toBeUndefined();
    expect(detectCi({ ...HOSTA, SVC_NO_CI: '0' })?.kind).toBe('hosta');
    // Only the exact value the runner sets.
    expect(detectCi({ HOSTA_ACTIONS: 'yes' })).toBeUndefined();
  });

  it('groups: ::group:: on host A, collapsed sections on host B, nothing elsewhere', () => {
    expect(groupLines(detectCi(HOSTA), 'svc-gate', 'svc gate: issues', 0)).toEqual({ start: '::group::svc gate: issues\n', end: '::endgroup::\n' });
    const b = groupLines(detectCi(HOSTB), 'svc gate', 'svc gate: issues', 1_700_000_000_000);
    expect(b.start).toBe('\u001b[0Ksection_start:1700000000:svc_gate[collapsed=true]\r\u001b[0Ksvc gate: issues\n');
    expect(b.end).toBe('\u001b[0Ksection_end:1700000000:svc_gate\r\u001b[0K\n');
    expect(groupLines(detectCi({ CI: 'true' }), 'x', 'y', 0)).toEqual({ start: '', end: '' });
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
