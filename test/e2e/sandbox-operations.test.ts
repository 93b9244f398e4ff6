/**
 * Every operation of the CLI, run in-process through main() against the sandbox over real HTTP.
 *
 * Every row of the operation table gets a generic run, built from the row alone: its positional and
 * required fields filled from fixtures() (values by field name, read from a freshly seeded sandbox),
 * against a sandbox of its own (so a destructive row deletes nothing another run needs). It must
 * exit 0, with no shape warning on stderr and JSON on stdout. A field the sandbox's handler asks
 * for (its 400 names a missing field) is filled from the same fixtures() and the call is sent again. A
 * row thus needs no case here: adding an operation is its row plus its sandbox handler.
 *
 * CASES below are extra, stronger checks of content for the operations that have them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAllOperations, commandName, type Operation } from '../../src/operations/index.js';
import { flagSpecs } from '../../src/request/flags.js';
import type { IssueRec, RepoRec } from '../../src/sandbox/model.js';
import type { Store } from '../../src/sandbox/state.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { expectedPaths } from '../helpers/spec.js';

const OPERATIONS = await loadAllOperations();
const label = (op: Operation) => `${op.group} ${commandName(op).name}`;

/**
 * Values of request fields, by field name, from a sandbox's seeded state. A generic run takes from
 * here what its row requires (positional, `required`) and what the handler asks for; a row whose
 * field has no value here fails, naming the row and the field: add the value here.
 */
function fixtures(s: Store): Record<string, unknown> {
  const org = s.orgs[0];
  const find = <T>(what: string, found: T | undefined): T => {
    if (found === undefined) throw new Error(`fixtures(): the seeded sandbox has no ${what}`);
    return found;
  };
  const inOrg = (r: RepoRec | undefined) => r?.organizationId === org.id;
  // A linked host A repository with a schedule: setters, branches, schedules, resolve-by-url.
  const repo = find('host A repository with a schedule', s.repos.find((r) => inOrg(r) && r.source === 'hosta' && s.schedule(r.id)));
  // An open issue with a patch: every issue action works on it (approve-patch needs the patch).
  const issue = find('open issue with a patch', s.issues.find((i: IssueRec) => inOrg(s.repo(i.repositoryId)) && i.status === 'open' && i.patch && !i.unpatchable));
  const installation = find('host B installation', s.installations.find((i) => i.organizationId === org.id && i.provider === 'hostb'));
  return {
    organizationId: org.id,
    repositoryId: repo.id,
    repositoryIds: [repo.id],
    repositoryUrl: repo.url,
    vcs: repo.source,
    issueId: issue.id,
    installationId: installation.id,
    name: 'e2e-generic',
    email: 'dev@example.com',
    accessToken: 'e2e-token',
    repos: [{ repositoryUrl: 'https://hostc.example/acme/e2e-linked', repositoryName: 'e2e-linked', defaultBranch: 'main' }],
    severity: 4.5,
    defaultScanTargetBranch: 'develop',
    maxPrTimeoutMinutes: 45,
    prBranchFormat: 'svc/fix-{issueId}',
    prCommitMessageFormat: 'fix: {title}',
    prTitleTemplate: 'Security fix: {title}',
    prDescriptionTemplate: 'Fixes {title}',
    isPrScanningEnabled: true,
    isPrScanSummaryEnabled: true,
    isPrScanCleanSummaryEnabled: true,
    isEnabled: true,
    showCheckStatus: true,
  };
}

/** The command line of one field: its typed flag when the row has one, else -f (strings) or -F (JSON). */
function fieldArgs(op: Operation, key: string, value: unknown): string[] {
  const spec = flagSpecs(op.request.shape).find((f) => f.path.join('.') === key);
  if (!spec) return typeof value === 'string' ? ['-f', `${key}=${value}`] : ['-F', `${key}=${JSON.stringify(value)}`];
  if (spec.kind === 'boolean') return [value ? `--${spec.flag}` : `--no-${spec.flag}`];
  if (spec.kind === 'array') return [`--${spec.flag}`, (value as unknown[]).join(',')];
  if (spec.kind === 'json') return [`--${spec.flag}`, JSON.stringify(value)];
  return [`--${spec.flag}`, String(value)];
}

