/**
 * Service text cannot form a CI runner command in the log (the red team's finding 1): on host A's
 * runner (GITHUB_ACTIONS=true) and on the logging-command CI (TF_BUILD=True) the runner acts on
 * `##[` and `##vso[` anywhere in a line and on `::` at a line's start after blanks. svc's own
 * commands (annotations, group markers) stay commands; JSON output keeps its values.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { guardStream, logParsesCommands, neutralise, writeCommand } from '../../../src/ci/log-guard.js';
import { LOG_COMMAND_MARKERS, ciRows } from '../../../src/ci/providers.js';
import { useFakeServer } from '../../helpers/fake-server.js';
import { runCli } from '../../helpers/host.js';

const fake = useFakeServer();
const HOSTA = { GITHUB_ACTIONS: 'true' };
const LOGGING = { TF_BUILD: 'True' };

/**
 * The commands a runner finds in its log, as the runners parse them: a line (split at LF and CR) that
 * starts with `::` after trimming blanks and has a second `::`; else `##[` or `##vso[` (any case) in it.
 */
function commands(log: string): string[] {
  const found: string[] = [];
  for (const line of log.split(/\r\n|\r|\n/)) {
    const t = line.trim();
    if (t.startsWith('::') && t.indexOf('::', 2) > 0) found.push(t.slice(0, t.indexOf('::', 2) + 2));
    else if (line.includes('##[')) found.push(line.slice(line.indexOf('##['), line.indexOf(']', line.indexOf('##[')) + 1));
    else if (/##vso\[/i.test(line)) found.push(/##vso\[[^\]]*\]?/i.exec(line)![0]);
  }
  return found;
}

const HOSTILE = ['##[stop-commands]svcpwn', '##[error]fake', '##[add-mask]critical', '##vso[task.setvariable variable=PATH]/tmp/evil', '##VSO[task.complete result=Succeeded]'];

function issue(i: number, title: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: `iss_${i}`, repositoryId: 'repo_a', status: 'open', generatedTitle: title, vulnClass: 'SQL Injection', score: 95, affectedFile: 'a.js', startLine: 1, ...over };
}
const page = (issues: Array<Record<string, unknown>>) => ({ json: { issues, totalCount: issues.length, currentPage: 1, pageSize: 100 } });

describe('neutralise', () => {
  const fresh = () => ({ tail: '', line: 0 as const });

  it('escapes the character that completes a command, and nothing else', () => {
    expect(neutralise('a ##[error]x ##vso[task.x]y ##VsO[z] #[ok] ## [ok]\n', fresh())).toBe('a ##\\u005berror]x ##vso\\u005btask.x]y ##VsO\\u005bz] #[ok] ## [ok]\n');
    expect(neutralise('::warning::x\n  \t::error::y\nz ::notice::w\n\u3000::add-mask::s\r::group::g\n', fresh()))
      .toBe(':\\u003awarning::x\n  \t:\\u003aerror::y\nz ::notice::w\n\u3000:\\u003aadd-mask::s\r:\\u003agroup::g\n');
    expect(neutralise('plain text: a::b, std::string\n', fresh())).toBe('plain text: a::b, std::string\n');
  });

  it('catches a sequence split across writes', () => {
    for (const [a, b] of [['x #', '#[error]'], ['x ##', '[error]'], ['x ##v', 'so[y]'], ['x ##vso', '[y]'], ['  :', ':warning::z'], ['\n', '::error::z'], ['  ', '::error::z']]) {
      const state = fresh();
      const log = neutralise(a, state) + neutralise(b, state);
      expect(commands(log), JSON.stringify([a, b])).toEqual([]);
    }
  });

  it('keeps JSON values identical', () => {
    const value = { t: HOSTILE, d: '##[error]a\n::warning::b', k: { '##[x]': '##vso[' } };
    for (const text of [JSON.stringify(value), JSON.stringify(value, null, 2)]) {
      const safe = neutralise(text, fresh());
      expect(commands(safe)).toEqual([]);
      expect(JSON.parse(safe)).toEqual(value);
    }
  });

  it('a guarded stream: strings and bytes (split inside a UTF-8 character), and svc\'s own commands as they are', () => {
    const sink = new PassThrough();
    const chunks: Buffer[] = [];
    sink.on('data', (c: Buffer) => chunks.push(c));
    const s = guardStream(sink);
    const bytes = Buffer.from('{"t":"é##[error]x"}\n{"t":"##');
    s.write(bytes.subarray(0, 7)); // ends inside é
    s.write(bytes.subarray(7));
    s.write(Buffer.from('vso[y]"}\n'));
    writeCommand(s, '::error file=a.js::title\n');
    s.write('::error::x\n');
    const log = Buffer.concat(chunks).toString('utf8');
    expect(log).toBe('{"t":"é##\\u005berror]x"}\n{"t":"##vso\\u005by]"}\n::error file=a.js::title\n:\\u003aerror::x\n');
    expect(commands(log)).toEqual(['::error file=a.js::']);
  });

  it('is on where the runner parses commands, even with svc\'s CI behaviour off', () => {
    expect(logParsesCommands(HOSTA)).toBe(true);
    expect(logParsesCommands({ ...HOSTA, CI: 'false', SVC_NO_CI: '1' })).toBe(true);
    expect(logParsesCommands(LOGGING)).toBe(true);
    expect(logParsesCommands({ GITLAB_CI: 'true' })).toBe(false);
    expect(logParsesCommands({ BITBUCKET_BUILD_NUMBER: '7' })).toBe(false);
    expect(logParsesCommands({ CI: 'true' })).toBe(false);
  });

  it("reads the markers of exactly the table's rows whose log acts on commands (without making the table)", () => {
    expect(ciRows().filter((r) => r.logCommands === true).map((r) => r.marker)).toEqual(LOG_COMMAND_MARKERS);
    // The same objects: the rows use them, so the two cannot drift apart.
    for (const m of LOG_COMMAND_MARKERS) expect(ciRows().some((r) => r.marker === m)).toBe(true);
  });
});

