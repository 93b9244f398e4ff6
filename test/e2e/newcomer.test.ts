/**
 * A newcomer's hour at an 80x24 terminal (issue 24): each stop a first-time user met is checked
 * where they met it. In-process on a terminal 80 columns wide (stdout and stderr are terminals, as
 * on a pty; what the real bin reads for the width, and its pty, are proven in tables.test.ts and
 * below), but for the scan wait's Ctrl-C, which is the real bin on a pseudo-terminal.
 */
import { describe, expect, it } from 'vitest';
import { runOnPty, ptyAvailable } from '../helpers/pty.js';
import { useSandbox } from '../helpers/sandbox.js';
import { runCli } from '../helpers/host.js';
import { terminalScreen } from '../helpers/terminal-screen.js';

const sb = useSandbox();

/** svc in-process at an 80-column terminal: its exit code, and what the terminal showed (stdout, then stderr). */
async function term(argv: string[], env: Record<string, string> = sb.env): Promise<{ code: number; output: string }> {
  const r = await runCli(argv, { env, tty: true, columns: 80 });
  return { code: r.code, output: r.stdout + r.stderr };
}

// eslint-disable-next-line no-control-regex
const screen = (text: string) => text
  // Back to the line's start (carriage return, cursor to column 1, erase line): what follows is what stays.
  .replace(/\r\n/g, '\n').replace(/\u001b\[1?G|\u001b\[2K/g, '\r')
  .replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').split('\n')
  .map((l) => l.slice(l.lastIndexOf('\r') + 1).replace(/^.*[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [^A-Z]*?(?=[A-Z]{2})/, ''));
/** What the terminal showed as one line of words (wrapped lines joined). */
const flat = (text: string) => screen(text).join(' ').replace(/\s+/g, ' ');
/** Lines wider than 80 columns, but for one that holds a word too long to break (a file path). */
const wide = (text: string) => screen(text).filter((l) => l.length > 80 && !l.split(/\s+/).some((w) => w.length > 40));


describe('at an 80x24 terminal', () => {
  it('help screens and topics fit 80 columns', async () => {
    for (const argv of [['--help'], ['issues', 'search', '--help'], ['repos', '--help'], ['help', 'output'], ['help', 'environment'], ['gate', '--help']]) {
      const r = await term(argv);
      expect(r.code, argv.join(' ')).toBe(0);
      expect(wide(r.output), `svc ${argv.join(' ')}`).toEqual([]);
    }
  });

  it('--columns takes the table headers and field names, any case; level comes from score', async () => {
    const found = await sb.runJson<{ issues: Array<{ id: string; affectedFile: string; startLine: number; score: number }> }>(['issues', 'search', '--page-size', '5']);
    const r = await term(['issues', 'search', '--page-size', '5', '--columns', 'id,file,LINE,level']);
    expect(r.code).toBe(0);
    const lines = screen(r.output);
    expect(lines.find((l) => l.startsWith('ID'))!.split(/\s{2,}/)).toEqual(['ID', 'FILE', 'LINE', 'LEVEL']);
    for (const i of found.issues) {
      const level = i.score >= 90 ? 'critical' : i.score >= 70 ? 'high' : i.score >= 40 ? 'medium' : i.score >= 10 ? 'low' : 'info';
      expect(lines.find((l) => l.startsWith(i.id))!.split(/\s{2,}/)).toEqual([i.id, i.affectedFile, String(i.startLine), level]);
    }
    expect(wide(r.output)).toEqual([]);
  });

  it('the columns left out at 80 are named with a --columns that works', async () => {
    const first = await term(['issues', 'search', '--page-size', '5']);
    expect(first.code).toBe(0);
    const hint = /Not shown at 80 columns: ([A-Z, ]+)\. +To see them: --columns ([\w.,]+)/.exec(screen(first.output).join(" "));
    expect(hint, first.output).not.toBeNull();
    const again = await term(['issues', 'search', '--page-size', '5', '--columns', hint![2]]);
    expect(again.code).toBe(0);
    const header = screen(again.output).find((l) => l.startsWith('ID'))!.split(/\s{2,}/);
    for (const h of hint![1].split(', ')) expect(header).toContain(h);
    expect(again.output).not.toContain('Not shown');
    expect(wide(again.output)).toEqual([]);
  });

  it('an unknown column is exit 2 with the nearest name and a short list, before empty cells are shown', async () => {
    const r = await term(['issues', 'search', '--columns', 'id,titel']);
    expect(r.code).toBe(2);
    const text = screen(r.output).join(' ');
    expect(text).toMatch(/unknown column 'titel' for issues search \(did you mean 'title'\?\); +columns: id, level, score,/);
    expect(wide(r.output)).toEqual([]);
    expect(screen(r.output).filter((l) => l.trim()).length).toBeLessThanOrEqual(4);
    const posture = await term(['stats', 'security-posture', '--columns', 'date,total']);
    expect(posture.code).toBe(2);
    expect(screen(posture.output).join(' ')).toMatch(/unknown columns 'date', 'total' for stats security-posture/);
  });

  it('--columns on svc api is checked against the answer (exit 2, not empty cells); a header as shown, with its space, works', async () => {
    const api = await term(['api', 'repositories/list', '--columns', 'nmae']);
    expect(api.code).toBe(2);
    expect(flat(api.output)).toMatch(/unknown column 'nmae' for svc api repositories\/list \(did you mean 'name'\?\)/);
    // A call that changes something was made before the answer showed the name unknown: said so.
    const issue = (await sb.runJson<{ issues: Array<{ id: string }> }>(['issues', 'search', '--types', 'open'])).issues[0].id;
    const change = await term(['api', 'issues/archive', '-f', `issueId=${issue}`, '--columns', 'nmae']);
    expect(change.code).toBe(2);
    expect(flat(change.output)).toMatch(/unknown column 'nmae' .* the call was sent and answered/);
    const csv = await sb.run(['api', 'repositories/list', '--columns', 'name,issueCounts.open', '-o', 'csv']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout.split('\n')[0]).toBe('name,issueCounts.open');
    const header = await term(['repos', 'list', '--columns', 'NAME,PR SCANS,open']);
    expect(header.code, header.output).toBe(0);
    expect(screen(header.output).find((l) => l.startsWith('NAME'))?.split(/\s{2,}/)).toEqual(['NAME', 'PR SCANS', 'OPEN']);
  });

  it('a --jq syntax error gives an example of the command\'s own form: per item under --all, the page\'s list without', async () => {
    const all = await term(['issues', 'search', '--all', '--jq', '.id * ']);
    expect(all.code).toBe(2);
    expect(flat(all.output)).toContain("e.g. --jq '.id'");
    expect(flat(all.output)).not.toContain('.issues[]');
    const repos = await term(['repos', 'list', '--jq', '.a b']);
    expect(repos.code).toBe(2);
    expect(flat(repos.output)).not.toContain('.issues[]');
    const scans = await term(['scans', 'list', '--jq', '.a b']);
    expect(flat(scans.output)).toContain("e.g. --jq '.codeScans[].scanId'");
  });

  it('--all --jq runs on each item: .id prints every id; the page form is exit 2 naming the per-item form', async () => {
    // One repository's issues, over several pages (jq runs once per item: ~1 ms each).
    const repo = (await sb.runJson<Array<{ id: string }>>(['repos', 'list']))[0].id;
    const ids = (await sb.run(['issues', 'search', '--repository-ids', repo, '--all', '-o', 'ndjson'])).stdout.trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
    expect(ids.length).toBeGreaterThan(10);
    const r = await term(['issues', 'search', '--repository-ids', repo, '--all', '--page-size', '5', '--jq', '.id']);
    expect(r.code).toBe(0);
    const printed = screen(r.output).map((l) => /iss_\w+/.exec(l)?.[0]).filter(Boolean);
    expect(printed).toEqual(ids);
    const page = await term(['issues', 'search', '--all', '--jq', '.issues[].id']);
    expect(page.code).toBe(2);
    expect(flat(page.output)).toMatch(/runs on each item .* use the per-item form: --jq '\.id'/);
    expect(wide(page.output)).toEqual([]);
    const syntax = await term(['issues', 'search', '--jq', '.issues[] | select(.score >']);
    expect(syntax.code).toBe(2);
    expect(flat(syntax.output)).toContain("--jq '.issues[] | select(.score >': syntax error, the expression ends too early");
  });

  it('values say what they mean: setters say what changed, severity vs level, the time zone kept, impossible dates refused', async () => {
    const repo = (await sb.runJson<Array<{ id: string; name: string }>>(['repos', 'list']))[0];
    const set = await term(['repos', 'set-pr-scanning', repo.id, '--is-pr-scanning-enabled']);
    expect(set.code).toBe(0);
    expect(flat(set.output)).toContain(`PR scanning: on for ${repo.name}`);
    expect(flat(set.output)).not.toMatch(/\bok +true\b/);
    const off = await term(['repos', 'set-pr-scanning', repo.id, '--no-is-pr-scanning-enabled']);
    expect(flat(off.output)).toContain(`PR scanning: off for ${repo.name}`);

    const issue = (await sb.runJson<{ issues: Array<{ id: string }> }>(['issues', 'search', '--page-size', '1'])).issues[0];
    const sev = await term(['issues', 'update-severity', issue.id, '--severity', '3']);
    expect(sev.code).toBe(0);
    expect(flat(sev.output)).toContain(`Severity: 3 for ${issue.id}`);
    expect(flat(sev.output)).toContain('The level svc shows comes from the score');
    const help = await term(['issues', 'update-severity', '--help']);
    expect(flat(help.output)).toMatch(/levels .* come from the issue's 0-100 score, not from severity/);

    const schedule = await term(['scans', 'get-schedule', repo.id]);
    expect(schedule.code).toBe(0);
    const zone = /Time zone +(\S+)/.exec(flat(schedule.output))?.[1];
    expect(zone).toMatch(/^[A-Za-z_]+(\/[A-Za-z_]+)*$/);
    expect(flat(schedule.output)).toContain(`--timezone ${zone}`);

    const date = await term(['stats', 'issues-by-severity', '--start-date', '2026-13-01', '--verbose']);
    expect(date.code).toBe(2);
    expect(flat(date.output)).toContain('invalid value for --start-date: expected a real calendar day as YYYY-MM-DD');
    expect(date.output).not.toContain('POST');
  });

  it('smaller stops: svc login, config set org, a zone typo, a missing issue, a clear 400', async () => {
    const login = await term(['login']);
    expect(login.code).toBe(2);
    expect(flat(login.output)).toContain("unknown command 'login' (did you mean 'svc auth login'?)");
    const org = await term(['config', 'set', 'org', 'org_1']);
    expect(org.code).toBe(2);
    expect(flat(org.output)).toContain("svc: error: unknown setting 'org' (did you mean 'organization'?); settings: base-url, dev-base-url, organization, output");
    const zone = await term(['scans', 'upsert-schedule', 'repo_1', '--timezone', 'Europe/Berln', '--dry-run']);
    expect(zone.code).toBe(2);
    expect(flat(zone.output)).toContain('did you mean Europe/Berlin?');
    const missing = await term(['issues', 'get', 'iss_nope']);
    expect(missing.code).toBe(4);
    expect(flat(missing.output)).toMatch(/HTTP 404: .*iss_nope.*; check the id\s*$/);
    expect(missing.output).not.toContain('svc api');
    const repo = (await sb.runJson<Array<{ id: string }>>(['repos', 'list']))[0];
    const rejected = await term(['scans', 'upsert-schedule', repo.id, '-F', 'executionCriteriaCrontab=1']);
    expect(rejected.code).toBe(5);
    expect(flat(rejected.output)).toMatch(/HTTP 400: \S/);
    expect(rejected.output).not.toContain('--help');
    for (const r of [login, org, zone, missing, rejected]) expect(wide(r.output)).toEqual([]);
  });

  it('the organization in use is visible: auth status and repos list say which and from where', async () => {
    const orgs = await sb.runJson<Array<{ id: string; name: string }>>(['orgs', 'list']);
    expect(orgs.length).toBeGreaterThan(1);
    const status = await term(['auth', 'status']);
    expect(status.code).toBe(0);
    const text = flat(status.output);
    expect(text).toContain("organization none set: the service acts on the token's default organization; this token sees");
    for (const o of orgs) expect(text).toContain(`${o.id} (${o.name})`);
    expect(text).toContain('choose one: svc config set organization ID, or --org ID on a command');
    expect(text).not.toContain('commands need --org');
    expect(wide(status.output)).toEqual([]);
    const chosen = await term(['auth', 'status', '--org', orgs[1].id]);
    expect(flat(chosen.output)).toContain(`organization ${orgs[1].id} ${orgs[1].name} (from --org)`);
    const list = await term(['repos', 'list']);
    expect(list.code).toBe(0);
    expect(flat(list.output)).toContain("Organization: the token's default (none set; see svc auth status)");
    const listOrg = await term(['repos', 'list'], { ...sb.env, SVC_ORGANIZATION_ID: orgs[1].id });
    expect(flat(listOrg.output)).toContain(`Organization: ${orgs[1].id} (from SVC_ORGANIZATION_ID)`);
  });

  it('the spinner names the command as typed: stats security-posture, not the API\'s securityPosture', async () => {
    const r = await runCli(['stats', 'security-posture'], { env: sb.env, tty: true, columns: 80 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('stats security-posture');
    expect(r.stderr).not.toContain('securityPosture');
  });

  it('stats security-posture draws its series as a chart that fits, and ends with the change over the range', async () => {
    const data = await sb.runJson<{ series: Array<{ date: string; total: number }> }>(['stats', 'security-posture']);
    const r = await term(['stats', 'security-posture']);
    expect(r.code).toBe(0);
    const lines = screen(r.output);
    for (const p of data.series) expect(lines.find((l) => l.startsWith(`  ${p.date}  `)), p.date).toMatch(new RegExp(`^  ${p.date}  [█▓▒░·]+ +${p.total}$`));
    expect(lines.some((l) => l.includes('█ critical  ▓ high'))).toBe(true);
    const first = data.series[0];
    const last = data.series[data.series.length - 1];
    expect(flat(r.output)).toContain(`open total ${first.total} → ${last.total}`);
    expect(flat(r.output)).toContain(`since ${first.date}`);
    expect(wide(r.output)).toEqual([]);
  });

  // eslint-disable-next-line no-control-regex
  const painted = /\u001b\[3\dm/;
  it.runIf(ptyAvailable())('NO_COLOR and --no-color: the spinner is drawn without colour too (the real bin on a pty)', async () => {
    const [plain, flag] = await Promise.all([
      runOnPty(['stats', 'summary'], [], { env: { ...sb.env, NO_COLOR: '1' }, cols: 80, rows: 24 }),
      runOnPty(['stats', 'summary', '--no-color'], [], { env: sb.env, cols: 80, rows: 24 }),
    ]);
    expect(plain.code).toBe(0);
    expect(plain.output).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏](\u001b\[39m)? stats/);
    expect(plain.output).not.toMatch(painted);
    expect(flag.code).toBe(0);
    expect(flag.output).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏](\u001b\[39m)? stats/);
    expect(flag.output).not.toMatch(painted);
    // Without either the spinner is painted: the scan wait's pty run below shows it.
  });

  it.runIf(ptyAvailable())('scans start --wait: one status line whose elapsed time moves every second; Ctrl-C says the scan keeps running', async () => {
    const repo = (await sb.runJson<Array<{ id: string }>>(['repos', 'list']))[0];
    // The sandbox's scans run for a minute here; the status is checked every 10 s.
    const r = await runOnPty(['scans', 'start', '--repository-ids', repo.id, '--wait', '--poll-interval', '10'], [['(1s)', '\x03']], { env: sb.env, cols: 80, rows: 24, timeoutMs: 20_000 });
    expect(r.unanswered).toEqual([]);
    expect(r.code).toBe(130);
    // With neither NO_COLOR nor --no-color, the spinner is painted (the control of the test above).
    expect(r.output).toMatch(new RegExp(`${painted.source}[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]`));
    // Everything the status line showed over time (each update overwrites it on the screen): 0s, then 1s.
    const text = r.output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '').replace(/\s+/g, ' ');
    expect(text).toMatch(/scan (scan_\w+): running \(0s\).*scan \1: running \(1s\)/);
    const id = /scan (scan_\w+): running/.exec(text)![1];
    expect(text).toContain(`svc: error: interrupted by SIGINT; the scan keeps running: svc scans list --scan-id ${id}`);
    // One status line: the status is not also printed as lines of its own. The screen is what a
    // terminal keeps once every redraw (\r, cursor moves, erases) is applied: the spinner's line is
    // redrawn in place and erased when it stops, so any status line left on it was printed apart.
    const status = /scan scan_\w+: (waiting|queued|running|pending|\w+) \(\d+s\)/;
    expect(screen(r.output).filter((l) => /^scan scan_\w+: /.test(l.trim()))).toEqual([]);
    expect(terminalScreen(r.output).filter((l) => status.test(l))).toEqual([]);
    // And never committed with a newline while the spinner ran (a line scrolled off would not be on the screen).
    expect(r.output.split('\n').map((l) => terminalScreen(l).join('')).filter((l) => status.test(l))).toEqual([]);
  });
});