/** The value of `field` for `op`, or an error that names both. */
function valueFor(op: Operation, values: Record<string, unknown>, field: string, why: string): unknown {
  if (!(field in values)) {
    throw new Error(`${label(op)} (${op.path}): no value for '${field}', which ${why}: add one to fixtures() in test/e2e/sandbox-operations.test.ts`);
  }
  return values[field];
}

/** The generic call of a row: its positional and required fields, plus `extra` (asked for by the handler). */
function genericArgv(op: Operation, values: Record<string, unknown>, extra: string[]): string[] {
  const argv = [op.group, commandName(op).name];
  const fields = [...new Set([...(op.positional ? [op.positional] : []), ...(op.required ?? []), ...extra])];
  for (const key of fields) {
    const value = valueFor(op, values, key, extra.includes(key) && !op.required?.includes(key) ? 'its sandbox handler asks for' : 'the row requires');
    if (key === op.positional && typeof value === 'string') argv.push(value);
    else argv.push(...fieldArgs(op, key, value));
  }
  if (op.destructive) argv.push('--yes');
  return [...argv, '-o', 'json'];
}

let sb: TestSandbox;
let ids: Record<string, string>;

beforeAll(async () => {
  sb = await startTestSandbox();
  const s = sb.state;
  const org = s.orgs[0].id;
  const mine = (r: RepoRec) => r.organizationId === org;
  const repo = (source: string) => s.repos.find((r) => mine(r) && r.source === source)!;
  const withSchedule = s.repos.find((r) => mine(r) && s.schedule(r.id))!;
  const used = new Set<string>();
  const issue = (ok: (i: IssueRec) => boolean) => {
    const found = s.issues.find((i) => !used.has(i.id) && s.repo(i.repositoryId)!.organizationId === org && ok(i))!;
    used.add(found.id);
    return found.id;
  };
  const scratch = (await sb.call('/api/v1/repositories/create-standalone', { name: 'to-delete' })).json.id;
  ids = {
    org,
    spareOrg: s.orgs[2].id,
    hosta: repo('hosta').id,
    hostaUrl: repo('hosta').url,
    hostb: repo('hostb').id,
    scheduled: withSchedule.id,
    scratch,
    hostbInstallation: s.installations.find((i) => i.provider === 'hostb' && i.organizationId === org)!.id,
    get: issue(() => true),
    archive: issue((i) => i.status === 'open'),
    unarchive: issue((i) => i.status === 'archived'),
    truePositive: issue((i) => i.status === 'falsePositive'),
    falsePositive: issue((i) => i.status === 'open'),
    generatePatch: issue((i) => i.status === 'open' && !i.patch && !i.unpatchable),
    approvePatch: issue((i) => i.patch !== null),
    severity: issue((i) => i.status === 'open'),
  };
});

afterAll(async () => {
  await sb?.close();
});

type Check = (out: any) => void;
const ok: Check = (out) => expect(out).toMatchObject({ ok: true });
const hasId: Check = (out) => expect(out.id).toMatch(/^\w+_[0-9a-f]{8}$/);
const idList: Check = (out) => { expect(Array.isArray(out)).toBe(true); expect(out[0].id).toMatch(/^repo_/); };

