import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { useFakeServices, type FakeService, type Issue } from '../helpers/fake-service.js';
import { runCli, type CliResult } from '../helpers/host.js';
import { oasisRegionProblems, schemaErrors } from '../unit/gate/reports/sarif-schema.js';
import { tempDir } from '../helpers/temp.js';

// The scripted service on a MockAgent: the gate's reading, checks and reports are in-process; nothing here needs a socket.
const fake = useFakeServices({ mock: true });

let n = 0;
function issue(score: number | undefined, extra: Partial<Issue> = {}): Issue {
  n++;
  const out: Issue = {
    id: `iss-${n}`, status: 'open', generatedTitle: `Issue number ${n}`, vulnClass: 'SQL Injection', cwes: ['CWE-89'],
    affectedFile: `src/f${n}.ts`, startLine: n, createdAt: new Date(Date.UTC(2024, 0, 1, 0, 0, n)).toISOString(), repositoryId: 'repo-1',
    codeScan: { id: 'scan-1' }, ...extra,
  };
  if (score !== undefined) out.score = score;
  return out;
}

/** 1 critical, 2 high, 3 medium, 1 low, 1 info open; 1 critical patched (not counted). */
function baseSet(): Issue[] {
  return [issue(95), issue(75), issue(89), issue(40), issue(55), issue(69), issue(10), issue(3), issue(99, { status: 'patched' })];
}

function gate(s: FakeService, args: string[], env: Record<string, string> = {}, cwd?: string): Promise<CliResult> {
  return runCli(['gate', ...args], { env: { ...s.env, ...env }, cwd, dispatcher: s.dispatcher });
}

const LEVEL_SCORES = { critical: 90, high: 70, medium: 40, low: 10, info: 0 } as const;
const BELOW = { critical: 89.9, high: 69, medium: 39, low: 9.5 } as const;

describe('svc gate: --fail-on', () => {
  for (const level of ['critical', 'high', 'medium', 'low'] as const) {
    it.concurrent(`--fail-on ${level}: passes with issues just below it, fails with one at it`, async () => {
      const below = await fake([issue(BELOW[level]), issue(BELOW[level])]);
      const pass = await gate(below, ['--fail-on', level]);
      expect(pass.stderr).toBe('');
      expect(pass.code).toBe(0);
      expect(pass.stdout).toMatch(/^svc gate: PASSED/);

      const at = await fake([issue(BELOW[level]), issue(LEVEL_SCORES[level])]);
      const fail = await gate(at, ['--fail-on', level]);
      expect(fail.code).toBe(1);
      expect(fail.stdout).toMatch(/^svc gate: FAILED/);
      expect(fail.stdout).toContain(`1 issue at ${level} or above (fail-on ${level})`);
      expect(fail.stderr).toBe(`svc: error: gate failed: 1 issue at ${level} or above (fail-on ${level})\n`);
    });
  }

  it.concurrent('--fail-on info: fails on any open issue, passes on none', async () => {
    expect((await gate(await fake([issue(0)]), ['--fail-on', 'info'])).code).toBe(1);
    const none = await gate(await fake([issue(99, { status: 'archived' })]), ['--fail-on', 'info']);
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/read 0 of 0/);
  });

  it.concurrent('an issue without a score counts as critical (fail closed)', async () => {
    const r = await gate(await fake([issue(undefined)]), ['--fail-on', 'critical']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/critical\s+1\s+fail-on\s+FAIL/);
  });

  it.concurrent('--levels moves the cut-offs', async () => {
    const s = await fake([issue(85)]);
    expect((await gate(s, ['--fail-on', 'critical'])).code).toBe(0);
    expect((await gate(s, ['--fail-on', 'critical', '--levels', 'critical=80,high=60'])).code).toBe(1);
  });
});

