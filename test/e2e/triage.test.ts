/** `svc issues triage` on a pseudo-terminal against the sandbox: walk, act, undo, resize, Ctrl-C. */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { ptyAvailable, resize, runOnPty } from '../helpers/pty.js';
import { BIN } from '../helpers/run-svc.js';
import { issueScreen } from '../../src/commands/triage/screen.js';
import { startFakeServer } from '../helpers/fake-server.js';

const sb = useSandbox();

describe.runIf(ptyAvailable())('svc issues triage on a terminal', () => {
  it('walks the open issues by score: archive with a reason, undo it, false positive, skip, quit; a summary', async () => {
    const open = (await sb.runJson(['issues', 'search', '--types', 'open', '--sort-by', 'score', '--sort-order', 'desc', '--page-size', '3'])).issues;
    const [first, second, third] = open.map((i: { id: string }) => i.id);
    const r = await runOnPty(['issues', 'triage'], [
      [`1/`, 'a'],
      ['Enter to send', 'Vendored code\r'],
      [`${first}: archived (done)`, 'u'],
      [`${first}: unarchived (done)`, 'f'],
      ['Enter to send', 'Test code only\r'],
      [`${first}: false positive (done)`, 's'],
      [`${second}: skipped`, 'q'],
    ], { env: sb.env, cols: 80, rows: 24, timeoutMs: 30_000 });
    expect(r.unanswered, JSON.stringify(r.output.slice(-1500))).toEqual([]);
    expect(r.code, r.output).toBe(0);
    expect(r.output, JSON.stringify(r.output.slice(-600))).toMatch(/triage: 1 false positive, 1 skipped, 1 archive undone, \d+ not reached/);
    expect(r.output).toContain('unarchived');
    // The terminal is left as found: the alternate screen and the cursor are back.
    expect(r.output.lastIndexOf('\x1b[?1049l')).toBeGreaterThan(r.output.lastIndexOf('\x1b[?1049h'));
    expect(await sb.runJson(['issues', 'get', first])).toMatchObject({ status: 'falsePositive', falsePositiveReason: 'Test code only' });
    expect((await sb.runJson(['issues', 'get', second])).status).toBe('open');
    expect((await sb.runJson(['issues', 'get', third])).status).toBe('open');
  }, 40_000);

  it('redraws on a resize, and Ctrl-C leaves the terminal settings as they were (exit 130)', async () => {
    // stty -g before and after, around svc, on the same terminal.
    const script = `stty -g; "$0" "$1" issues triage; code=$?; stty -g; exit $code`;
    const r = await runOnPty([], [
      ['1/', resize(60, 20)],
      ['1/', '\x03'],
    ], { env: sb.env, cols: 80, rows: 24, timeoutMs: 30_000, command: ['/bin/sh', '-c', script, process.execPath, BIN] });
    expect(r.unanswered, JSON.stringify(r.output.slice(-1500))).toEqual([]);
    expect(r.code, r.output).toBe(130);
    // eslint-disable-next-line no-control-regex
    const settings = r.output.split(/\r?\n/).map((l) => l.replace(/\x1b\[[?0-9;]*[A-Za-z]/g, '').trim()).filter((l) => /^[0-9a-f]+(:[0-9a-f]+){10,}$/.test(l));
    expect(settings, JSON.stringify(r.output.slice(-700))).toHaveLength(2);
    expect(settings[1]).toBe(settings[0]);
    expect(r.output.lastIndexOf('\x1b[?25h')).toBeGreaterThan(r.output.lastIndexOf('\x1b[?25l'));
  }, 40_000);

  it('off a terminal: exit 2 pointing to the bulk commands', async () => {
    const r = await sb.run(['issues', 'triage']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('svc issues triage works on a terminal only');
    expect(r.stderr).toContain('--ids-from');
  });
});

describe.runIf(ptyAvailable())('svc issues triage never acts on an issue outside its filter (issue 33)', () => {
  it('a service that ignores types answers a patched issue: it is not shown to act on, it is listed, and the run ends with exit 10', async () => {
    const server = await startFakeServer();
    try {
      const issue = (id: string, status: string, score: number) => ({ id, status, score, generatedTitle: `t ${id}`, repositoryId: 'repo_1', affectedFile: 'a.ts', startLine: 1 });
      server.stub('/api/v1/issues/search', { json: { issues: [issue('iss_patched', 'patched', 99), issue('iss_open', 'open', 90)], totalCount: 2, currentPage: 1, pageSize: 500 } });
      const r = await runOnPty(['issues', 'triage'], [['1/1', 'q']], { env: server.env, cols: 100, rows: 24, timeoutMs: 30_000 });
      expect(r.unanswered, JSON.stringify(r.output.slice(-1500))).toEqual([]);
      expect(r.code, r.output).toBe(10);
      // The error line wraps at the terminal's width: read as one line.
      // eslint-disable-next-line no-control-regex
      const text = r.output.replace(/\x1b\[[?0-9;]*[A-Za-z]/g, '').replace(/\s+/g, ' ');
      expect(text).toMatch(/1 issue the search answered outside its filter \(open\) skipped, not acted on: iss_patched \(status 'patched', repository 'repo_1'\)/);
      expect(server.requests.map((q) => q.path)).toEqual(['/api/v1/issues/search']);
    } finally {
      await server.close();
    }
  }, 40_000);
});

describe('the triage screen', () => {
  const issue = {
    id: 'iss_1', generatedTitle: 'SQL injection in a very long function name that goes on and on past any terminal width', score: 93,
    status: 'open', affectedFile: 'src/db/users.ts', startLine: 42, sastCodeSegment: Array.from({ length: 40 }, (_, i) => `line ${i} ${'x'.repeat(120)}`).join('\n'),
    validationSecurityAssessment: 'Reachable from the request handler. '.repeat(20),
  };
  for (const [w, h] of [[80, 24], [60, 20], [120, 40]]) {
    it(`fits ${w}x${h}: no line wider, no more lines, the keys and the status shown`, () => {
      const lines = issueScreen(issue, { index: 0, total: 5 }, w, h, 'ready');
      expect(lines.length).toBe(h);
      for (const l of lines) expect(l.length).toBeLessThanOrEqual(w);
      expect(lines.join('\n')).toContain('CRITICAL 93');
      expect(lines.join('\n')).toContain('src/db/users.ts:42');
      expect(lines.join(' ')).toContain('f false positive t true positive');
      expect(lines[h - 1]).toBe('ready');
    });
  }
});