/** [command, argv (after `svc`), check of the parsed JSON output]. */
const CASES: Array<[string, () => string[], Check]> = [
  ['orgs list', () => ['orgs', 'list'], (out) => expect(out.map((o: any) => o.id)).toContain(ids.org)],
  ['orgs create', () => ['orgs', 'create', '--name', 'E2E team'], (out) => { hasId(out); expect(out.name).toBe('E2E team'); }],
  ['orgs invite', () => ['orgs', 'invite', '--email', 'dev@example.com', '--role', 'admin'], (out) => expect(out).toMatchObject({ ok: true, email: 'dev@example.com', role: 'admin' })],
  ['orgs delete', () => ['orgs', 'delete', ids.spareOrg, '--yes'], ok],
  ['repos list', () => ['repos', 'list'], (out) => { expect(out.length).toBeGreaterThan(3); expect(out[0].issueCounts).toHaveProperty('open'); }],
  ['repos add-hosta', () => ['repos', 'add-hosta', '-F', 'repos=[{"repositoryUrl":"https://hosta.example/acme/new-a"}]'], idList],
  ['repos add-hostb', () => ['repos', 'add-hostb', '-F', 'repos=[{"repositoryUrl":"https://hostb.example/acme/new-b","repositoryName":"new-b"}]'], idList],
  ['repos add-hostc', () => ['repos', 'add-hostc', '--repos', '[{"repositoryUrl":"https://hostc.example/acme/new-c","repositoryName":"new-c","defaultBranch":"main"}]'], idList],
  ['repos add-hosta-pat', () => ['repos', 'add-hosta-pat', '-f', 'repositoryUrl=https://hosta.example/acme/pat-repo', '-f', 'accessToken=test-pat'], hasId],
  ['repos create-standalone', () => ['repos', 'create-standalone', '-f', 'name=scratch'], hasId],
  ['repos delete', () => ['repos', 'delete', ids.scratch, '--yes'], ok],
  ['repos set-scan-branch', () => ['repos', 'set-scan-branch', ids.hosta, '--default-scan-target-branch', 'develop'], ok],
  ['repos set-pr-scanning', () => ['repos', 'set-pr-scanning', ids.hosta, '--no-is-pr-scanning-enabled'], ok],
  ['repos set-pr-scan-issue-summary', () => ['repos', 'set-pr-scan-issue-summary', ids.hosta, '--is-pr-scan-summary-enabled'], ok],
  ['repos set-pr-scan-clean-summary', () => ['repos', 'set-pr-scan-clean-summary', ids.hosta, '--is-pr-scan-clean-summary-enabled'], ok],
  ['repos set-pr-scan-summaries-enabled', () => ['repos', 'set-pr-scan-summaries-enabled', ids.hostb, '--is-enabled'], ok],
  ['repos set-max-pr-timeout', () => ['repos', 'set-max-pr-timeout', ids.hosta, '--max-pr-timeout-minutes', '45'], ok],
  ['repos reset-scanner-settings', () => ['repos', 'reset-scanner-settings', '--repository-ids', ids.hostb, '--yes'], (out) => expect(out).toMatchObject({ ok: true, repositoryIds: [ids.hostb] })],
  ['repos branches', () => ['repos', 'branches', ids.hosta], (out) => { expect(out.branches.length).toBeGreaterThan(1); expect(out.branches.filter((b: any) => b.isDefault)).toHaveLength(1); }],
  ['repos set-show-check-status', () => ['repos', 'set-show-check-status', ids.hosta, '--show-check-status'], ok],
  ['repos set-pr-branch-format', () => ['repos', 'set-pr-branch-format', ids.hosta, '--pr-branch-format', 'svc/fix-{issueId}'], ok],
  ['repos set-pr-commit-message-format', () => ['repos', 'set-pr-commit-message-format', ids.hosta, '--pr-commit-message-format', 'fix: {title}'], ok],
  ['repos set-pr-title-template', () => ['repos', 'set-pr-title-template', ids.hosta, '--pr-title-template', 'Security fix: {title}'], ok],
  ['repos set-pr-description-template', () => ['repos', 'set-pr-description-template', ids.hosta, '--pr-description-template', 'Fixes {title}'], ok],
  ['repos resolve-by-url', () => ['repos', 'resolve-by-url', ids.hostaUrl + '.git', '--vcs', 'hosta'], (out) => expect(out.repositoryId).toBe(ids.hosta)],
  ['installations repositories', () => ['installations', 'repositories', '--app-id', '4711'], (out) => { expect(out.length).toBeGreaterThan(0); expect(out[0]).toHaveProperty('fullName'); }],
  ['installations create-hostb-installation', () => ['installations', 'create-hostb-installation', '-f', 'name=ci workspace'], hasId],
  ['installations update-hostb-installation', () => ['installations', 'update-hostb-installation', '-f', `installationId=${ids.hostbInstallation}`, '-f', 'name=renamed'], (out) => expect(out.id).toBe(ids.hostbInstallation)],
  ['installations create-hosta-installation', () => ['installations', 'create-hosta-installation', '-F', 'appId=9001'], hasId],
  ['installations create-hostc-token-installation', () => ['installations', 'create-hostc-token-installation', '-f', 'workspace=acme', '-f', 'accessToken=t'], ok],
  ['installations create-hostc-oauth-installation', () => ['installations', 'create-hostc-oauth-installation', '-f', 'clientId=c1'], hasId],
  ['stats security-posture', () => ['stats', 'security-posture', '--time-granularity', 'month'], (out) => { expect(out.series).toHaveLength(12); expect(out.repositoryRiskScores[0]).toHaveProperty('criticalIssues'); expect(out.exposure).toHaveProperty('oldestCriticalAge'); }],
  ['stats time-saved', () => ['stats', 'time-saved'], (out) => { expect(out.patchesGenerated).toBeGreaterThan(0); expect(out.hoursSaved).toBeGreaterThan(0); }],
  ['stats issues-by-severity', () => ['stats', 'issues-by-severity'], (out) => expect(Object.values(out.severityCounts).reduce((a: number, b: any) => a + b, 0)).toBe(out.total)],
  ['stats issues-by-repository', () => ['stats', 'issues-by-repository', '--severities', 'critical,high'], (out) => { expect(out.repositories.length).toBeGreaterThan(0); expect(out.repositories[0].medium).toBe(0); }],
  ['stats issues-by-author', () => ['stats', 'issues-by-author'], (out) => { expect(out.length).toBeGreaterThan(0); expect(out[0].prAuthor).toMatch(/@example\.com$/); }],
  ['stats issues-by-vuln-class', () => ['stats', 'issues-by-vuln-class'], (out) => expect(out.vulnClasses[0]).toHaveProperty('vulnClass')],
  ['stats top-issues', () => ['stats', 'top-issues', '--type', 'open'], (out) => { expect(out.length).toBe(10); expect(out[0].score).toBeGreaterThanOrEqual(out[9].score); }],
  ['stats summary', () => ['stats', 'summary'], (out) => { expect(out.scans.fullScans).toBeGreaterThan(0); expect(out.issues.open).toBeGreaterThan(0); }],
  ['issues search', () => ['issues', 'search', '--types', 'open', '--page-size', '5', '--get-counts'], (out) => { expect(out.issues).toHaveLength(5); expect(out.issues.every((i: any) => i.status === 'open')).toBe(true); expect(out.categoryCounts.open).toBe(out.totalCount); }],
  ['issues get', () => ['issues', 'get', ids.get], (out) => { expect(out.id).toBe(ids.get); expect(out.generatedDescription.length).toBeGreaterThan(20); }],
  ['issues archive', () => ['issues', 'archive', ids.archive], ok],
  ['issues unarchive', () => ['issues', 'unarchive', ids.unarchive], ok],
  ['issues mark-true-positive', () => ['issues', 'mark-true-positive', ids.truePositive], ok],
  ['issues mark-false-positive', () => ['issues', 'mark-false-positive', ids.falsePositive], ok],
  ['issues generate-patch', () => ['issues', 'generate-patch', ids.generatePatch], ok],
  ['issues approve-patch', () => ['issues', 'approve-patch', ids.approvePatch], (out) => expect(out).toMatchObject({ ok: true })],
  ['issues update-severity', () => ['issues', 'update-severity', ids.severity, '--severity', '3.5'], ok],
  ['scans get-schedule', () => ['scans', 'get-schedule', ids.scheduled], (out) => { expect(out.repoId).toBe(ids.scheduled); expect(out.executionCriteriaCrontab.split(' ')).toHaveLength(5); }],
  ['scans upsert-schedule', () => ['scans', 'upsert-schedule', ids.hostb, '--execution-criteria-crontab', '0 5 * * *', '--timezone', 'Europe/Berlin', '--is-enabled'], ok],
  ['scans start', () => ['scans', 'start', '--repository-ids', ids.hosta], (out) => expect(out.scanId).toMatch(/^scan_/)],
  ['scans list', () => ['scans', 'list', '--page-size', '5'], (out) => { expect(out.codeScans).toHaveLength(5); expect(out.totalCount).toBeGreaterThan(5); expect(out.codeScans[0]).toHaveProperty('issueCounts'); }],
];

