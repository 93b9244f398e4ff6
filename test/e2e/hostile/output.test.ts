/**
 * What svc writes (issue 12, classes 4, 5, 6, 9): service text reaching a terminal or a CI log is
 * cleaned at every sink; CSV cannot carry formulas or controls; reports never clobber FIFOs or
 * devices; a failed write to stdout is reported and a gate keeps its verdict.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, existsSync, lstatSync, openSync, closeSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeIssue, startFakeService, type FakeService } from '../../helpers/fake-service.js';
import { BIN, cleanEnv } from '../../helpers/run-svc.js';
import { writeModeFor } from '../../../src/output/write-file.js';
import { envFor, rawServer, response, run, tempDir, type RawServer } from './harness.js';

const ESC = '\u001b';
/** Anything that a terminal or a CI log would act on: C0 but tab/newline, DEL, C1, bidi overrides. */
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const OSC52 = `${ESC}]52;c;ZWNobyBwd25lZA==\u0007`;
const hostileIssue = {
  ...makeIssue(1), id: 'iss-hostile', score: 95,
  generatedTitle: `Clipboard${OSC52} write ${ESC}[2J\u009b31m and \u202eevil`,
  generatedDescription: `line one${ESC}]8;;http://evil.example\u0007link${ESC}]8;;\u0007\u009d0;title\u0007 end`,
  affectedFile: `src/${ESC}[31ma.ts`,
};

let svc: FakeService;
let raw: RawServer;
beforeAll(async () => { svc = await startFakeService(); raw = await rawServer(); });
afterAll(async () => { await svc.close(); await raw.close(); });

