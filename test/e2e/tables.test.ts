/**
 * What people and scripts see from the real bin: the demo's first screens on an 80-column terminal
 * (whole ids, unique headers), --jq and --columns on JSON, and Ctrl-C while a long table is written.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runOnPty, ptyAvailable } from '../helpers/pty.js';
import { useSandbox } from '../helpers/sandbox.js';
import { BIN, cleanEnv } from '../helpers/run-svc.js';
import { Writable } from 'node:stream';
import { runCli, testHost } from '../helpers/host.js';
import { terminalScreen } from '../helpers/terminal-screen.js';

const sb = useSandbox();

// The screen as the terminal shows it: a spinner line that svc erased (\r, ESC[K) is gone, as on screen.
const screen = (text: string) => terminalScreen(text);

describe.runIf(ptyAvailable())('the demo\'s first screens at 80 columns', () => {
  it('repos list: whole ids and names, unique human headers, nothing wider than 80', async () => {
    const repos = await sb.runJson<Array<{ id: string; name: string }>>(['repos', 'list']);
    const r = await runOnPty(['repos', 'list'], [], { env: sb.env, cols: 80 });
    expect(r.code).toBe(0);
    const lines = screen(r.output);
    const header = lines.find((l) => l.startsWith('ID'))!;
    expect(header.split(/\s{2,}/)).toEqual(['ID', 'NAME', 'BRANCH', 'PR SCANS', 'OPEN', 'PATCHED']);
    for (const repo of repos) expect(lines.some((l) => l.startsWith(`${repo.id}  `) && l.includes(repo.name))).toBe(true);
    expect(r.output).not.toContain('…');
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
  });

  it('a terminal that reports 0 columns (docker exec -t, serial consoles) is taken as 80 wide', async () => {
    const env = { ...sb.env, COLUMNS: undefined };
    const [error, table] = await Promise.all([
      runOnPty(['issues', 'serch'], [], { env, cols: 0, rows: 0 }),
      runOnPty(['issues', 'search', '--page-size', '3'], [], { env, cols: 0, rows: 0 }),
    ]);
    expect(error.code).toBe(2);
    const said = screen(error.output).filter(Boolean);
    expect(said[0]).toMatch(/^svc: error: unknown operation 'serch' of 'svc issues'/);
    expect(said.length).toBeLessThanOrEqual(3);
    expect(table.code).toBe(0);
    const lines = screen(table.output);
    expect(lines.find((l) => l.startsWith('ID'))!.split(/\s{2,}/)).toEqual(['ID', 'LEVEL', 'SCORE', 'REPOSITORY', 'TITLE']);
    expect(table.output).toContain('Not shown at 80 columns');
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
  });
});

// The triager's first screen (issue 36.1): the title took 16 columns at 80 and in a pipe at 120, a
// STATUS column said "open" on every row of an open-only search, and no LEVEL column was shown.
describe.runIf(ptyAvailable())('titles that can be read (the real bin on an 80x24 terminal, and in a pipe)', () => {
  const SEARCH = ['issues', 'search', '--types', 'open', '--sort-by', 'score', '--page-size', '20'];
  /** The TITLE column's width: from its header to the end of the longest title shown. */
  const titleWidth = (lines: string[]) => {
    const header = lines.find((l) => /^ID +LEVEL/.test(l))!;
    const at = header.indexOf('TITLE');
    return Math.max(...lines.filter((l) => /^iss_/.test(l)).map((l) => l.length - at));
  };

  it('at 80 columns: LEVEL shown, STATUS said once, the title takes the spare width', async () => {
    const found = await sb.runJson<{ issues: Array<{ id: string; score: number }> }>(SEARCH);
    const level = (s: number) => (s >= 90 ? 'critical' : s >= 70 ? 'high' : s >= 40 ? 'medium' : s >= 10 ? 'low' : 'info');
    const r = await runOnPty(SEARCH, [], { env: sb.env, cols: 80, rows: 24 });
    expect(r.code).toBe(0);
    const lines = screen(r.output);
    const header = lines.find((l) => l.startsWith('ID'))!.split(/\s{2,}/);
    expect(header).toContain('LEVEL');
    expect(header).not.toContain('STATUS');
    expect(header.at(-1)).toBe('TITLE');
    expect(lines).toContain('Same on every row, not shown: STATUS open.');
    // Every issue of the page on its row, with its level beside its id.
    for (const issue of found.issues) expect(lines.some((l) => new RegExp(`^${issue.id} +${level(issue.score)}  `).test(l)), issue.id).toBe(true);
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
    // 32 columns at 80 (the title's share), where it had 16.
    expect(titleWidth(lines)).toBeGreaterThanOrEqual(32);
  });

  it('-o table in a pipe (120 columns): the title gets at least 48, whole where it fits', async () => {
    const r = await sb.run([...SEARCH, '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0].split(/\s{2,}/)).toEqual(['ID', 'LEVEL', 'SCORE', 'CLASS', 'REPOSITORY', 'TITLE']);
    expect(titleWidth(lines)).toBeGreaterThanOrEqual(48);
    expect(lines.every((l) => l.length <= 120)).toBe(true);
    expect(r.stderr).toContain('Same on every row, not shown: STATUS open.');
  });

  it('a search of every status keeps STATUS; the CSV default has level, CWE and createdAt, with readable headers', async () => {
    const mixed = await sb.run(['issues', 'search', '--page-size', '20', '-o', 'table']);
    expect(mixed.stdout.split('\n')[0].split(/\s{2,}/)).toContain('STATUS');
    const csv = await sb.run(['issues', 'search', '--page-size', '3', '-o', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    const [head, first] = csv.stdout.split('\n');
    expect(head).toBe('id,level,score,status,class,cwe,repository,file,line,title,created');
    expect(first).toMatch(/^iss_\w+,(critical|high|medium|low|info),\d+,\w+,.*,"?CWE-\d+.*,\d{4}-\d{2}-\d{2}T/);
    // Every header is a name --columns takes back.
    const back = await sb.run(['issues', 'search', '--page-size', '3', '-o', 'csv', '--columns', head]);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toBe(csv.stdout);
  });
});

/** svc in-process on an 80-column terminal (stdout and stderr are terminals): what the screen showed. */
async function at80(argv: string[]): Promise<{ code: number; output: string }> {
  const r = await sb.run(argv, { tty: true, columns: 80 });
  return { code: r.code, output: r.stdout + r.stderr };
}

// The same screens in-process: the width the real bin reads from its terminal is proven above.
describe('the demo\'s next screens at 80 columns', () => {
  it('issues search: whole ids, unique headers, the columns that do not fit named', async () => {
    const found = await sb.runJson<{ issues: Array<{ id: string }> }>(['issues', 'search', '--types', 'open', '--page-size', '5']);
    const r = await at80(['issues', 'search', '--types', 'open', '--page-size', '5']);
    expect(r.code).toBe(0);
    const lines = screen(r.output);
    const header = lines.find((l) => l.startsWith('ID'))!.split(/\s{2,}/);
    expect(new Set(header).size).toBe(header.length);
    for (const issue of found.issues) expect(lines.some((l) => l.startsWith(`${issue.id}  `))).toBe(true);
    expect(r.output).toMatch(/Not shown at 80 columns: .*FILE/);
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
  });

  it('issues get: the detail view, with the CWE link and what to do next', async () => {
    const found = await sb.runJson<{ issues: Array<{ id: string; generatedTitle: string }> }>(['issues', 'search', '--types', 'open', '--page-size', '1']);
    const issue = found.issues[0];
    const r = await at80(['issues', 'get', issue.id]);
    expect(r.code).toBe(0);
    const text = screen(r.output).join('\n');
    expect(text).toContain(issue.generatedTitle);
    expect(text).toMatch(new RegExp(`\\nID +${issue.id}\\n`));
    expect(text).toMatch(/\nLevel +(critical|high|medium|low|info) \(score \d+/);
    expect(text).toMatch(/CWE-\d+ +https:\/\/cwe\.mitre\.org\/data\/definitions\/\d+\.html/);
    expect(text).toMatch(/\nCode\n/);
    expect(text).toMatch(/\nNext:\n/);
  });
});

describe('no table is wider than the terminal (in-process, several commands and widths)', () => {
  const COMMANDS = [['repos', 'list'], ['issues', 'search', '--page-size', '20'], ['scans', 'list'], ['orgs', 'list'], ['stats', 'issues-by-vuln-class'], ['stats', 'issues-by-repository']];
  it.each([40, 50, 60, 80, 90, 100, 120])('at %i columns', async (width) => {
    for (const argv of COMMANDS) {
      const r = await sb.run(argv, { tty: { stdout: true }, columns: width, env: { NO_COLOR: '1' } });
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(0);
      const wide = screen(r.stdout).filter((l) => l.length > width);
      expect(wide, `svc ${argv.join(' ')} at ${width} columns`).toEqual([]);
    }
  });
});

describe('--jq and --columns on JSON (in-process)', () => {
  it('issues search --jq prints raw ids, one per line', async () => {
    const found = await sb.runJson<{ issues: Array<{ id: string }> }>(['issues', 'search', '--page-size', '7']);
    const r = await sb.run(['issues', 'search', '--page-size', '7', '--jq', '.issues[].id']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(found.issues.map((i) => `${i.id}\n`).join(''));
  });

  it('a bad expression is exit 2 with jq\'s message; jq with a table format is exit 2', async () => {
    const r = await sb.run(['issues', 'search', '--jq', '.issues[] |||']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^svc: error: --jq '\.issues\[\] \|\|\|': syntax error, unexpected '\|' at column 12: '\|\|'/);
    const t = await sb.run(['issues', 'search', '--jq', '.', '-o', 'table']);
    expect(t.code).toBe(2);
    expect(t.stderr).toMatch(/--jq filters JSON output, not table/);
  });

  it('--jq works on api, on --all pages and on gate -o json', async () => {
    const api = await sb.run(['api', 'issues/search', '-F', 'pageSize=2', '--jq', '.issues | length']);
    expect([api.code, api.stdout]).toEqual([0, '2\n']);
    // With --all the expression runs on each item.
    const all = await sb.run(['scans', 'list', '--all', '--page-size', '3', '--jq', '.scanId']);
    expect(all.code).toBe(0);
    const scans = await sb.runJson<{ totalCount: number }>(['scans', 'list']);
    expect(all.stdout.trimEnd().split('\n')).toHaveLength(scans.totalCount);
    expect(all.stdout).toMatch(/^scan_/);
    const gate = await sb.run(['gate', '--max-total', '100000', '-o', 'json', '--jq', '.passed']);
    expect([gate.code, gate.stdout]).toEqual([0, 'true\n']);
  });

  it('--jq works on the data of auth status, auth token and config list', async () => {
    const status = await sb.run(['auth', 'status', '--offline', '--jq', '.tokenId.value']);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toBe(`${sb.tokenId.slice(0, 4)}…${sb.tokenId.slice(-4)}\n`);
    const token = await sb.run(['auth', 'token', '--jq', '.tokenId.source']);
    expect(token.code, token.stderr).toBe(0);
    expect(token.stdout).toMatch(/^\S.*\n$/);
    const config = await sb.run(['config', 'list', '--jq', 'keys | length']);
    expect([config.code, config.stdout]).toEqual([0, '0\n']);
  });

  it('--columns projects -o json and ndjson rows; an unknown column is exit 2 listing the valid ones', async () => {
    const j = await sb.run(['issues', 'search', '--page-size', '2', '--columns', 'id,score', '-o', 'json']);
    expect(j.code).toBe(0);
    const data = JSON.parse(j.stdout);
    expect(data.issues.map((i: object) => Object.keys(i))).toEqual([['id', 'score'], ['id', 'score']]);
    expect(data.totalCount).toBeGreaterThan(2);
    const n = await sb.run(['repos', 'list', '--columns', 'id,issueCounts.open', '-o', 'ndjson']);
    expect(n.stdout.trimEnd().split('\n').map((l) => Object.keys(JSON.parse(l)).join())).toContain('id,issueCounts');
    const bad = await sb.run(['issues', 'search', '--columns', 'id,scroe']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^svc: error: unknown column 'scroe' for issues search \(did you mean 'score'\?\); columns: id, level, score, .*\(any field of -o json, nested with dots\)\n$/);
  });
});

describe('--all on a terminal', () => {
  it('streams the table page by page under a spinner that stays up and counts', async () => {
    const r = await sb.run(['issues', 'search', '--all', '--page-size', '100'], { tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    const rows = r.stdout.split('\n').filter((l) => /^iss_/.test(l.replace(/\u001b\[[0-9;]*m/g, '')));
    const total = (await sb.runJson<{ totalCount: number }>(['issues', 'search'])).totalCount;
    expect(rows).toHaveLength(total);
    // The spinner showed the count while the pages' rows were written, and was put back after them.
    expect(r.stderr).toContain(`fetched 100 of ${total}`);
    expect(r.stderr).toContain(`fetched 200 of ${total}`);
    expect((r.stderr.match(/fetched 100 of/g) ?? []).length).toBeGreaterThan(1);
  });
});

describe('the gate summary', () => {
  const plainText = (t: string) => t.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '');

  it('fits an 80-column terminal: ids whole, titles cut, prose wrapped', async () => {
    const repos = await sb.runJson<Array<{ id: string }>>(['repos', 'list']);
    const args = ['gate', '--fail-on', 'medium', '--repository-ids', repos.map((r) => r.id).join(','), '-o', 'table'];
    const r = await runCli(args, { env: sb.env, tty: true, columns: 80 });
    expect(r.code).toBe(1);
    const lines = plainText(r.stdout).trimEnd().split('\n');
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
    const breaking = await runCli([...args.slice(0, -2), '-o', 'json'], { env: sb.env });
    const ids: string[] = JSON.parse(breaking.stdout).breaking.slice(0, 50).map((i: { id: string }) => i.id);
    for (const id of ids) expect(lines.some((l) => l.includes(` ${id} `))).toBe(true);
    expect(lines.some((l) => l.includes('…'))).toBe(true);
    // A location is cut from the left: its file name and line stay (`…/import.js:22`, not `app/handlers/impor…`).
    const narrow = plainText((await runCli(args, { env: sb.env, tty: true, columns: 70 })).stdout).split('\n');
    const locations = narrow.map((l) => /^ {2}(?:critical|high|medium) +\d+ +iss_\w+ +(\S+)/.exec(l)?.[1]).filter((x): x is string => x !== undefined);
    expect(locations.length).toBeGreaterThan(5);
    expect(locations.some((l) => l.startsWith('…'))).toBe(true);
    for (const location of locations) expect(location).toMatch(/^(…\/|…)?[^…]*\.\w+:\d+$/);
    // In a CI log (not a terminal) nothing is cut.
    const log = await runCli(args, { env: sb.env });
    expect(log.stdout).not.toContain('…');
    expect(Math.max(...log.stdout.split('\n').map((l) => l.length))).toBeGreaterThan(80);
  });
});

describe('Ctrl-C while a long table is written', () => {
  // One listing for both real-bin cases: 3,000 issues, ~360 kB of table in a pipe, more than svc
  // can put out before it waits (the reader's first read and its buffer, the pipe's 64 KiB, one
  // piece in stdout's buffer: svc waited after 1,300-2,200 rows here). With 2,000 the whole table
  // got out once, and svc exited 0 before the signal.
  let served = 0;
  const big = useSandbox({ issues: 3000, repos: 4, log: (line) => { if (line.includes('/issues/search')) served += 1; } });
  /** Resolves once `atLeast` pages were asked for and no more in `ms`: svc waits (on the pipe, or has read every page). */
  const settled = async (ms: number, atLeast = 1) => { for (let last = -1; served < atLeast || served !== last;) { last = served; await new Promise((r) => setTimeout(r, ms)); } };

  it('stops at once, exit 130, while stdout is a slow reader and pages are still to come (the real bin on a pipe)', async () => {
    // Pages of 50: svc waits on the pipe with ~35 of its 60 pages asked for (4 of them ahead).
    served = 0;
    const child = spawn(process.execPath, [BIN, 'issues', 'search', '--all', '--page-size', '50', '-o', 'table'], { env: cleanEnv(big.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // Read the first rows, then stop reading: svc fills the pipe and waits for it to drain.
    const first = await new Promise<string>((resolve) => child.stdout.once('data', (d) => { child.stdout.pause(); resolve(String(d)); }));
    expect(first).toMatch(/^ID +LEVEL +SCORE/);
    await settled(300);
    // It waits with the listing half read (else this would be the next test's case).
    expect(served).toBeLessThan(60);
    const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    child.kill('SIGINT');
    const code = await ended;
    expect(code).toBe(130);
    // Not a timed assertion (the machine may be loaded): the message comes from main's own
    // interrupted path; the 1 s fallback timer in entry.ts exits without it.
    expect(stderr).toContain('interrupted by SIGINT');
  });

  it('stops too when the whole listing was read and only its output waits for a reader that stopped (the real bin on a pipe)', async () => {
    served = 0;
    const child = spawn(process.execPath, [BIN, 'issues', 'search', '--all', '-o', 'table'], { env: cleanEnv(big.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.stdout.once('data', () => child.stdout.pause());
    // Every page served and no request since: svc has read the listing, and what is left is its
    // output, which nobody reads (a load that slowed the reading does not send the signal early).
    await settled(500, 6);
    expect(served).toBe(6);
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toContain('interrupted by SIGINT');
    child.stdout.destroy();
  });

  // The NDJSON listing copies the service's bytes; its wait for a slow reader must end as an
  // interrupt too (it used to surface as an internal error, exit 70), and the JSON and CSV writers'
  // waits must heed Ctrl-C at all (they waited for the 1 s fallback timer). In-process: stdout is a
  // stream that takes the first piece and then nothing more, and Ctrl-C comes once svc waits on it.
  it.each(['ndjson', 'json', 'csv'])('--all -o %s with a reader that stopped: Ctrl-C is exit 130', async (format) => {
    const host = testHost({ env: sb.env });
    let wrote!: () => void;
    const written = new Promise<void>((resolve) => { wrote = resolve; });
    // Never calls back: the reader stopped (and a small buffer, so a waiting write() sees it full).
    const stopped = new Writable({ highWaterMark: 16, write() { wrote(); } });
    Object.assign(host.io, { stdout: stopped });
    const running = runCli(['issues', 'search', '--all', '--page-size', '50', '-o', format], { host });
    await written;
    host.abort('SIGINT');
    const r = await running;
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).toContain('interrupted by SIGINT');
    expect(r.stderr).not.toContain('internal error');
    stopped.destroy();
  });
});