describe('svc gate: --max-*', () => {
  const AT_LIMITS = ['--max-critical', '1', '--max-high', '2', '--max-medium', '3', '--max-low', '1', '--max-info', '1', '--max-total', '8'];

  it.concurrent('passes when every count is at its limit; counts only open issues', async () => {
    const s = await fake(baseSet());
    const r = await gate(s, AT_LIMITS);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/critical\s+1\s+max 1\s+ok/);
    expect(r.stdout).toMatch(/total\s+8\s+max 8\s+ok/);
    const bodies = s.searches().map((q) => q.body);
    expect(bodies[0]).toMatchObject({ organizationId: 'org-1', types: ['open'], sortBy: 'createdAt', sortOrder: 'asc', page: 1, pageSize: 500 });
  });

  for (const [flag, key, count] of [['--max-critical', 'critical', 1], ['--max-high', 'high', 2], ['--max-medium', 'medium', 3], ['--max-low', 'low', 1], ['--max-info', 'info', 1], ['--max-total', 'open', 8]] as const) {
    it.concurrent(`${flag} ${count - 1} fails with ${count}`, async () => {
      const args = [...AT_LIMITS];
      args[args.indexOf(flag) + 1] = String(count - 1);
      const r = await gate(await fake(baseSet()), args);
      expect(r.code).toBe(1);
      const violation = `${count} ${key} issue${count === 1 ? '' : 's'} > max ${count - 1}`;
      expect(r.stdout).toContain(`  - ${violation}`);
      expect(r.stderr).toBe(`svc: error: gate failed: ${violation}\n`);
    });
  }
});

