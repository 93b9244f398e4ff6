/**
 * A newcomer's hour at an 80x24 terminal (issue 24), on the real bin: each stop a first-time user met
 * is checked where they met it.
 */
import { describe, expect, it } from 'vitest';
import { runOnPty, ptyAvailable } from '../helpers/pty.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

// eslint-disable-next-line no-control-regex
const screen = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '').split('\n').map((l) => l.replace(/^.*[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] [^A-Z]*?(?=[A-Z]{2})/, ''));
/** What the terminal showed as one line of words (wrapped lines joined). */
const flat = (text: string) => screen(text).join(' ').replace(/\s+/g, ' ');
/** Lines wider than 80 columns, but for one that holds a word too long to break (a file path). */
const wide = (text: string) => screen(text).filter((l) => l.length > 80 && !l.split(/\s+/).some((w) => w.length > 40));

describe.runIf(ptyAvailable())('at an 80x24 terminal', () => {
  it('help screens and topics fit 80 columns', async () => {
    for (const argv of [['--help'], ['issues', 'search', '--help'], ['repos', '--help'], ['help', 'output'], ['help', 'environment'], ['gate', '--help']]) {
      const r = await runOnPty(argv, [], { env: sb.env, cols: 80, rows: 24 });
      expect(r.code, argv.join(' ')).toBe(0);
      expect(wide(r.output), `svc ${argv.join(' ')}`).toEqual([]);
    }
  });

  it('--columns takes the table headers and field names, any case; level comes from score', async () => {
    const found = await sb.runJson<{ issues: Array<{ id: string; affectedFile: string; startLine: number; score: number }> }>(['issues', 'search', '--page-size', '5']);
    const r = await runOnPty(['issues', 'search', '--page-size', '5', '--columns', 'id,file,LINE,level'], [], { env: sb.env, cols: 80, rows: 24 });
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
    const first = await runOnPty(['issues', 'search', '--page-size', '5'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(first.code).toBe(0);
    const hint = /Not shown at 80 columns: ([A-Z, ]+)\. +To see them: --columns ([\w.,]+)/.exec(screen(first.output).join(" "));
    expect(hint, first.output).not.toBeNull();
    const again = await runOnPty(['issues', 'search', '--page-size', '5', '--columns', hint![2]], [], { env: sb.env, cols: 80, rows: 24 });
    expect(again.code).toBe(0);
    const header = screen(again.output).find((l) => l.startsWith('ID'))!.split(/\s{2,}/);
    for (const h of hint![1].split(', ')) expect(header).toContain(h);
    expect(again.output).not.toContain('Not shown');
    expect(wide(again.output)).toEqual([]);
  });

  it('an unknown column is exit 2 with the nearest name and a short list, before empty cells are shown', async () => {
    const r = await runOnPty(['issues', 'search', '--columns', 'id,titel'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(r.code).toBe(2);
    const text = screen(r.output).join(' ');
    expect(text).toMatch(/unknown column 'titel' for issues search \(did you mean 'title'\?\); +columns: id, score,/);
    expect(wide(r.output)).toEqual([]);
    expect(screen(r.output).filter((l) => l.trim()).length).toBeLessThanOrEqual(4);
    const posture = await runOnPty(['stats', 'security-posture', '--columns', 'date,total'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(posture.code).toBe(2);
    expect(screen(posture.output).join(' ')).toMatch(/unknown columns 'date', 'total' for stats security-posture/);
  });

  it('--all --jq runs on each item: .id prints every id; the page form is exit 2 naming the per-item form', async () => {
    const ids = (await sb.run(['issues', 'search', '--all', '-o', 'ndjson'])).stdout.trim().split('\n').map((l) => (JSON.parse(l) as { id: string }).id);
    const r = await runOnPty(['issues', 'search', '--all', '--page-size', '100', '--jq', '.id'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(r.code).toBe(0);
    const printed = screen(r.output).map((l) => /iss_\w+/.exec(l)?.[0]).filter(Boolean);
    expect(printed).toEqual(ids);
    const page = await runOnPty(['issues', 'search', '--all', '--jq', '.issues[].id'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(page.code).toBe(2);
    expect(flat(page.output)).toMatch(/runs on each item .* use the per-item form: --jq '\.id'/);
    expect(wide(page.output)).toEqual([]);
    const syntax = await runOnPty(['issues', 'search', '--jq', '.issues[] | select(.score >'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(syntax.code).toBe(2);
    expect(flat(syntax.output)).toContain("--jq '.issues[] | select(.score >': syntax error, the expression ends too early");
  });

  it('values say what they mean: setters say what changed, severity vs level, the time zone kept, impossible dates refused', async () => {
    const repo = (await sb.runJson<Array<{ id: string; name: string }>>(['repos', 'list']))[0];
    const set = await runOnPty(['repos', 'set-pr-scanning', repo.id, '--is-pr-scanning-enabled'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(set.code).toBe(0);
    expect(flat(set.output)).toContain(`PR scanning: on for ${repo.name}`);
    expect(flat(set.output)).not.toMatch(/\bok +true\b/);
    const off = await runOnPty(['repos', 'set-pr-scanning', repo.id, '--no-is-pr-scanning-enabled'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(flat(off.output)).toContain(`PR scanning: off for ${repo.name}`);

    const issue = (await sb.runJson<{ issues: Array<{ id: string }> }>(['issues', 'search', '--page-size', '1'])).issues[0];
    const sev = await runOnPty(['issues', 'update-severity', issue.id, '--severity', '3'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(sev.code).toBe(0);
    expect(flat(sev.output)).toContain(`Severity: 3 for ${issue.id}`);
    expect(flat(sev.output)).toContain('The level svc shows comes from the score');
    const help = await runOnPty(['issues', 'update-severity', '--help'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(flat(help.output)).toMatch(/levels .* come from the issue's 0-100 score, not from severity/);

    const schedule = await runOnPty(['scans', 'get-schedule', repo.id], [], { env: sb.env, cols: 80, rows: 24 });
    expect(schedule.code).toBe(0);
    const zone = /Time zone +(\S+)/.exec(flat(schedule.output))?.[1];
    expect(zone).toMatch(/^[A-Za-z_]+(\/[A-Za-z_]+)*$/);
    expect(flat(schedule.output)).toContain(`--timezone ${zone}`);

    const date = await runOnPty(['stats', 'issues-by-severity', '--start-date', '2026-13-01', '--verbose'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(date.code).toBe(2);
    expect(flat(date.output)).toContain('invalid value for --start-date: expected a real calendar day as YYYY-MM-DD');
    expect(date.output).not.toContain('POST');
  });

  it('smaller stops: svc login, config set org, a zone typo, a missing issue, a clear 400', async () => {
    const login = await runOnPty(['login'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(login.code).toBe(2);
    expect(flat(login.output)).toContain("unknown command 'login' (did you mean 'svc auth login'?)");
    const org = await runOnPty(['config', 'set', 'org', 'org_1'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(org.code).toBe(2);
    expect(flat(org.output)).toContain("svc: error: unknown setting 'org' (did you mean 'organization'?); settings: base-url, dev-base-url, organization, output");
    const zone = await runOnPty(['scans', 'upsert-schedule', 'repo_1', '--timezone', 'Europe/Berln', '--dry-run'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(zone.code).toBe(2);
    expect(flat(zone.output)).toContain('did you mean Europe/Berlin?');
    const missing = await runOnPty(['issues', 'get', 'iss_nope'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(missing.code).toBe(4);
    expect(flat(missing.output)).toMatch(/HTTP 404: .*iss_nope.*; check the id\s*$/);
    expect(missing.output).not.toContain('svc api');
    const repo = (await sb.runJson<Array<{ id: string }>>(['repos', 'list']))[0];
    const rejected = await runOnPty(['scans', 'upsert-schedule', repo.id, '-F', 'executionCriteriaCrontab=1'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(rejected.code).toBe(5);
    expect(flat(rejected.output)).toMatch(/HTTP 400: \S/);
    expect(rejected.output).not.toContain('--help');
    for (const r of [login, org, zone, missing, rejected]) expect(wide(r.output)).toEqual([]);
  });

  it('the organization in use is visible: auth status and repos list say which and from where', async () => {
    const orgs = await sb.runJson<Array<{ id: string; name: string }>>(['orgs', 'list']);
    expect(orgs.length).toBeGreaterThan(1);
    const status = await runOnPty(['auth', 'status'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(status.code).toBe(0);
    const text = flat(status.output);
    expect(text).toContain("organization none set: the service acts on the token's default organization; this token sees");
    for (const o of orgs) expect(text).toContain(`${o.id} (${o.name})`);
    expect(text).toContain('choose one: svc config set organization ID, or --org ID on a command');
    expect(text).not.toContain('commands need --org');
    expect(wide(status.output)).toEqual([]);
    const chosen = await runOnPty(['auth', 'status', '--org', orgs[1].id], [], { env: sb.env, cols: 80, rows: 24 });
    expect(flat(chosen.output)).toContain(`organization ${orgs[1].id} ${orgs[1].name} (from --org)`);
    const list = await runOnPty(['repos', 'list'], [], { env: sb.env, cols: 80, rows: 24 });
    expect(list.code).toBe(0);
    expect(flat(list.output)).toContain("Organization: the token's default (none set; see svc auth status)");
    const listOrg = await runOnPty(['repos', 'list'], [], { env: { ...sb.env, SVC_ORGANIZATION_ID: orgs[1].id }, cols: 80, rows: 24 });
    expect(flat(listOrg.output)).toContain(`Organization: ${orgs[1].id} (from SVC_ORGANIZATION_ID)`);
  });

  it('stats security-posture draws its series as a chart that fits, and ends with the change over the range', async () => {
    const data = await sb.runJson<{ series: Array<{ date: string; total: number }> }>(['stats', 'security-posture']);
    const r = await runOnPty(['stats', 'security-posture'], [], { env: sb.env, cols: 80, rows: 24 });
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

  it('scans start --wait: one status line whose elapsed time moves every second; Ctrl-C says the scan keeps running', async () => {
    const repo = (await sb.runJson<Array<{ id: string }>>(['repos', 'list']))[0];
    // The sandbox's scans run for a minute here; the status is checked every 10 s.
    const r = await runOnPty(['scans', 'start', '--repository-ids', repo.id, '--wait', '--poll-interval', '10'], [['(2s)', '\x03']], { env: sb.env, cols: 80, rows: 24, timeoutMs: 20_000 });
    expect(r.unanswered).toEqual([]);
    expect(r.code).toBe(130);
    const text = flat(r.output);
    expect(text).toMatch(/scan (scan_\w+): running \(1s\)/);
    const id = /scan (scan_\w+): running/.exec(text)![1];
    expect(text).toContain(`svc: error: interrupted by SIGINT; the scan keeps running: svc scans list --scan-id ${id}`);
    // One status line: the status is not also printed as lines of its own.
    expect(screen(r.output).filter((l) => /^scan scan_\w+: /.test(l.trim()))).toEqual([]);
  });
});