describe('class 4: one sanitizer at every sink that reaches a terminal or a CI log', () => {
  it('gate --annotations, the human summary and the markdown summary carry no escape sequence', async () => {
    svc.setIssues([hostileIssue, makeIssue(2)]);
    const dir = tempDir();
    const md = join(dir, 'summary.md');
    const r = await run(['gate', '--fail-on', 'high', '--annotations', '--markdown', md], { env: svc.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('::error ');
    expect(r.stdout).toContain('Clipboard write');
    expect(r.stdout).not.toMatch(ACTIVE);
    expect(r.stdout).not.toContain('52;c;');
    expect(r.stderr).not.toMatch(ACTIVE);
    const text = readFileSync(md, 'utf8');
    expect(text).toContain('Clipboard write');
    expect(text).not.toMatch(ACTIVE);
  });

  it('an 8-bit C1 byte in a response header does not swallow the rest of the --verbose block', async () => {
    raw.handle('/api/v1/orgs/list', (_r, s) => {
      s.end(response(200, '[{"id":"org_after"}]', 'x-evil: a\u009d0;pwned\r\nx-after: still-here\r\n'));
    });
    const r = await run(['orgs', 'list', '--verbose', '-o', 'json'], { env: envFor(raw.url) });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(ACTIVE);
    expect(r.stderr).toContain('< x-after: still-here');
    expect(r.stderr).toContain('< [{"id":"org_after"}]');
  });

  it('service text in errors, tables and detail views is cleaned', async () => {
    raw.handle('/api/v1/issues/get', (_r, s) => { s.end(response(404, JSON.stringify({ error: `no issue ${OSC52} here${ESC}[31m` }))); });
    const e = await run(['issues', 'get', 'iss_1'], { env: envFor(raw.url) });
    expect(e.code).toBe(4);
    expect(e.stderr).toContain('no issue');
    expect(e.stderr).not.toMatch(ACTIVE);
    raw.handle('/api/v1/issues/get', (_r, s) => { s.end(response(200, JSON.stringify(hostileIssue))); });
    const d = await run(['issues', 'get', 'iss_1', '-o', 'table'], { env: envFor(raw.url, { NO_COLOR: '1' }), tty: true });
    expect(d.code, d.stderr).toBe(0);
    expect(d.stdout).toContain('Clipboard');
    expect(d.stdout).not.toMatch(ACTIVE);
  });

  it('JSON to a terminal keeps its values but writes C1, DEL, bidi and line separators as \\u escapes; pipes get it as sent', async () => {
    const issue = { ...hostileIssue, generatedTitle: `a\u009b31m b\u202e c\u007f d\u2028 e\u0085` };
    raw.handle('/api/v1/issues/get', (_r, s) => { s.end(response(200, JSON.stringify(issue))); });
    raw.handle('/api/v1/issues/search', (_r, s) => { s.end(response(200, JSON.stringify({ issues: [issue, { ...issue, id: 'iss-2' }], totalCount: 2 }))); });
    const cases = [['issues', 'get', 'iss_1', '-o', 'json'], ['issues', 'get', 'iss_1', '-o', 'ndjson'], ['issues', 'search', '--all', '-o', 'ndjson'], ['issues', 'search', '--all', '-o', 'json']];
    for (const argv of cases) {
      const t = await run(argv, { env: envFor(raw.url, { NO_COLOR: '1' }), tty: true });
      expect(t.code, `${argv.join(' ')}: ${t.stderr}`).toBe(0);
      expect(t.stdout, argv.join(' ')).not.toMatch(ACTIVE);
      expect(t.stdout, argv.join(' ')).toContain('a\\u009b31m b\\u202e c\\u007f d\\u2028 e\\u0085');
      const values = argv.includes('ndjson') ? t.stdout.trim().split('\n').map((l) => JSON.parse(l)) : [JSON.parse(t.stdout)].flat();
      for (const v of values) expect(v.generatedTitle).toBe(issue.generatedTitle);
      // In a pipe the JSON is what the service sent.
      const p = await run(argv, { env: envFor(raw.url) });
      expect(p.code).toBe(0);
      expect(p.stdout, argv.join(' ')).toContain(issue.generatedTitle);
    }
  });
});

/** A repository record with every field the spec marks required. */
const repository = (id: string, name: string) => ({
  id, projectId: 'proj_1', name, url: `https://hosta.example/${id}`, defaultScanTargetBranch: 'main', isPrScanningEnabled: true,
  isPrScanSummaryEnabled: true, isVulnInfoInPRComment: false, showCheckStatus: true, validationThreshold: -3, validationThresholdName: 'High',
});

describe('class 5: CSV holds no formula and no control character; lines end with LF', () => {
  const names = ['=HYPERLINK("http://evil.example","x")', '+1+cmd|calc', '-2+3', '@SUM(A1)', '\tTAB', '\r=CR', ` =spaced`, `bell\u0007${ESC}[31mred`, 'plain'];
  beforeAll(() => {
    raw.handle('/api/v1/repositories/list', (_r, s) => {
      s.end(response(200, JSON.stringify(names.map((name, i) => repository(`repo_${i}`, name)))));
    });
  });

  it('every dangerous cell gets a leading quote; numbers stay numbers', async () => {
    const r = await run(['repos', 'list', '-o', 'csv', '--columns', 'id,name,validationThreshold'], { env: envFor(raw.url) });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(ACTIVE);
    expect(r.stdout).not.toContain('\t');
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('id,name,validationThreshold');
    for (const line of lines.slice(1, -1)) {
      const cell = line.split(',')[1];
      const value = cell.replace(/^"|"$/g, '');
      expect(value, line).not.toMatch(/^\s*[=+\-@]/);
      expect(line.endsWith(',-3'), line).toBe(true);
    }
    expect(lines[1]).toBe(`repo_0,"'=HYPERLINK(""http://evil.example"",""x"")",-3`);
    expect(lines.at(-1)).toBe('');
  });

  it('the README recipe REPO_ID=$(svc repos list -o csv --columns id | sed -n 2p) gives a clean id', async () => {
    for (const tty of [false, true]) {
      const r = await run(['repos', 'list', '-o', 'csv', '--columns', 'id'], { env: envFor(raw.url), tty });
      expect(r.stdout.split('\n')[1]).toBe('repo_0');
      expect(r.stdout).not.toContain('\r');
    }
  });
});

describe('class 6: reports are written atomically only to regular files and new paths', () => {
  const gate = (report: string, more: string[] = []) => run(['gate', '--fail-on', 'critical', '--sarif', report, ...more], { env: svc.env });
  beforeAll(() => svc.setIssues([makeIssue(3)]));

  const hasMkfifo = (() => { try { execFileSync('mkfifo', ['--version'], { stdio: 'ignore' }); return true; } catch { return false; } })();
  it.skipIf(!hasMkfifo)('a FIFO is written into (its reader gets the report) and stays a FIFO (skipped without mkfifo)', async () => {
    const fifo = join(tempDir(), 'report.fifo');
    execFileSync('mkfifo', [fifo]);
    const chunks: Buffer[] = [];
    const reader = new Promise<string>((resolve) => {
      createReadStream(fifo).on('data', (c) => chunks.push(c as Buffer)).on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    const r = await gate(fifo);
    // Whatever happened, unblock a reader still waiting, so that a failure cannot hang the suite.
    // (A FIFO replaced by a file leaves its reader blocked on the old FIFO for good: do not wait for it.)
    const stillFifo = lstatSync(fifo).isFIFO();
    if (stillFifo && chunks.length === 0) closeSync(openSync(fifo, 'w'));
    const text = stillFifo ? await reader : '';
    expect(r.code, r.stderr).toBe(0);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(JSON.parse(text).version).toBe('2.1.0');
  });

  // A FIFO nobody reads: svc waits for a reader, as before, but on a timer of the event loop. A plain
  // open() there held a thread of libuv's pool, which process.exit joins: SIGTERM and Ctrl-C were
  // caught and then hung (only SIGKILL ended a cancelled CI job). A hang is killed at 10 s and fails.
  it.skipIf(!hasMkfifo).each([['SIGTERM', 143], ['SIGINT', 130]] as const)('a FIFO with no reader: %s ends svc with %i, the FIFO kept (skipped without mkfifo)', async (signal, code) => {
    const fifo = join(tempDir(), 'report.fifo');
    execFileSync('mkfifo', [fifo]);
    const asked = svc.requests.length;
    const child = spawn(process.execPath, [BIN, 'gate', '--fail-on', 'critical', '--sarif', fifo], { env: cleanEnv(svc.env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.stdout!.resume();
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (c, s) => resolve({ code: c, signal: s })));
    try {
      // The issues are read; then svc is at the report (a second for it to get there, on a busy machine too).
      for (let i = 0; i < 200 && !svc.requests.slice(asked).some((r) => r.path.includes('/issues/search')); i++) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 1000));
      child.kill(signal);
      const r = await ended;
      expect(r.signal, stderr).toBeNull();
      expect(r.code, stderr).toBe(code);
      expect(stderr).toContain(`interrupted by ${signal}`);
      expect(lstatSync(fifo).isFIFO()).toBe(true);
    } finally {
      clearTimeout(killer);
      child.kill('SIGKILL');
    }
  });

  it('a character device is written in place, never replaced', async () => {
    // Checked first, so that a broken writer can never replace the machine's /dev/null (as root it could).
    expect((await writeModeFor('/dev/null')).mode).toBe('direct');
    const before = statSync('/dev/null');
    const r = await gate('/dev/null');
    expect(r.code, r.stderr).toBe(0);
    const after = statSync('/dev/null');
    expect(after.isCharacterDevice()).toBe(true);
    expect(after.ino).toBe(before.ino);
  });

  it('/dev/stdout redirected to a file: the report goes into that file with the summary, the file is not replaced', async () => {
    // Checked first, so that a broken writer can never replace /dev/stdout (as root it could).
    expect((await writeModeFor('/dev/stdout')).mode).toBe('stdout');
    const out = join(tempDir(), 'out.txt');
    const fd = openSync(out, 'w');
    const before = statSync(out).ino;
    const code = await new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, [BIN, 'gate', '--fail-on', 'critical', '--sarif', '/dev/stdout'], { env: cleanEnv(svc.env), stdio: ['ignore', fd, 'ignore'] });
      child.on('close', resolve);
    });
    closeSync(fd);
    expect(code).toBe(0);
    expect(statSync(out).ino).toBe(before);
    const text = readFileSync(out, 'utf8');
    expect(text).toContain('svc gate: PASSED');
    expect(text).toContain('"version":"2.1.0"');
  });

  it('`-` writes the report to stdout', async () => {
    const r = await run(['gate', '--fail-on', 'critical', '--sarif', '-', '-o', 'json'], { env: svc.env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('"version":"2.1.0"');
  });

  it('a symbolic link to a regular file stays a link; its target gets the new report whole', async () => {
    const dir = tempDir();
    const target = join(dir, 'real.sarif');
    const link = join(dir, 'link.sarif');
    writeFileSync(target, 'old');
    symlinkSync(target, link);
    const r = await gate(link);
    expect(r.code).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(target);
    expect(JSON.parse(readFileSync(target, 'utf8')).version).toBe('2.1.0');
  });

  it('a directory is refused (exit 2) and a new path is created', async () => {
    const dir = tempDir();
    expect((await gate(dir)).code).toBe(2);
    const fresh = join(dir, 'new.sarif');
    expect((await gate(fresh)).code).toBe(0);
    expect(existsSync(fresh)).toBe(true);
  });
});

describe('class 9: a failed write to stdout is reported, and a gate keeps its verdict', () => {
  const hasFull = existsSync('/dev/full');
  /** Spawns the built svc with stdout on /dev/full (every write fails with ENOSPC). */
  const toFull = (args: string[], env: Record<string, string>) => new Promise<{ code: number | null; stderr: string }>((resolve) => {
    const full = openSync('/dev/full', 'w');
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', full, 'pipe'] });
    closeSync(full);
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => { stderr += d; });
    child.on('close', (code) => resolve({ code, stderr }));
  });

  it.skipIf(!hasFull)('a read whose output cannot be written: exit 9 and one line naming the error (skipped without /dev/full)', async () => {
    const r = await toFull(['help', 'exit-codes'], {});
    expect(r.code).toBe(9);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^svc: error: cannot write the output to stdout: no space left on the device \(ENOSPC\)/);
  });

  it.skipIf(!hasFull)('a failing gate whose summary cannot be written still exits 1; a passing one exits 9', async () => {
    svc.setIssues([makeIssue(3)]);
    const failing = await toFull(['gate', '--fail-on', 'info'], svc.env);
    expect(failing.code).toBe(1);
    expect(failing.stderr).toMatch(/cannot write the output to stdout.*ENOSPC/);
    svc.setIssues([]);
    const passing = await toFull(['gate', '--fail-on', 'info'], svc.env);
    expect(passing.code).toBe(9);
  });

  it.skipIf(!hasFull)('a report file on a full device: exit 9 naming the report', async () => {
    // Checked first, so that a broken writer can never replace the machine's /dev/full (as root it could).
    expect((await writeModeFor('/dev/full')).mode).toBe('direct');
    svc.setIssues([makeIssue(3)]);
    const r = await run(['gate', '--fail-on', 'critical', '--junit', '/dev/full'], { env: svc.env });
    expect(r.code).toBe(9);
    expect(r.stderr).toMatch(/cannot write the --junit report to \/dev\/full \(ENOSPC\)/);
  });
});
