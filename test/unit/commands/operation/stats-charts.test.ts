/**
 * Trends you can see (issue 24, item 6): on an 80-column terminal the stats commands draw charts and
 * bars; in a pipe `-o table` draws them plain; JSON and CSV stay the data, byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { MOCK_BASE, MOCK_ENV, useMockAgent } from '../../../helpers/mock-agent.js';
import { runCli } from '../../../helpers/host.js';
import { displayWidth } from '../../../../src/output/text-width.js';

const BASE = MOCK_BASE;
const env = MOCK_ENV;
const mockAgent = useMockAgent();

const answer = (path: string, body: object, times = 1) => mockAgent().get(BASE).intercept({ path: `/api/v1/stats/${path}`, method: 'POST' })
  .reply(200, body, { headers: { 'content-type': 'application/json' } }).times(times);
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;
const lines = (text: string) => text.replace(ANSI, '').split('\n');
const tooWide = (text: string, width: number) => lines(text).filter((l) => displayWidth(l) > width);

const posture = {
  timeGranularity: 'week',
  series: [
    { date: '2026-11-01', critical: 12, high: 30, medium: 20, low: 5, info: 1, total: 68 },
    { date: '2026-11-08', critical: 10, high: 28, medium: 20, low: 5, info: 1, total: 64 },
    { date: '2026-11-15', critical: 7, high: 25, medium: 22, low: 4, info: 0, total: 58 },
  ],
  repositoryRiskScores: [{ id: 'repo_1', name: 'payments-api', riskScore: 40, criticalIssues: 7, highIssues: 25, mediumIssues: 22, lowIssues: 4 }],
  exposure: { oldestCriticalAge: 30, oldestHighAge: 40, oldestMediumAge: 50, oldestLowAge: 60 },
};

describe('stats security-posture', () => {
  it('at an 80-column terminal: a stacked bar a period in colour, a legend, and the change over the range', async () => {
    answer('securityPosture', posture);
    const r = await runCli(['stats', 'security-posture'], { env, dispatcher: mockAgent(), tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(ANSI);
    const shown = lines(r.stdout);
    expect(shown.find((l) => l.includes('2026-11-01'))).toMatch(/^ {2}2026-11-01 {2}█+▓+▒+░+·? +68$/);
    expect(shown.find((l) => l.includes('2026-11-15'))).toMatch(/^ {2}2026-11-15 {2}█+▓+▒+░+ +58$/);
    expect(shown).toContain('  █ critical  ▓ high  ▒ medium  ░ low  · info');
    expect(shown).toContain('  open critical 12 → 7, −42% since 2026-11-01');
    expect(shown).toContain('  open total 68 → 58, −15% since 2026-11-01');
    // No table of the series any more; the risk table stays.
    expect(r.stdout).not.toMatch(/DATE\s+CRITICAL/);
    expect(shown.some((l) => /repo_1\s+payments-api\s+40/.test(l))).toBe(true);
    expect(tooWide(r.stdout, 80)).toEqual([]);
  });

  it('at 40 columns it still fits', async () => {
    answer('securityPosture', posture);
    const r = await runCli(['stats', 'security-posture'], { env, dispatcher: mockAgent(), tty: true, columns: 40 });
    expect(r.code, r.stderr).toBe(0);
    expect(lines(r.stdout)).toContain('  open critical 12 → 7, −42%');
    expect(tooWide(r.stdout, 40).filter((l) => !l.includes('repo_1'))).toEqual([]);
  });

  it('in a pipe, -o table and NO_COLOR draw it plain at 80 columns', async () => {
    answer('securityPosture', posture, 2);
    const pipe = await runCli(['stats', 'security-posture', '-o', 'table'], { env, dispatcher: mockAgent() });
    expect(pipe.code, pipe.stderr).toBe(0);
    expect(pipe.stdout).not.toMatch(ANSI);
    expect(pipe.stdout).toContain('open critical 12 → 7, −42% since 2026-11-01');
    // The chart is 80 wide in a pipe (a table there keeps its 120).
    expect(tooWide(pipe.stdout.slice(0, pipe.stdout.indexOf('Repositories by risk')), 80)).toEqual([]);
    expect(Math.max(...lines(pipe.stdout).filter((l) => l.includes('2026-11')).map(displayWidth))).toBe(80);
    const noColor = await runCli(['stats', 'security-posture'], { env: { ...env, NO_COLOR: '1' }, dispatcher: mockAgent(), tty: true, columns: 80 });
    expect(noColor.stdout).not.toMatch(ANSI);
    expect(noColor.stdout).toContain('  █ critical  ▓ high  ▒ medium  ░ low  · info');
  });

  it('an empty series says so', async () => {
    answer('securityPosture', { ...posture, series: [] });
    const r = await runCli(['stats', 'security-posture'], { env, dispatcher: mockAgent(), tty: true, columns: 80 });
    expect(lines(r.stdout)).toContain('  No periods in this range: nothing to chart.');
  });

  it('JSON and CSV are the data, as before', async () => {
    answer('securityPosture', posture, 3);
    const json = await runCli(['stats', 'security-posture', '-o', 'json'], { env, dispatcher: mockAgent() });
    expect(json.stdout).toBe(`${JSON.stringify(posture)}\n`);
    const ndjson = await runCli(['stats', 'security-posture', '-o', 'ndjson'], { env, dispatcher: mockAgent() });
    expect(ndjson.stdout).toBe(`${JSON.stringify(posture.repositoryRiskScores[0])}\n`);
    const csv = await runCli(['stats', 'security-posture', '-o', 'csv'], { env, dispatcher: mockAgent() });
    // The data, under the table's headers in lower case (readable, and names --columns takes back).
    expect(csv.stdout).toBe('id,critical,high,medium,low\nrepo_1,7,25,22,4\n');
  });
});

describe('bars for summary, issues-by-severity and issues-by-repository at 80 columns', () => {
  it('stats summary: scans, statuses and levels as bars', async () => {
    const summary = { scans: { fullScans: 28, prScans: 14, runningScans: 0, failedScans: 6 }, issues: { open: 185, patched: 47, falsePositive: 20, archived: 24, processing: 7 }, issuesByScore: { critical: 21, high: 66, medium: 70, low: 24, info: 4 } };
    answer('summary', summary, 2);
    const r = await runCli(['stats', 'summary'], { env, dispatcher: mockAgent(), tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    const shown = lines(r.stdout);
    expect(shown.find((l) => l.includes('full scans'))).toMatch(/^ {2}full scans +█+ 28$/);
    expect(shown.find((l) => l.includes('false positive'))).toMatch(/^ {2}false positive +█+ +20$/);
    expect(shown.find((l) => l.startsWith('  medium'))).toMatch(/^ {2}medium +▒+ 70$/);
    expect(displayWidth(shown.find((l) => l.startsWith('  medium'))!)).toBe(80);
    expect(tooWide(r.stdout, 80)).toEqual([]);
    const json = await runCli(['stats', 'summary', '-o', 'json'], { env, dispatcher: mockAgent() });
    expect(json.stdout).toBe(`${JSON.stringify(summary)}\n`);
  });

  it('stats issues-by-severity: a bar a level; CSV unchanged', async () => {
    const counts = { severityCounts: { critical: 21, high: 66, medium: 70, low: 24, info: 4 }, total: 185 };
    answer('issuesBySeverity', counts, 2);
    const r = await runCli(['stats', 'issues-by-severity'], { env, dispatcher: mockAgent(), tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    const shown = lines(r.stdout);
    expect(shown.find((l) => l.startsWith('  critical'))).toMatch(/^ {2}critical +█+ +21$/);
    expect(shown.find((l) => l.startsWith('  info'))).toMatch(/^ {2}info +·+ +4$/);
    expect(tooWide(r.stdout, 80)).toEqual([]);
    const csv = await runCli(['stats', 'issues-by-severity', '-o', 'csv'], { env, dispatcher: mockAgent() });
    expect(csv.stdout).toBe('critical,high,medium,low,info,total\n21,66,70,24,4,185\n');
  });

  it('stats issues-by-repository: a stacked bar a repository, by name', async () => {
    const byRepo = { repositories: [
      { repositoryId: 'repo_1', repositoryName: 'notification-worker', critical: 3, high: 11, medium: 14, low: 2, info: 1, total: 31 },
      { repositoryId: 'repo_2', repositoryName: 'payments-api', critical: 1, high: 7, medium: 5, low: 3, info: 0, total: 16 },
    ], total: 47 };
    answer('issuesByRepository', byRepo, 2);
    const r = await runCli(['stats', 'issues-by-repository'], { env, dispatcher: mockAgent(), tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    const shown = lines(r.stdout);
    expect(shown.find((l) => l.includes('notification-worker'))).toMatch(/^ {2}notification-worker {2}█+▓+▒+░+·+ 31$/);
    expect(shown.find((l) => l.includes('payments-api'))).toMatch(/^ {2}payments-api {9}█+▓+▒+░+ +16$/);
    expect(tooWide(r.stdout, 80)).toEqual([]);
    const csv = await runCli(['stats', 'issues-by-repository', '-o', 'csv'], { env, dispatcher: mockAgent() });
    expect(csv.stdout.split('\n')[0]).toBe('repository id,repository name,critical,high,medium,low,info,total');
  });
});

describe('bars of a count a double does not hold', () => {
  it('stats summary -o table: the count as the service wrote it, not the double', async () => {
    mockAgent().get(BASE).intercept({ path: '/api/v1/stats/summary', method: 'POST' })
      .reply(200, '{"scans":{"fullScans":12345678901234567890,"prScans":3}}', { headers: { 'content-type': 'application/json' } });
    const r = await runCli(['stats', 'summary', '-o', 'table'], { env, dispatcher: mockAgent() });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/full scans +█+ 12345678901234567890\n/);
    expect(r.stdout).not.toContain('12345678901234567000');
  });
});