describe('svc gate: usage', () => {
  it.concurrent('without a threshold: exit 2 before any request', async () => {
    const s = await fake(baseSet());
    const r = await gate(s, ['--repository-ids', 'repo-1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('svc: error: no threshold given: a gate without one would pass everything; give --fail-on LEVEL or a --max-* limit, e.g. --fail-on high, or set fail-on/max in a policy file (.svc-policy.yml)\n');
    expect(s.requests).toEqual([]);
  });

  it.concurrent('bad values, --annotations with -o json, and unwritable report paths: exit 2, nothing sent', async () => {
    const s = await fake(baseSet());
    for (const args of [['--fail-on', 'severe'], ['--max-high', 'x'], ['--fail-on', 'high', '--annotations', '-o', 'json'],
      ['--fail-on', 'high', '--sarif', '/nonexistent-dir/x.sarif'], ['--fail-on', 'high', '--sarif', 'a', '--junit', 'a'],
      ['--fail-on', 'high', '--concurrency', '0']]) {
      const r = await gate(s, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
    }
    expect(s.requests).toEqual([]);
  });

  it.concurrent('sends the scope flags of issues search, and always types: ["open"]', async () => {
    const s = await fake([...baseSet(), issue(20, { repositoryId: 'repo-2' })]);
    s.scan.pollsUntilDone = 0; // the scan has finished (a running one is exit 8)
    const r = await gate(s, ['--fail-on', 'high', '--repository-ids', 'repo-1,repo-2', '--scan-id', 'scan-1', '--languages', 'go',
      '--code-scan-types', 'FullScan', '--vulnerability-classes', 'XSS', '--rule-id', 'r1', '--search-query', 'q', '--project-id', 'proj-1', '--organization-id', 'org-1']);
    expect(r.code, r.stderr).toBe(1);
    // The scope was verified first (organization, repositories and project, rule, scan), then counted.
    // (The listing fits one page whose total is its length: page 2 is asked for too, and is empty.)
    expect(s.requests.map((q) => q.path.replace('/api/v1/', ''))).toEqual(['orgs/list', 'repositories/list', 'issues/search', 'scans/list', 'issues/search', 'issues/search']);
    const counting = {
      organizationId: 'org-1', repositoryIds: ['repo-1', 'repo-2'], scanId: 'scan-1', projectId: 'proj-1', codeScanTypes: ['FullScan'],
      vulnerabilityClasses: ['XSS'], languages: ['go'], ruleId: 'r1', searchQuery: 'q', types: ['open'], getCounts: true,
      sortBy: 'createdAt', sortOrder: 'asc', page: 1, pageSize: 500,
    };
    expect(s.searches().at(-2)!.body).toEqual(counting);
    expect(s.searches().at(-1)!.body).toEqual({ ...counting, page: 2 });
  });
});

describe('svc gate: output and reports', () => {
  it.concurrent('-o json: the verdict as data', async () => {
    const r = await gate(await fake(baseSet()), ['--fail-on', 'high', '-o', 'json']);
    expect(r.code).toBe(1);
    const v = JSON.parse(r.stdout);
    expect(v).toMatchObject({
      passed: false,
      counts: { critical: 1, high: 2, medium: 3, low: 1, info: 1, total: 8 },
      thresholds: { failOn: 'high', max: {}, cutoffs: { critical: 90, high: 70, medium: 40, low: 10 } },
      violations: ['3 issues at high or above (fail-on high)'],
      scope: { organizationId: 'org-1', types: ['open'] },
      fetched: 8,
      totalCount: 8,
    });
    expect(v.breaking.map((i: { score: number; level: string }) => [i.score, i.level])).toEqual([[95, 'critical'], [89, 'high'], [75, 'high']]);
  });

  it.concurrent('-o csv: the breaking issues', async () => {
    const r = await gate(await fake(baseSet()), ['--fail-on', 'critical', '-o', 'csv']);
    expect(r.stdout.split('\n')[0]).toBe('level,score,id,vulnClass,repositoryName,affectedFile,startLine,generatedTitle');
    expect(r.stdout.split('\n')[1]).toMatch(/^critical,95,iss-\d+,SQL Injection,,src\/f\d+\.ts,\d+,Issue number \d+$/);
  });

  it.concurrent('writes SARIF, JUnit and markdown in one run, and annotations after the summary', async () => {
    const dir = tempDir('svc-gate-');
    const r = await gate(await fake(baseSet()), ['--fail-on', 'high', '--sarif', 'out.sarif', '--junit', 'junit.xml', '--markdown', 'summary.md', '--annotations'], {}, dir);
    expect(r.code).toBe(1);

    const sarif = JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8'));
    expect(schemaErrors(sarif)).toEqual([]);
    expect(oasisRegionProblems(sarif)).toEqual([]);
    expect(sarif.runs[0].results).toHaveLength(8);
    expect(sarif.runs[0].results.filter((x: { level: string }) => x.level === 'error')).toHaveLength(3);
    expect(sarif.runs[0].properties.gate).toMatchObject({ passed: false, counts: { total: 8 } });

    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const junit = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testcase' }).parse(xml);
    expect(junit.testsuites['@_tests']).toBe('9');
    expect(junit.testsuites['@_failures']).toBe('4');
    expect(junit.testsuites.testsuite.testcase.filter((t: { failure?: unknown }) => t.failure)).toHaveLength(4);

    const md = readFileSync(join(dir, 'summary.md'), 'utf8');
    expect(md).toMatch(/^### ❌ svc gate failed/);
    expect(md).toContain('| high | 2 | fail-on | ❌ |');

    const lines = r.stdout.trimEnd().split('\n');
    const firstAnnotation = lines.findIndex((l) => l.startsWith('::'));
    expect(lines[0]).toBe('svc gate: FAILED');
    expect(firstAnnotation).toBeGreaterThan(5);
    expect(lines.slice(firstAnnotation).filter((l) => l.startsWith('::error '))).toHaveLength(3);
    expect(lines.slice(firstAnnotation).every((l) => l.startsWith('::'))).toBe(true);
    expect(r.stderr).toContain('wrote the SARIF report');
  });

  it.concurrent('a passing gate writes passing reports', async () => {
    const dir = tempDir('svc-gate-');
    const r = await gate(await fake(baseSet()), ['--max-total', '8', '--junit', 'j.xml', '--markdown', 's.md'], {}, dir);
    expect(r.code).toBe(0);
    const junit = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(join(dir, 'j.xml'), 'utf8'));
    expect(junit.testsuites['@_failures']).toBe('0');
    expect(readFileSync(join(dir, 's.md'), 'utf8')).toMatch(/^### ✅ svc gate passed/);
  });

  it.concurrent('reads every page of a large scope (many pages, concurrency) before deciding', async () => {
    const many = Array.from({ length: 1234 }, (_, i) => issue(i === 1200 ? 95 : 20));
    const s = await fake(many);
    const r = await gate(s, ['--fail-on', 'critical', '--page-size', '100', '-o', 'json']);
    expect(r.code).toBe(1);
    const v = JSON.parse(r.stdout);
    expect(v).toMatchObject({ fetched: 1234, totalCount: 1234, counts: { critical: 1, low: 1233 } });
    expect(s.searches().map((q) => q.body.page).sort((a, b) => Number(a) - Number(b))).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
  });
});

describe('svc gate: fail closed', () => {
  async function failClosed(setup: (s: FakeService) => void, env: Record<string, string> = {}, extra: string[] = []) {
    const dir = tempDir('svc-gate-');
    const s = await fake(Array.from({ length: 30 }, () => issue(20)));
    setup(s);
    // thresholds that this scope would pass: only a complete count may say so
    const r = await gate(s, ['--max-critical', '0', '--page-size', '10', '--sarif', 'out.sarif', '--junit', 'j.xml', '--markdown', 's.md', ...extra], env, dir);
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n').filter((l) => l.startsWith('svc: error:'))).toHaveLength(1);
    expect(r.stderr).not.toContain(s.env.SVC_API_TOKEN_SECRET);
    expect(existsSync(join(dir, 'out.sarif'))).toBe(false);
    const junit = readFileSync(join(dir, 'j.xml'), 'utf8');
    expect(XMLValidator.validate(junit)).toBe(true);
    expect(junit).toContain('errors="1"');
    expect(junit).toContain('<error message="gate could not be decided:');
    expect(readFileSync(join(dir, 's.md'), 'utf8')).toMatch(new RegExp(`^### ⚠️ svc gate could not decide[\\s\\S]*exit code ${r.code}, no verdict`));
    return r;
  }

  it.concurrent('401: exit 3', async () => {
    const r = await failClosed(() => {}, { SVC_API_TOKEN_SECRET: 'wrong-secret' });
    expect(r.code).toBe(3);
    // The first request is the scope check: it is refused like any other.
    expect(r.stderr).toMatch(/svc: error: orgs\/list failed: HTTP 401: invalid token/);
  });

  it.concurrent('500 on every try: exit 6', async () => {
    const r = await failClosed((s) => { s.faults.status = 500; }, {}, ['--retries', '0']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/HTTP 500/);
  });

  it.concurrent('totalCount larger than what is served (truncated pagination): exit 7', async () => {
    const r = await failClosed((s) => { s.faults.extraTotal = 5; });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/svc: error: gate: page 4 held 0 items, expected 5 \(totalCount 35, page size 10\); items are missing/);
  });

  it.concurrent('a page cut short: exit 7', async () => {
    const r = await failClosed((s) => { s.faults.shortPage = 2; });
    expect(r.code).toBe(7);
  });

  it.concurrent('totalCount changing while reading: exit 7', async () => {
    const r = await failClosed((s) => { s.faults.totalChangesAtPage = 3; });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/the listing changed while it was read \(totalCount was 30 on page 1, 31 on page 3\)/);
  });

  it.concurrent('no totalCount at all: exit 7', async () => {
    const r = await failClosed((s) => { s.faults.noTotal = true; });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/no PASS: the service reported no totalCount/);
  });

  it.concurrent('an item served twice (order shifted): exit 7', async () => {
    const r = await failClosed((s) => { s.faults.shiftAtPage = 2; });
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/came twice/);
  });

  it.concurrent('a stale SARIF file is neither replaced by a passing one nor left as this run\'s when the gate cannot decide', async () => {
    const dir = tempDir('svc-gate-');
    writeFileSync(join(dir, 'out.sarif'), 'old');
    const s = await fake([issue(20)]);
    s.faults.extraTotal = 1;
    const r = await gate(s, ['--fail-on', 'high', '--sarif', 'out.sarif'], {}, dir);
    expect(r.code).toBe(7);
    // Removed, and said: a CI step that uploads the file when it exists would publish the old one.
    expect(existsSync(join(dir, 'out.sarif'))).toBe(false);
    expect(r.stderr).toMatch(/removed .*out\.sarif: a report of an earlier run/);
  });

  it.concurrent('a page that fails once is asked for again (only that page), and the gate decides', async () => {
    const s = await fake(Array.from({ length: 30 }, () => issue(20)));
    s.faults.failPageOnce = [2];
    const r = await gate(s, ['--max-critical', '0', '--page-size', '10']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/warning: issues\/search failed: HTTP 500.*retrying/);
    const pages = s.searches().map((q) => q.body.page);
    expect(pages.filter((p) => p === 1)).toHaveLength(1);
    expect(pages.filter((p) => p === 2)).toHaveLength(2);
    expect(pages.filter((p) => p === 3)).toHaveLength(1);
  });
});

