/**
 * `svc gate` against the sandbox (real HTTP, seeded data, state that changes): every level and
 * every --max-* threshold at and one below the count, a scan started and waited on whose issues
 * the gate then sees, reports checked against the SARIF 2.1.0 schema and parsed as XML, and the
 * fail-closed cases (401, 5xx, a listing that changes or breaks between pages) never exit 0 or 1.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { oasisRegionProblems, schemaErrors } from '../unit/gate/reports/sarif-schema.js';
import { LEVELS, archiveWhere, atOrAbove, busiestRepo, countLevels, levelOf, startGateSandbox, type GateSandbox, type Level } from '../helpers/sandbox-scope.js';
import { tempDir } from '../helpers/temp.js';

const sandboxes: GateSandbox[] = [];
afterAll(async () => { await Promise.all(sandboxes.splice(0).map((s) => s.close())); });

async function sandbox(o: Parameters<typeof startGateSandbox>[0] = {}): Promise<GateSandbox> {
  const sb = await startGateSandbox(o);
  sandboxes.push(sb);
  return sb;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const failOnViolation = (n: number, level: Level) => `${plural(n, 'issue')} at ${level === 'info' ? 'any level' : `${level} or above`} (fail-on ${level})`;

async function gateJson(sb: GateSandbox, args: string[]) {
  const r = await sb.run(['gate', ...args, '-o', 'json']);
  expect([0, 1], r.stderr).toContain(r.code);
  return { code: r.code, stderr: r.stderr, v: JSON.parse(r.stdout) };
}

describe('svc gate against the sandbox: thresholds', () => {
  it.concurrent('--fail-on: fails at each level while an open issue is at or above it, passes once none is', async () => {
    const sb = await sandbox();
    const { repoId, counts } = await busiestRepo(sb);
    const scope = ['--repository-ids', repoId, '--page-size', '20'];
    const failOn = (level: Level) => gateJson(sb, [...scope, '--fail-on', level]);

    // Every level fails on the seeded data, counting the issues at or above it.
    const initial = await Promise.all(LEVELS.map(failOn));
    LEVELS.forEach((level, k) => {
      expect(initial[k].code, `--fail-on ${level}`).toBe(1);
      expect(initial[k].v).toMatchObject({ passed: false, counts, fetched: counts.total, totalCount: counts.total });
      expect(initial[k].v.violations).toEqual([failOnViolation(atOrAbove(counts, level), level)]);
    });

    // Level by level from the top: archive the level's open issues (as fixing them would), then that
    // level passes and the next one down still fails, with only its own issues.
    for (const [k, level] of LEVELS.entries()) {
      expect(archiveWhere(sb, repoId, (i) => levelOf(i.score) === level)).toBe(counts[level]);
      const next = LEVELS[k + 1];
      const [pass, fail] = await Promise.all([failOn(level), next ? failOn(next) : undefined]);
      expect(pass.code, `--fail-on ${level} after archiving its issues`).toBe(0);
      expect(pass.v).toMatchObject({ passed: true, violations: [], breaking: [] });
      expect(pass.v.counts[level]).toBe(0);
      if (fail && next) {
        expect(fail.code, `--fail-on ${next}`).toBe(1);
        expect(fail.v.violations).toEqual([failOnViolation(counts[next], next)]);
        expect(fail.v.breaking).toHaveLength(counts[next]);
        expect(fail.v.breaking.every((i: { level: string }) => i.level === next)).toBe(true);
      }
    }
    const none = await failOn('info');
    expect(none.v).toMatchObject({ passed: true, fetched: 0, totalCount: 0 });
  });

  it.concurrent('--max-* and --max-total: pass exactly at the count, fail one below it', async () => {
    const sb = await sandbox();
    const { repoId, counts } = await busiestRepo(sb);
    const limits: Array<[string, keyof typeof counts, string]> = [
      ...LEVELS.map((l) => [`--max-${l}`, l, l] as [string, Level, string]),
      ['--max-total', 'total', 'open'],
    ];
    const atLimits = limits.flatMap(([flag, key]) => [flag, String(counts[key])]);
    const scope = ['--repository-ids', repoId, '--page-size', '20'];

    const runs = await Promise.all([
      gateJson(sb, [...scope, ...atLimits]),
      ...limits.map(([flag]) => {
        const args = [...atLimits];
        args[args.indexOf(flag) + 1] = String(Number(args[args.indexOf(flag) + 1]) - 1);
        return gateJson(sb, [...scope, ...args]);
      }),
    ]);
    const [at, ...below] = runs;
    expect(at.code).toBe(0);
    expect(at.v).toMatchObject({ passed: true, counts, violations: [] });
    limits.forEach(([flag, key, word], k) => {
      expect(below[k].code, `${flag} ${counts[key] - 1}`).toBe(1);
      expect(below[k].v.violations).toEqual([`${counts[key]} ${word} issue${counts[key] === 1 ? '' : 's'} > max ${counts[key] - 1}`]);
      expect(below[k].stderr).toBe(`svc: error: gate failed: ${below[k].v.violations[0]}\n`);
    });
  });
});

describe('svc gate against the sandbox: a scan started and waited on', () => {
  it.concurrent('scans start --wait reaches completed; the gate then counts the issues the scan added', async () => {
    const sb = await sandbox({ scanDurationMs: 400 });
    const { repoId, counts } = await busiestRepo(sb);
    const started = await sb.run(['scans', 'start', '--repository-ids', repoId, '--wait', '--poll-interval', '0.1']);
    expect(started.code, started.stderr).toBe(0);
    const scanId = started.stdout.trim();
    expect(scanId).toMatch(/^\S+$/);
    expect(started.stderr).toMatch(new RegExp(`scan ${scanId}: completed`));
    expect(sb.state.scan(scanId)).toMatchObject({ status: 'completed', repositoryId: repoId });

    const added = sb.state.issues.filter((i) => i.scanId === scanId);
    expect(added.length).toBeGreaterThanOrEqual(1);
    expect(added.every((i) => i.status === 'open')).toBe(true);
    const addedCounts = countLevels(added.map((i) => i.score));

    // Gated on that one scan: exactly its issues, --max-total at and one below their number.
    const [onScan, overScan, repoWide] = await Promise.all([
      gateJson(sb, ['--scan-id', scanId, '--max-total', String(added.length)]),
      gateJson(sb, ['--scan-id', scanId, '--max-total', String(added.length - 1)]),
      gateJson(sb, ['--repository-ids', repoId, '--max-total', String(counts.total + added.length)]),
    ]);
    expect(onScan.code).toBe(0);
    expect(onScan.v.counts).toEqual(addedCounts);
    expect(onScan.v.scope).toMatchObject({ scanId, types: ['open'] });
    expect(overScan.code).toBe(1);
    // The repository now holds the seeded open issues plus the new ones.
    expect(repoWide.code).toBe(0);
    expect(repoWide.v.counts.total).toBe(counts.total + added.length);
    for (const l of LEVELS) expect(repoWide.v.counts[l]).toBe(counts[l] + addedCounts[l]);
  });
});

describe('svc gate against the sandbox: reports', () => {
  it.concurrent('SARIF validates against the 2.1.0 schema and lists every open issue; JUnit and markdown agree', async () => {
    const sb = await sandbox();
    const { repoId, ids, counts } = await busiestRepo(sb);
    const dir = tempDir('svc-gate-sb-');
    const r = await sb.run(['gate', '--repository-ids', repoId, '--fail-on', 'high', '--page-size', '20',
      '--sarif', 'out.sarif', '--junit', 'junit.xml', '--markdown', 'summary.md'], { cwd: dir });
    expect(r.code).toBe(1);
    const breaking = counts.critical + counts.high;

    const sarif = JSON.parse(readFileSync(join(dir, 'out.sarif'), 'utf8'));
    expect(schemaErrors(sarif)).toEqual([]);
    expect(oasisRegionProblems(sarif)).toEqual([]);
    const results = sarif.runs[0].results as Array<{ level: string; properties: { issueId: string; level: string } }>;
    expect(results.map((x) => x.properties.issueId).sort()).toEqual([...ids].sort());
    const byLevel = (l: string) => results.filter((x) => x.level === l).length;
    expect({ error: byLevel('error'), warning: byLevel('warning'), note: byLevel('note') })
      .toEqual({ error: breaking, warning: counts.medium, note: counts.low + counts.info });
    expect(sarif.runs[0].properties.gate).toMatchObject({ passed: false, counts });

    const xml = readFileSync(join(dir, 'junit.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const junit = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testcase' }).parse(xml);
    expect(junit.testsuites['@_tests']).toBe(String(counts.total + 1));
    expect(junit.testsuites['@_failures']).toBe(String(breaking + 1));
    const cases = junit.testsuites.testsuite.testcase as Array<{ failure?: unknown }>;
    expect(cases).toHaveLength(counts.total + 1);
    expect(cases.filter((t) => t.failure)).toHaveLength(breaking + 1);

    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toMatch(/^### ❌ svc gate failed/);
  });

  it.concurrent('a passing gate writes a valid SARIF report and a JUnit report without failures', async () => {
    const sb = await sandbox();
    const { repoId, counts } = await busiestRepo(sb);
    const dir = tempDir('svc-gate-sb-');
    const r = await sb.run(['gate', '--repository-ids', repoId, '--max-total', String(counts.total), '--sarif', 'ok.sarif', '--junit', 'ok.xml'], { cwd: dir });
    expect(r.code).toBe(0);
    const sarif = JSON.parse(readFileSync(join(dir, 'ok.sarif'), 'utf8'));
    expect(schemaErrors(sarif)).toEqual([]);
    expect(sarif.runs[0].results).toHaveLength(counts.total);
    expect(sarif.runs[0].properties.gate).toMatchObject({ passed: true });
    const junit = new XMLParser({ ignoreAttributes: false }).parse(readFileSync(join(dir, 'ok.xml'), 'utf8'));
    expect(junit.testsuites['@_failures']).toBe('0');
  });
});

describe('svc gate against the sandbox: fail closed', () => {
  type Scope = Awaited<ReturnType<typeof busiestRepo>>;

  /** A sandbox and its scope, read before any fault is switched on. */
  async function setup(): Promise<{ sb: GateSandbox; scope: Scope }> {
    const sb = await sandbox();
    return { sb, scope: await busiestRepo(sb) };
  }

  /** A gate this scope would pass (no limit is near); only a complete, readable listing may say so. */
  async function failClosed(sb: GateSandbox, scope: Scope, extra: string[] = [], env: Record<string, string> = {}) {
    const dir = tempDir('svc-gate-sb-');
    const r = await sb.run(['gate', '--repository-ids', scope.repoId, '--max-total', String(scope.counts.total + 100), '--page-size', '10',
      '--sarif', 'out.sarif', '--junit', 'j.xml', ...extra], { cwd: dir, env });
    expect(r.code).not.toBe(0);
    expect(r.code).not.toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n').filter((l) => l.startsWith('svc: error:'))).toHaveLength(1);
    expect(existsSync(join(dir, 'out.sarif'))).toBe(false);
    expect(readFileSync(join(dir, 'j.xml'), 'utf8')).toContain('<error message="gate could not be decided:');
    return r;
  }

  /** Switch a fault on once page 1 of the listing has been answered (later pages get it). */
  const afterFirstPage = (sb: GateSandbox, fault: 'invalid-json' | 'truncated') => {
    sb.onLine = (line) => { if (/^POST \/api\/v1\/issues\/search 200 /.test(line) && !sb.faults.fault) sb.setFaults({ fault }); };
  };

  it.concurrent('a wrong token (401): exit 3', async () => {
    const { sb, scope } = await setup();
    const r = await failClosed(sb, scope, [], { SVC_API_TOKEN_SECRET: 'not-the-sandbox-secret' });
    expect(r.code).toBe(3);
    // The first request is the scope check (repositories list): refused like any other.
    expect(r.stderr).toMatch(/svc: error: repositories\/list failed: HTTP 401: invalid API token/);
    expect(r.stderr).not.toContain('not-the-sandbox-secret');
  });

  it.concurrent('a 500 from the service (fault injection, --retries 0): exit 6', async () => {
    const { sb, scope } = await setup();
    const before = sb.requests()['/api/v1/repositories/list'] ?? { received: 0, handled: 0, refused: 0 };
    sb.setFaults({ fault: '500' });
    const r = await failClosed(sb, scope, ['--retries', '0']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/HTTP 500: sandbox fault: internal server error/);
    // The first request (the scope check) fails; nothing more is sent.
    expect(sb.requests()['/api/v1/repositories/list']).toEqual({ received: before.received + 1, handled: before.handled, refused: 1 });
  });

  it.concurrent('an issue archived while the pages are read (totalCount changes): exit 7', async () => {
    const { sb, scope } = await setup();
    // After page 1 has been answered, and before any later page is handled, one issue is archived.
    let archived = 0;
    sb.onLine = (line) => {
      if (archived === 0 && /^POST \/api\/v1\/issues\/search 200 /.test(line)) archived = archiveWhere(sb, scope.repoId, (i) => i.id === scope.ids[0]);
    };
    const r = await failClosed(sb, scope);
    expect(archived).toBe(1);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(new RegExp(`the listing changed while it was read \\(totalCount was ${scope.counts.total} on page 1, ${scope.counts.total - 1} on page \\d+\\)`));
  });

  it.concurrent('later pages answered with something that is not JSON: exit 7', async () => {
    const { sb, scope } = await setup();
    afterFirstPage(sb, 'invalid-json');
    const r = await failClosed(sb, scope);
    expect(r.code).toBe(7);
    expect(r.stderr).toMatch(/not valid JSON/);
  });

  it.concurrent('later pages cut short by a dropped connection (truncated body, --retries 0): exit 6, never a verdict', async () => {
    const { sb, scope } = await setup();
    afterFirstPage(sb, 'truncated');
    const r = await failClosed(sb, scope, ['--retries', '0']);
    expect(r.code).toBe(6);
    expect(r.stderr).toMatch(/closed before the whole response arrived/);
  });
});
