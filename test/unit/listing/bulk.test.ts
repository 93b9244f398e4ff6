/** Bulk actions: several ids in one process (src/listing/bulk.ts, bulk-ids.ts, bulk-where.ts). */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers/sandbox.js';
import { useFakeServer } from '../../helpers/fake-server.js';
import { runCli, testHost } from '../../helpers/host.js';
import { tempDir } from '../../helpers/temp.js';
import { parseIdList } from '../../../src/listing/bulk-ids.js';
import { progressText } from '../../../src/listing/bulk.js';

const sb = useSandbox();

async function openIds(n: number, extra: string[] = []): Promise<string[]> {
  const r = await sb.runJson(['issues', 'search', '--types', 'open', '--page-size', String(n), ...extra]);
  return r.issues.map((i: { id: string }) => i.id);
}

const status = async (id: string) => (await sb.runJson(['issues', 'get', id])).status;

describe('bulk actions against the sandbox', () => {
  it('archives several positional ids in one process, with a summary and exit 0', async () => {
    const ids = await openIds(3);
    const r = await sb.run(['issues', 'archive', ...ids, '-o', 'table']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('3 archived');
    for (const id of ids) expect(await status(id)).toBe('archived');
  });

  it('marks 50 ids piped from search -o ndjson as false positives, exit 0', async () => {
    const search = await sb.run(['issues', 'search', '--types', 'open', '--page-size', '50', '-o', 'ndjson']);
    expect(search.code, search.stderr).toBe(0);
    const ids = search.stdout.trim().split('\n').map((l) => JSON.parse(l).id);
    expect(ids).toHaveLength(50);
    const r = await sb.run(['issues', 'mark-false-positive', '--ids-from', '-', '-o', 'ndjson'], { stdin: search.stdout });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('50 marked false positive');
    const records = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((x) => x.id)).toEqual(ids);
    expect(records.every((x) => x.outcome === 'done' && x.code === 0)).toBe(true);
    expect(await status(ids[0])).toBe('falsePositive');
    expect(await status(ids[49])).toBe('falsePositive');
  });

  it('names an unknown id with its code, does the others, and writes it to --failed-to', async () => {
    const dir = tempDir('bulk');
    const ids = await openIds(2);
    const failed = join(dir, 'failed.txt');
    const r = await sb.run(['issues', 'archive', ids[0], 'iss_nope', ids[1], '--failed-to', failed, '-o', 'json']);
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/2 archived, 1 failed: iss_nope \(not found\)/);
    expect(readFileSync(failed, 'utf8')).toBe('iss_nope\n');
    const records = JSON.parse(r.stdout);
    expect(records.find((x: { id: string }) => x.id === 'iss_nope')).toMatchObject({ outcome: 'failed', code: 4, status: 404 });
    for (const id of ids) expect(await status(id)).toBe('archived');
  });

  it('--failed-to is checked before anything is sent: svc\'s config file, a directory, a missing folder, stdout are exit 2', async () => {
    const dir = tempDir('bulk-failed-to');
    const [a] = await openIds(1);
    const config = join(dir, 'config.json');
    writeFileSync(config, '{"profiles":{"default":{"baseUrl":"http://127.0.0.1:9"}}}\n', { mode: 0o600 });
    const cases: Array<[string, RegExp]> = [
      [config, /--failed-to '.*config\.json' and the config file '.*config\.json' are the same file/],
      [dir, /cannot write --failed-to '.*' \(a directory\)/],
      [join(dir, 'missing', 'failed.txt'), /its directory does not exist or is not writable/],
      ['-', /--failed-to writes a file/],
    ];
    for (const [path, says] of cases) {
      const r = await sb.run(['issues', 'archive', a, 'iss_nope', '--failed-to', path, '-o', 'json'], { env: { SVC_CONFIG_DIR: dir } });
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(says);
      expect(r.stdout).toBe('');
    }
    expect(await status(a)).toBe('open');
    expect(readFileSync(config, 'utf8')).toContain('"baseUrl":"http://127.0.0.1:9"');
  });

  it.runIf(existsSync('/dev/full'))('--failed-to /dev/full: the device is written in place, never replaced; a failed write is said, and the hint does not claim the ids are there', async () => {
    const [a] = await openIds(1);
    const r = await sb.run(['issues', 'mark-true-positive', a, 'iss_nope', '--failed-to', '/dev/full', '-o', 'json']);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain('could not write --failed-to /dev/full: ENOSPC');
    expect(r.stderr).toContain('the ids that failed or were not sent are in the records above (--failed-to /dev/full could not be written)');
    expect(r.stderr).not.toContain('--ids-from /dev/full');
    // As root, a rename over it replaced the device with a regular file holding "iss_nope".
    expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
  });

  it('sends a duplicate id once and says so', async () => {
    const [a, b] = await openIds(2);
    const r = await sb.run(['issues', 'mark-true-positive', a, b, a, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`1 id given more than once, sent once: ${a} \\(x2\\)`));
    expect(r.stderr).toContain('1 duplicate id sent once');
    const records = JSON.parse(r.stdout);
    expect(records).toHaveLength(2);
    expect(records[0]).toMatchObject({ id: a, outcome: 'done', given: 2 });
  });

  it('--dry-run lists one request per id and sends nothing', async () => {
    const [a, b] = await openIds(2);
    const r = await sb.run(['issues', 'archive', a, b, '--dry-run', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    const requests = JSON.parse(r.stdout);
    expect(requests.map((q: { body: { issueId: string } }) => q.body.issueId)).toEqual([a, b]);
    expect(requests[0].url).toMatch(/\/api\/v1\/issues\/archive$/);
    expect(await status(a)).toBe('open');
  });

  it('refuses a garbage line of --ids-from with exit 2 naming the line, before anything is sent', async () => {
    const [a] = await openIds(1);
    const r = await sb.run(['issues', 'archive', '--ids-from', '-'], { stdin: `${a}\r\n  \nnot an id!\n` });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--ids-from (stdin): line 3: 'not an id!' is not an issue id");
    expect(await status(a)).toBe('open');
  });

  it('--where needs --yes off a terminal, then acts on what the search finds', async () => {
    const repo = (await sb.runJson(['issues', 'search', '--types', 'open', '--page-size', '1'])).issues[0].repositoryId;
    const expected = (await sb.runJson(['issues', 'search', '--types', 'open', '--repository-ids', repo, '--all'])).map((i: { id: string }) => i.id);
    const refused = await sb.run(['issues', 'archive', '--where', 'types=open', '--where', `repository-ids=${repo}`]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`would change ${expected.length} issue`);
    expect(await status(expected[0])).toBe('open');
    const r = await sb.run(['issues', 'archive', '--where', 'types=open', '--where', `repository-ids=${repo}`, '--yes', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((x: { id: string }) => x.id).sort()).toEqual([...expected].sort());
    const left = await sb.runJson(['issues', 'search', '--types', 'open', '--repository-ids', repo]);
    expect(left.issues).toEqual([]);
  });

  it('undo a bulk archive by --where: its -o ndjson record fed to unarchive brings back only the ids it archived (issue 36.2)', async () => {
    const dir = tempDir('bulk-undo');
    const record = join(dir, 'archived.ndjson');
    const repo = (await sb.runJson(['issues', 'search', '--types', 'open', '--page-size', '1'])).issues[0].repositoryId;
    const found = (await sb.runJson(['issues', 'search', '--types', 'open', '--repository-ids', repo, '--all'])).map((i: { id: string }) => i.id);
    // An issue archived before, by another run: the undo must leave it archived.
    const [other] = await openIds(1, ['--repository-ids', repo]);
    expect((await sb.run(['issues', 'archive', other])).code).toBe(0);
    // An id that fails (404) is in the record too: not done, so not undone (unarchive would exit 4 on it).
    const archived = await sb.run(['issues', 'archive', 'iss_nope', '--where', 'types=open', '--where', `repository-ids=${repo}`, '--yes', '-o', 'ndjson']);
    expect(archived.code, archived.stderr).toBe(4);
    writeFileSync(record, archived.stdout);
    const lines = archived.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ id: 'iss_nope', action: 'issues archive', outcome: 'failed', code: 4 });
    const done = found.filter((id: string) => id !== other);
    for (const id of done) expect(await status(id)).toBe('archived');

    const undo = await sb.run(['issues', 'unarchive', '--ids-from', record, '-o', 'ndjson']);
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stderr).toContain(`--ids-from ${record}: undoing svc issues archive: the ${done.length} ids it did; left out: 1 failed (not done by that run)`);
    expect(undo.stderr).toContain(`${done.length} brought back`);
    expect(undo.stdout.trim().split('\n').map((l) => JSON.parse(l).id)).toEqual(done);
    for (const id of done) expect(await status(id)).toBe('open');
    expect(await status(other)).toBe('archived');
  });

  it('undo a bulk mark-false-positive: its -o json record fed to mark-true-positive reopens them', async () => {
    const ids = await openIds(3);
    const marked = await sb.run(['issues', 'mark-false-positive', ...ids, '--reason', 'test fixtures', '-o', 'json']);
    expect(marked.code, marked.stderr).toBe(0);
    for (const id of ids) expect(await status(id)).toBe('falsePositive');
    const undo = await sb.run(['issues', 'mark-true-positive', '--ids-from', '-', '-o', 'json'], { stdin: marked.stdout });
    expect(undo.code, undo.stderr).toBe(0);
    expect(undo.stderr).toContain('--ids-from (stdin): undoing svc issues mark-false-positive: the 3 ids it did');
    for (const id of ids) expect(await sb.runJson(['issues', 'get', id])).toMatchObject({ status: 'open', validated: 'CONFIRMED' });
  });

  it('a record fed to an action that does not undo it: taken, with a warning naming the one that does', async () => {
    const ids = await openIds(2);
    const archived = await sb.run(['issues', 'archive', ...ids, '-o', 'ndjson']);
    const r = await sb.run(['issues', 'mark-true-positive', '--ids-from', '-', '-o', 'json'], { stdin: archived.stdout });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning: --ids-from (stdin) is the record of svc issues archive, which svc issues unarchive undoes: svc issues mark-true-positive takes its 2 done ids');
    // Confirming an archived issue does not bring it back (the sandbox's reading; the spec is silent).
    for (const id of ids) expect(await status(id)).toBe('archived');
  });

  it('unarchive takes --where like archive', async () => {
    const ids = await openIds(2, ['--search-query', 'sql']);
    await sb.run(['issues', 'archive', ...ids]);
    const r = await sb.run(['issues', 'unarchive', '--where', 'types=archived', '--where', 'search-query=sql', '--yes', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((x: { id: string }) => x.id)).toEqual(expect.arrayContaining(ids));
    for (const id of ids) expect(await status(id)).toBe('open');
  });

  it('--where given twice: a list filter takes both lists, another filter with two values is exit 2; an empty filter is exit 2 (it would not narrow)', async () => {
    const open = (await sb.runJson(['issues', 'search', '--types', 'open', '--page-size', '50'])).issues;
    const repos = [...new Set(open.map((i: { repositoryId: string }) => i.repositoryId))].slice(0, 2) as string[];
    expect(repos).toHaveLength(2);
    const one = (repo: string) => sb.runJson(['issues', 'search', '--types', 'open', '--repository-ids', repo, '--all']);
    const expected = [...(await one(repos[0])), ...(await one(repos[1]))].map((i: { id: string }) => i.id).sort();
    const both = await sb.run(['issues', 'archive', '--where', 'types=open', '--where', `repository-ids=${repos[0]}`, '--where', `repository-ids=${repos[1]}`, '--dry-run', '-o', 'json']);
    expect(both.code, both.stderr).toBe(0);
    const sent = JSON.parse(both.stdout).map((x: { body: { issueId: string } }) => x.body.issueId).sort();
    expect(sent).toEqual(expected);
    for (const [args, says] of [
      [['--where', 'severities-min=9', '--where', 'severities-min=1'], "--where severities-min is given twice ('9' and '1')"],
      [['--where', 'min-score=90', '--where', 'min-score=10'], "--where min-score is given twice ('90' and '10')"],
      [['--where', 'types=open', '--where', 'search-query='], '--where search-query= has no value'],
      [['--where', 'search-query=  '], '--where search-query= has no value'],
    ] as const) {
      const r = await sb.run(['issues', 'archive', ...args, '--yes', '-o', 'json']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toContain(says);
      expect(r.stdout).toBe('');
    }
    // The same value twice is one filter.
    const same = await sb.run(['issues', 'archive', '--where', 'severities-min=9', '--where', 'severities-min=9', '--dry-run', '-o', 'json']);
    expect(same.code, same.stderr).toBe(0);
  });

  it('--where repository-ids= a repository the service does not know: exit 4 naming it, not "nothing to do"', async () => {
    const r = await sb.run(['issues', 'archive', '--where', 'types=open', '--where', 'repository-ids=repo_doesnotexist', '--yes', '-o', 'json']);
    expect(r.code, r.stderr).toBe(4);
    expect(r.stderr).toContain("repository 'repo_doesnotexist' not found");
    expect(r.stdout).toBe('');
  });

  it('--issue-id beside --where (or several ids): exit 2 naming the one way to give ids, nothing sent', async () => {
    const r = await sb.run(['issues', 'archive', '--issue-id', 'iss_x', '--where', 'types=open', '--yes', '-o', 'json']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('--issue-id names one issue; with several ids, --ids-from, --where or --failed-to give every id that way');
    expect(r.stderr).not.toContain("'id'");
  });

  it('--where refuses an unknown filter with exit 2', async () => {
    const r = await sb.run(['issues', 'archive', '--where', 'colour=red', '--yes']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--where: unknown filter 'colour'");
  });
});

describe('bulk actions: failure classes, interrupts', () => {
  const fake = useFakeServer();

  const replies = (req: { body: { issueId: string } }) =>
    req.body.issueId === 'iss_gone' ? { status: 404, json: { error: 'no such issue' } }
      : req.body.issueId === 'iss_busy' ? { status: 400, json: { error: 'locked' } }
        : req.body.issueId === 'iss_down' ? { status: 503, json: { error: 'down' } } : { json: { ok: true } };

  it('exits with the most serious failure class: rejected (5) over not found (4)', async () => {
    fake.stub('/api/v1/issues/archive', replies);
    const r = await runCli(['issues', 'archive', 'iss_1', 'iss_gone', 'iss_busy', '--org', 'org_1', '-o', 'json'], { env: fake.env });
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('1 archived, 2 failed: iss_gone (not found), iss_busy (rejected: locked)');
  });

  it('exits with the most serious failure class: may work later (6) over rejected (5) and not found (4)', async () => {
    fake.stub('/api/v1/issues/archive', replies);
    const r = await runCli(['issues', 'archive', 'iss_gone', 'iss_down', 'iss_busy', '--org', 'org_1', '--retries', '0', '-o', 'json'], { env: fake.env });
    expect(r.code).toBe(6);
    expect(JSON.parse(r.stdout).map((x: { code: number }) => x.code)).toEqual([4, 6, 5]);
  });

  it('--concurrency 16 (its most): no node warning of too many abort listeners (it came at 11)', async () => {
    fake.stub('/api/v1/issues/archive', { json: { ok: true } });
    const warned: string[] = [];
    const onWarning = (w: Error) => warned.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const ids = Array.from({ length: 40 }, (_, i) => `iss_${i}`);
      const r = await runCli(['issues', 'archive', ...ids, '--concurrency', '16', '--org', 'org_1', '-o', 'json'], { env: fake.env });
      expect(r.code, r.stderr).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warned.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
  });

  it('a change whose answer does not say whether it was applied (a 5xx, a 200 svc cannot read) is outcome unknown, not failed; its undo leaves it out and names it', async () => {
    fake.stub('/api/v1/issues/archive', (req: { body: { issueId: string } }) => (
      req.body.issueId === 'iss_5xx' ? { status: 503, json: { error: 'down' } }
        : req.body.issueId === 'iss_garbled' ? { status: 200, text: 'not json', type: 'application/json' }
          : req.body.issueId === 'iss_gone' ? { status: 404, json: { error: 'no such issue' } } : { json: { ok: true } }));
    const r = await runCli(['issues', 'archive', 'iss_ok', 'iss_5xx', 'iss_garbled', 'iss_gone', '--retries', '0', '--org', 'org_1', '-o', 'ndjson'], { env: fake.env });
    expect(r.code).not.toBe(0);
    const records = r.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(records.map((x: { id: string; outcome: string }) => [x.id, x.outcome])).toEqual([['iss_ok', 'done'], ['iss_5xx', 'unknown'], ['iss_garbled', 'unknown'], ['iss_gone', 'failed']]);
    expect(r.stderr).toContain('1 failed: iss_gone (not found), 2 failed, outcome unknown (may have been applied): iss_5xx');
    // The undo: the done id only; the unknown ones named apart, not as "not done by that run".
    fake.stub('/api/v1/issues/unarchive', { json: { ok: true } });
    const undo = await runCli(['issues', 'unarchive', '--ids-from', '-', '--org', 'org_1', '-o', 'json'], { env: fake.env, stdin: r.stdout });
    expect(undo.code, undo.stderr).toBe(0);
    expect(JSON.parse(undo.stdout).map((x: { id: string }) => x.id)).toEqual(['iss_ok']);
    expect(undo.stderr).toContain('left out: 1 failed (not done by that run); left out too: 2 whose outcome is unknown (that run may have applied them');
  });

  it('a connection dropped after the request went out is outcome unknown (it may have been applied), not failed', async () => {
    const received: string[] = [];
    const server = createServer((req) => {
      let body = '';
      req.setEncoding('utf8').on('data', (d: string) => { body += d; }).on('end', () => { received.push(JSON.parse(body).issueId); req.socket.destroy(); });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const r = await runCli(['issues', 'archive', 'iss_1', 'iss_2', '--retries', '0', '--concurrency', '1', '--org', 'org_1', '-o', 'json'],
        { env: { SVC_BASE_URL: url, SVC_API_TOKEN_ID: 'id', SVC_API_TOKEN_SECRET: 'secret' } });
      expect(r.code, r.stderr).toBe(6);
      expect(received).toEqual(['iss_1', 'iss_2']);
      expect(JSON.parse(r.stdout).map((x: { outcome: string }) => x.outcome)).toEqual(['unknown', 'unknown']);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('--where against a service that numbers its issues: acts on each id as its text, never on a number a double rounded (another issue)', async () => {
    // 9007199254740993 and 12345678901234567890 parse to 9007199254740992 and 12345678901234567168:
    // sent back as numbers they named other issues than the ones the search found.
    fake.stub('/api/v1/issues/search', {
      type: 'application/json',
      text: '{"issues":[{"id":42,"status":"open"},{"id":9007199254740993,"status":"open"},{"id":12345678901234567890,"status":"open"}],"totalCount":3,"currentPage":1,"pageSize":500}',
    });
    fake.stub('/api/v1/issues/archive', { json: { ok: true } });
    const r = await runCli(['issues', 'archive', '--where', 'types=open', '--yes', '--org', 'org_1', '-o', 'json'], { env: fake.env });
    const sent = fake.requests.filter((q) => q.path === '/api/v1/issues/archive').map((q) => q.raw);
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0])).toEqual({ organizationId: 'org_1', issueId: '42' });
    expect(r.code, r.stderr).toBe(10);
    const records = JSON.parse(r.stdout) as Array<{ id: string; outcome: string; error?: string }>;
    expect(records.map((x) => [x.id, x.outcome])).toEqual([['42', 'done'], ['9007199254740992', 'skipped'], ['12345678901234567000', 'skipped']]);
    expect(records[1].error).toContain('a number svc cannot send as the service wrote it');
    expect(r.stderr).toContain('1 archived, 2 skipped, their ids numbers svc cannot send as the service wrote them: 9007199254740992, 12345678901234567000');
  });

  it('--where: a negative id is a number like any other, acted on as its text (it was skipped as one a double does not hold)', async () => {
    fake.stub('/api/v1/issues/search', { type: 'application/json', text: '{"issues":[{"id":-5,"status":"open"}],"totalCount":1,"currentPage":1,"pageSize":500}' });
    fake.stub('/api/v1/issues/archive', { json: { ok: true } });
    const r = await runCli(['issues', 'archive', '--where', 'types=open', '--yes', '--org', 'org_1', '-o', 'json'], { env: fake.env });
    expect(r.code, r.stderr).toBe(0);
    const sent = fake.requests.filter((q) => q.path === '/api/v1/issues/archive').map((q) => JSON.parse(q.raw));
    expect(sent).toEqual([{ organizationId: 'org_1', issueId: '-5' }]);
  });

  it('--where min-score: an issue below it is not one of the filter\'s, whatever its id (it was skipped as unnamed: exit 10)', async () => {
    fake.stub('/api/v1/issues/search', {
      type: 'application/json',
      text: '{"issues":[{"id":42,"status":"open","score":95},{"id":9007199254740993,"status":"open","score":10}],"totalCount":2,"currentPage":1,"pageSize":500}',
    });
    fake.stub('/api/v1/issues/archive', { json: { ok: true } });
    const r = await runCli(['issues', 'archive', '--where', 'types=open', '--where', 'min-score=90', '--yes', '--org', 'org_1', '-o', 'json'], { env: fake.env });
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as Array<{ id: string; outcome: string }>).map((x) => [x.id, x.outcome])).toEqual([['42', 'done']]);
    expect(r.stderr).not.toContain('svc cannot send as the service wrote');
  });

  it('--where project-id (or --org) against a service that ignores it: an issue of a repository outside the project is skipped, never acted on (it was archived)', async () => {
    // Issues carry no projectId or organizationId: their repository, against repositories list, shows it.
    fake.stub('/api/v1/repositories/list', { json: [{ id: 'repo_1', projectId: 'prj_1' }, { id: 'repo_2', projectId: 'prj_2' }] });
    fake.stub('/api/v1/issues/search', { json: { issues: [{ id: 'iss_a', status: 'open', repositoryId: 'repo_2' }, { id: 'iss_b', status: 'open', repositoryId: 'repo_1' }, { id: 'iss_c', status: 'open' }], totalCount: 3, currentPage: 1, pageSize: 500 } });
    fake.stub('/api/v1/issues/archive', { json: { ok: true } });
    const r = await runCli(['issues', 'archive', '--where', 'types=open', '--where', 'project-id=prj_2', '--yes', '--org', 'org_1', '-o', 'json'], { env: fake.env });
    const sent = fake.requests.filter((q) => q.path === '/api/v1/issues/archive').map((q) => (q.body as { issueId: string }).issueId);
    // iss_c names no repository: it cannot disagree (as for every filter, checked on what an item carries).
    expect(sent.sort()).toEqual(['iss_a', 'iss_c']);
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toMatch(/iss_b \(of repository 'repo_1', not one of project 'prj_2' \(repositories list\)\)/);
    expect(fake.to('/api/v1/repositories/list')).toHaveLength(1);
    // --org alone: a repository the organization's list does not hold.
    fake.stub('/api/v1/repositories/list', { json: [{ id: 'repo_1', projectId: 'prj_1' }] });
    const before = fake.to('/api/v1/issues/archive').length;
    const org = await runCli(['issues', 'archive', '--where', 'types=open', '--yes', '--org', 'org_1', '-o', 'json'], { env: fake.env });
    expect(org.code, org.stderr).toBe(10);
    expect(fake.to('/api/v1/issues/archive').slice(before).map((q) => (q.body as { issueId: string }).issueId).sort()).toEqual(['iss_b', 'iss_c']);
    expect(org.stderr).toMatch(/iss_a \(of repository 'repo_2', not one of organization 'org_1'/);
  });

  it('an id named beside --where that the search answers outside the filter: acted on as named, one record, a summary that agrees', async () => {
    // It was recorded done AND skipped, and the summary read "2 archived, 1 skipped: iss_b".
    fake.stub('/api/v1/issues/search', { json: { issues: [{ id: 'iss_a', status: 'open' }, { id: 'iss_b', status: 'patched' }, { id: 'iss_c', status: 'patched' }], totalCount: 3, currentPage: 1, pageSize: 500 } });
    fake.stub('/api/v1/issues/archive', { json: { ok: true } });
    const r = await runCli(['issues', 'archive', 'iss_b', '--where', 'types=open', '--yes', '--org', 'org_1', '-o', 'json'], { env: fake.env });
    const sent = fake.requests.filter((q) => q.path === '/api/v1/issues/archive').map((q) => (q.body as { issueId: string }).issueId);
    expect(sent.sort()).toEqual(['iss_a', 'iss_b']);
    const records = JSON.parse(r.stdout) as Array<{ id: string; outcome: string }>;
    // iss_c, found outside the filter and not named, is still skipped (exit 10).
    expect(records.map((x) => [x.id, x.outcome])).toEqual([['iss_b', 'done'], ['iss_a', 'done'], ['iss_c', 'skipped']]);
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toMatch(/2 archived, 1 skipped, outside --where .*: iss_c \(status 'patched', not 'open'\)/);
    expect(r.stderr).not.toMatch(/skipped[^\n]*iss_b/);
    expect(r.stderr).toMatch(/answered iss_b \(status 'patched', not 'open'\) outside the filter: acted on all the same, as it is named by id/);
  });

  it('--where finding none but answering one outside the filter: not "nothing to do", exit 10 naming it', async () => {
    fake.stub('/api/v1/issues/search', { json: { issues: [{ id: 'iss_p', status: 'patched' }], totalCount: 1, currentPage: 1, pageSize: 500 } });
    const r = await runCli(['issues', 'archive', '--where', 'types=open', '--yes', '--org', 'org_1'], { env: fake.env });
    expect(r.code, r.stderr).toBe(10);
    expect(r.stderr).toContain('no issue matches --where types=open: 1 the search answered outside it will not be changed (skipped)');
    expect(r.stderr).not.toContain('nothing to do');
    expect(fake.hits('/api/v1/issues/archive')).toBe(0);
  });

  it('an id named beside --where that the search also finds in the filter: given once, not a duplicate', async () => {
    fake.stub('/api/v1/issues/search', { json: { issues: [{ id: 'iss_a', status: 'open' }], totalCount: 1, currentPage: 1, pageSize: 500 } });
    fake.stub('/api/v1/issues/archive', { json: { ok: true } });
    const r = await runCli(['issues', 'archive', 'iss_a', '--where', 'types=open', '--yes', '--org', 'org_1', '-o', 'json'], { env: fake.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([expect.objectContaining({ id: 'iss_a', outcome: 'done' })]);
    expect(JSON.parse(r.stdout)[0].given).toBeUndefined();
    expect(r.stderr).not.toContain('more than once');
    expect(r.stderr).toContain('1 archived');
  });

  it('--ids-from an empty search (`[]`, an answer with no issues, no line): nothing to do, exit 0 with a note, as --where finding nothing', async () => {
    // It was exit 2, hinting at the search output that was given.
    for (const [input, said] of [['[]\n', 'holds an empty search answer'], ['{"issues":[],"totalCount":0,"currentPage":1,"pageSize":100}', 'holds an empty search answer'], ['', 'is empty'], ['\n\n', 'is empty']]) {
      const r = await runCli(['issues', 'archive', '--ids-from', '-', '--org', 'org_1', '-o', 'json'], { env: fake.env, stdin: input });
      expect(r.code, `${JSON.stringify(input)}: ${r.stderr}`).toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim()).toBe(`--ids-from (stdin) ${said}: no ids, nothing to do`);
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('--ids-from an empty search beside an id given as an argument: the argument is acted on', async () => {
    fake.stub('/api/v1/issues/archive', { json: { ok: true } });
    const r = await runCli(['issues', 'archive', 'iss_1', '--ids-from', '-', '--org', 'org_1', '-o', 'json'], { env: fake.env, stdin: '[]' });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).map((x: { id: string }) => x.id)).toEqual(['iss_1']);
    expect(r.stderr).toContain('--ids-from (stdin) holds an empty search answer: no ids');
  });

  it('stops sending after a 401: the rest are not sent, exit 3', async () => {
    fake.stub('/api/v1/issues/archive', { status: 401, json: { error: 'bad token' } });
    const r = await runCli(['issues', 'archive', 'iss_1', 'iss_2', 'iss_3', '--concurrency', '1', '--org', 'org_1', '-o', 'json'], { env: fake.env });
    expect(r.code).toBe(3);
    expect(fake.requests).toHaveLength(1);
    expect(JSON.parse(r.stdout).map((x: { outcome: string }) => x.outcome)).toEqual(['failed', 'not-sent', 'not-sent']);
  });
});

describe('bulk actions: Ctrl-C', () => {
  const fake = useFakeServer();

  it('stops sending after Ctrl-C, lets the call in flight finish, and keeps the rest for --failed-to', async () => {
    fake.stub('/api/v1/issues/archive', (req: { body: { issueId: string } }) => (req.body.issueId === 'iss_2' ? { json: { ok: true }, delayMs: 300 } : { json: { ok: true } }));
    const dir = tempDir('bulk-int');
    const failed = join(dir, 'left.txt');
    const host = testHost({ env: fake.env });
    const running = runCli(['issues', 'archive', 'iss_1', 'iss_2', 'iss_3', 'iss_4', '--concurrency', '1', '--org', 'org_1', '--failed-to', failed, '-o', 'json'], { host });
    await fake.waitForRequests(2);
    host.abort('SIGINT');
    const r = await running;
    expect(r.code).toBe(130);
    const records = JSON.parse(r.stdout);
    expect(records.map((x: { outcome: string }) => x.outcome)).toEqual(['done', 'done', 'not-sent', 'not-sent']);
    expect(fake.requests.map((q) => q.body.issueId)).toEqual(['iss_1', 'iss_2']);
    expect(readFileSync(failed, 'utf8')).toBe('iss_3\niss_4\n');
    expect(r.stderr).toContain('2 archived; 2 not sent (interrupted)');
  });
});

describe('parseIdList', () => {
  it('takes one id a line, trimming spaces and CR, skipping blank lines', () => {
    expect(parseIdList(' iss_1 \r\n\r\niss_2\n', 'f')).toEqual({ ids: ['iss_1', 'iss_2'] });
  });
  it('takes the id fields of NDJSON, a JSON array, and a search answer', () => {
    expect(parseIdList('{"id":"a"}\n{"id":"b"}\n', 'f').ids).toEqual(['a', 'b']);
    expect(parseIdList('[{"id":"a"},{"id":"b"}]', 'f').ids).toEqual(['a', 'b']);
    expect(parseIdList('{"issues":[{"id":"a"}],"totalCount":1}', 'f').ids).toEqual(['a']);
  });
  it('takes a numbered id as its text; names an id that is neither', () => {
    expect(parseIdList('{"id":5}\n{"issueId":12}\n', 'f').ids).toEqual(['5', '12']);
    expect(() => parseIdList('{"id":true}\n', 'f')).toThrow(/f: (line|item) 1: its 'id' is not an issue id \(true\)/);
  });
  it('names the line of a record without an id', () => {
    expect(() => parseIdList('{"id":"a"}\n{"name":"b"}\n', 'f')).toThrow("f: line 2: no 'id' field");
  });
  it("a bulk run's record (NDJSON or JSON): only the ids done, with what was left out and the action", () => {
    const lines = [
      { id: 'a', action: 'issues archive', outcome: 'done', code: 0 },
      { id: 'b', action: 'issues archive', outcome: 'failed', code: 4, status: 404 },
      { id: 'c', action: 'issues archive', outcome: 'done', code: 0 },
      { id: 'd', action: 'issues archive', outcome: 'not-sent', code: 130 },
    ];
    for (const text of [lines.map((l) => JSON.stringify(l)).join('\n') + '\n', JSON.stringify(lines, null, 2)]) {
      const r = parseIdList(text, 'f');
      expect(r.ids).toEqual(['a', 'c']);
      expect(r.record?.actions).toEqual(['issues archive']);
      expect([...r.record!.left]).toEqual([['failed', 1], ['not-sent', 1]]);
    }
  });
  it('refuses a file that mixes records of a bulk run with other lines, naming the line', () => {
    expect(() => parseIdList('{"id":"a","outcome":"done"}\niss_2\n', 'f')).toThrow("f: line 2: not a record of a bulk run (no 'outcome'), while line 1 is one");
  });
});

describe('progressText', () => {
  it('on a terminal: a bar with done, failed, left, rate and ETA', () => {
    expect(progressText('issues archive', 50, 2, 100, 10_000, 100)).toBe('issues archive [###############---------------] 50/100, 2 failed, 50 left, 5.0/s, ETA 10 s');
  });
  it('in CI: the same counts without a bar', () => {
    expect(progressText('issues archive', 1000, 0, 1000, 2000)).toBe('issues archive: 1,000/1,000, 0 failed, 0 left, 500.0/s, ETA 0 s');
  });
});