describe('every row of the operation table, run from the row alone against a sandbox of its own', () => {
  it('covers every operation the spec and the field notes list (paths read from them)', () => {
    const paths = OPERATIONS.map((op) => op.path).sort();
    const expected = expectedPaths();
    if (expected) {
      expect(expected.filter((p) => !paths.includes(p)), 'spec/field-notes operations without a row').toEqual([]);
      expect(paths.filter((p) => !expected.includes(p)), 'rows whose path the spec and the field notes do not list').toEqual([]);
    }
    expect(OPERATIONS.length).toBeGreaterThan(40);
  });

  it.concurrent.each(OPERATIONS.map((op) => [label(op), op] as const))('svc %s', async (_name, op) => {
    const own = await startTestSandbox({ repos: 6, issues: 60 });
    try {
      const values = fixtures(own.state);
      const extra: string[] = [];
      for (;;) {
        const argv = genericArgv(op, values, extra);
        const r = await own.run(argv);
        const asked = r.code !== 0 && /missing required field '(\w+)'/.exec(r.stderr)?.[1];
        const sent = [op.positional, ...(op.required ?? []), ...extra];
        if (asked && !sent.includes(asked)) {
          extra.push(asked);
          continue;
        }
        expect(r.stderr, `svc ${argv.join(' ')}`).not.toMatch(/error|warning|does not match/i);
        expect(r.code, `svc ${argv.join(' ')}: ${r.stderr}`).toBe(0);
        expect(() => JSON.parse(r.stdout), `svc ${argv.join(' ')}: stdout is not JSON`).not.toThrow();
        // The command reached its row's route (once per try, no other path).
        expect(own.requests(), `svc ${argv.join(' ')}`).toEqual({ [op.path]: expect.objectContaining({ received: extra.length + 1 }) });
        return;
      }
    } finally {
      await own.close();
    }
  });
});

describe('extra checks of content, for the operations that have them', () => {
  it('each case names an operation of the table', () => {
    const all = OPERATIONS.map(label);
    expect(CASES.map((c) => c[0]).filter((c) => !all.includes(c)), 'cases for operations the table does not have').toEqual([]);
  });

  it.concurrent.each(CASES)('svc %s', async (name, argv, check) => {
    const r = await sb.run([...argv(), '-o', 'json']);
    expect(r.stderr, `${name}: ${r.stderr}`).not.toMatch(/error|warning|does not match/i);
    expect(r.code).toBe(0);
    check(JSON.parse(r.stdout));
  });

  it('a table on request (-o table) for a listing', async () => {
    const r = await sb.run(['issues', 'search', '--page-size', '3', '-o', 'table']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ID {2,}LEVEL {2,}SCORE {2,}/);
    expect(r.stdout.match(/iss_/g)).toHaveLength(3);
  });
});