describe('the CI job of the README, end to end', () => {
  // The job's two commands in turn, as its shell runs them (`set -e`: the first to fail ends the job,
  // with its exit code), in-process against the scripted service. The same job through a real shell,
  // with the built svc on PATH, is test/e2e/ci-job.test.ts.
  it.concurrent('scan and wait, then gate with a SARIF report: fails the job on a high issue, passes without', async () => {
    const dir = tempDir('svc-ci-');
    const runJob = async (s: FakeService, summary: string) => {
      const env = { ...s.env, SVC_ORGANIZATION_ID: undefined, CI: 'true' };
      const job = [
        ['scans', 'start', '--repository-ids', 'repo-1', '--wait', '--poll-interval', '0.1'],
        ['gate', '--repository-ids', 'repo-1', '--fail-on', 'high', '--sarif', 'svc.sarif', '--markdown', join(dir, summary)],
      ];
      let stdout = '';
      let stderr = '';
      for (const argv of job) {
        const r = await runCli(argv, { env, cwd: dir, dispatcher: s.dispatcher, clock: 'fake' });
        stdout += r.stdout;
        stderr += r.stderr;
        if (r.code !== 0) return { code: r.code, stdout, stderr };
      }
      return { code: 0, stdout: `${stdout}job-finished\n`, stderr };
    };

    const failing = await fake([issue(30), issue(72, { repositoryId: 'repo-1' }), issue(99, { repositoryId: 'repo-2' })]);
    const bad = await runJob(failing, 'bad.md');
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^scan-new-1\nsvc gate: FAILED\n/);
    expect(bad.stdout).not.toContain('job-finished');
    expect(bad.stderr).toMatch(/scan scan-new-1: completed/);
    expect(bad.stderr.trimEnd().split('\n').pop()).toBe('svc: error: gate failed: 1 issue at high or above (fail-on high)');
    const sarif = JSON.parse(readFileSync(join(dir, 'svc.sarif'), 'utf8'));
    expect(schemaErrors(sarif)).toEqual([]);
    expect(sarif.runs[0].results).toHaveLength(2);
    expect(readFileSync(join(dir, 'bad.md'), 'utf8')).toMatch(/^### ❌ svc gate failed/);
    expect(failing.searches()[0].body).toMatchObject({ repositoryIds: ['repo-1'], types: ['open'] });

    const clean = await fake([issue(30), issue(99, { repositoryId: 'repo-2' })]);
    const good = await runJob(clean, 'good.md');
    expect(good.code).toBe(0);
    expect(good.stdout).toMatch(/svc gate: PASSED[\s\S]*job-finished\n$/);
    expect(readFileSync(join(dir, 'good.md'), 'utf8')).toMatch(/^### ✅ svc gate passed/);
  });
});