describe('svc on a runner that parses commands writes none from the service', () => {
  it('gate --fail-on high (host A): the breaking issues\' table has no command; the group and annotations stay', async () => {
    fake.stub('/api/v1/issues/search', page(HOSTILE.map((t, i) => issue(i + 1, t))));
    const r = await runCli(['gate', '--fail-on', 'high'], { env: { ...fake.env, ...HOSTA } });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('##\\u005bstop-commands]svcpwn');
    const found = commands(r.stdout + r.stderr);
    expect(found.filter((c) => !/^::(group|endgroup|error|warning|notice)[ :]/.test(c))).toEqual([]);
    expect(found).toContain('::endgroup::');
    expect(found.filter((c) => c.startsWith('::error ')).length).toBe(HOSTILE.length);
    // The service's text inside svc's own annotations is escaped too (title and message).
    for (const line of r.stdout.split('\n').filter((l) => l.startsWith('::error '))) expect(line).not.toMatch(/##(vso)?\[/i);
  });

  it('gate on the logging-command CI: ##vso[ from titles is escaped; its own logissue lines and group stay', async () => {
    fake.stub('/api/v1/issues/search', page(HOSTILE.map((t, i) => issue(i + 1, t))));
    const r = await runCli(['gate', '--fail-on', 'high'], { env: { ...fake.env, ...LOGGING } });
    expect(r.code, r.stderr).toBe(1);
    const found = commands(r.stdout + r.stderr);
    expect(found.filter((c) => !/^(##\[(group|endgroup)\]|##vso\[task\.logissue )/.test(c))).toEqual([]);
    expect(found.filter((c) => c.startsWith('##vso[task.logissue ')).length).toBe(HOSTILE.length);
  });

  for (const [name, env] of [['host A', HOSTA], ['logging-command CI', LOGGING]] as const) {
    it(`${name}: an error line holding the service's words has no command`, async () => {
      fake.stub('/api/v1/orgs/list', { status: 400, json: { error: 'bad ##[error]x ##vso[task.setvariable variable=PATH]/tmp/evil' } });
      const r = await runCli(['orgs', 'list'], { env: { ...fake.env, ...env } });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/HTTP 400: .*##\\u005berror\]x/);
      expect(commands(r.stderr)).toEqual([]);
    });

    it(`${name}: issues search -o table, csv, json, ndjson and --all: no command, JSON values identical`, async () => {
      const items = [issue(1, '##[error]t', { generatedDescription: '::warning::injected\n  ::add-mask::x' }), issue(2, '##vso[task.complete]')];
      fake.stub('/api/v1/issues/search', page(items));
      for (const args of [['-o', 'table'], ['-o', 'csv'], ['-o', 'json'], ['-o', 'ndjson'], ['--all', '-o', 'ndjson'], ['--all', '-o', 'json'], ['--all', '-o', 'csv']]) {
        const r = await runCli(['issues', 'search', ...args], { env: { ...fake.env, ...env } });
        expect(r.code, r.stderr).toBe(0);
        expect(commands(r.stdout + r.stderr), args.join(' ')).toEqual([]);
        if (args.includes('json')) expect((JSON.parse(r.stdout) as { issues?: unknown[] }).issues ?? JSON.parse(r.stdout)).toEqual(items);
        if (args.includes('ndjson')) expect(r.stdout.trim().split('\n').map((l) => JSON.parse(l))).toEqual(items);
      }
    });
  }

  it('host A: issues get -o table: a description line `  ::warning::injected` is no command', async () => {
    fake.stub('/api/v1/issues/get', { json: issue(3, 'x', { generatedDescription: 'intro\n  ::warning::injected\n::stop-commands::tok' }) });
    const r = await runCli(['issues', 'get', 'iss_3', '-o', 'table'], { env: { ...fake.env, ...HOSTA } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(':\\u003awarning::injected');
    expect(commands(r.stdout + r.stderr)).toEqual([]);
  });

  it('host B: its log folds at section_start/section_end markers ending in CR ESC[0K, which service text cannot hold', async () => {
    const title = 'x section_start:1:evil\r\u001b[0Kboo section_end:1:evil\r\u001b[0K';
    fake.stub('/api/v1/issues/search', page([issue(1, title)]));
    for (const args of [['-o', 'table'], ['-o', 'csv'], ['-o', 'json'], ['--all', '-o', 'ndjson']]) {
      const r = await runCli(['issues', 'search', ...args], { env: { ...fake.env, GITLAB_CI: 'true' } });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout, args.join(' ')).not.toMatch(/section_(start|end):\d+:[\w.-]+(\[[^\]]*\])?\r\u001b\[0K/);
    }
  });

  it('outside such a CI (and on host B) the output is as the service sent it', async () => {
    fake.stub('/api/v1/issues/search', page([issue(1, '##[error]t')]));
    for (const env of [{}, { GITLAB_CI: 'true' }]) {
      const r = await runCli(['issues', 'search', '-o', 'csv'], { env: { ...fake.env, ...env } });
      expect(r.stdout).toContain('##[error]t');
    }
  });
});
