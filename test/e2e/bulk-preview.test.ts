/**
 * Previews that look like svc (issue 36.5), the real bin on an 80x24 terminal against the sandbox:
 * the --where confirmation was `id  score  status  title` lines that wrapped past 80 columns and
 * named no repository; --dry-run printed 15 lines of raw request per id on a terminal too.
 */
import { describe, expect, it } from 'vitest';
import { runOnPty, ptyAvailable } from '../helpers/pty.js';
import { terminalScreen } from '../helpers/terminal-screen.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();
const WHERE = ['--where', 'types=open', '--where', 'min-score=90'];

type Issue = { id: string; score: number; repositoryName: string };
const matching = async () => (await sb.runJson<{ issues: Issue[] }>(['issues', 'search', '--types', 'open', '--sort-by', 'score', '--page-size', '100'])).issues.filter((i) => i.score >= 90);

describe.runIf(ptyAvailable())('bulk previews on an 80-column terminal', () => {
  it('the --where confirmation is the search\'s table: aligned, fitted, with the repository, highest score first', async () => {
    const found = await matching();
    expect(found.length).toBeGreaterThan(10);
    const r = await runOnPty(['issues', 'archive', ...WHERE], [['[y/N] ', 'n\r']], { env: sb.env, cols: 80, rows: 24 });
    expect(r.unanswered).toEqual([]);
    expect(r.code).toBe(2);
    const lines = terminalScreen(r.output);
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
    const head = lines.findIndex((l) => l.startsWith('ID  '));
    expect(lines[head].split(/\s{2,}/)).toEqual(expect.arrayContaining(['ID', 'LEVEL', 'REPOSITORY', 'TITLE']));
    const rows = lines.slice(head + 1).filter((l) => /^iss_/.test(l));
    expect(rows).toHaveLength(10);
    // Aligned: every row's repository starts where its header does, and it is the issue's.
    const at = lines[head].indexOf('REPOSITORY');
    for (const row of rows) {
      const issue = found.find((i) => row.startsWith(`${i.id}  `))!;
      expect(issue, row).toBeDefined();
      expect(row.slice(at).startsWith(issue.repositoryName)).toBe(true);
    }
    // The ten highest scores, highest first (ties in any order).
    const scores = rows.map((row) => found.find((i) => row.startsWith(`${i.id}  `))!.score);
    expect(scores).toEqual(found.slice(0, 10).map((i) => i.score));
    expect(lines).toContain(`... and ${found.length - 10} more (--dry-run lists them all)`);
    // The question and everything above it on one 24-line screen.
    const question = lines.findIndex((l) => l.includes('Continue? [y/N]'));
    expect(question - lines.findIndex((l) => / issues match --where /.test(l))).toBeLessThan(20);
  });

  it('--dry-run on a terminal: the matched issues as a table and one request, nothing sent', async () => {
    const found = await matching();
    const r = await runOnPty(['issues', 'archive', ...WHERE, '--reason', 'vendored', '--dry-run'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(r.code).toBe(0);
    const lines = terminalScreen(r.output);
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
    expect(lines.find((l) => l.startsWith('ID  '))!.split(/\s{2,}/)).toEqual(expect.arrayContaining(['ID', 'LEVEL', 'REPOSITORY', 'TITLE']));
    for (const issue of found) expect(lines.some((l) => l.startsWith(`${issue.id}  `))).toBe(true);
    expect(lines.filter((l) => /POST http/.test(l))).toHaveLength(1);
    expect(r.output).toMatch(new RegExp(`the other ${found.length - 1} differ only in issueId`));
    expect(r.output).toContain('"falsePositiveReason": "vendored"');
    expect(r.output).not.toContain('x-service-api-token-secret');
    // Nothing was archived.
    expect((await matching()).map((i) => i.id)).toEqual(found.map((i) => i.id));
  });

  it('in a pipe --dry-run stays every request as JSON', async () => {
    const found = await matching();
    const r = await sb.run(['issues', 'archive', ...WHERE, '--dry-run']);
    expect(r.code, r.stderr).toBe(0);
    const requests = JSON.parse(r.stdout) as Array<{ method: string; body: { issueId: string } }>;
    expect(requests.map((q) => q.body.issueId).sort()).toEqual(found.map((i) => i.id).sort());
    expect(r.stderr).toContain(`dry run: ${found.length} requests to /api/v1/issues/archive, none sent`);
  });
});
