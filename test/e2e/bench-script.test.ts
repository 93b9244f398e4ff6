/**
 * `npm run bench` (scripts/bench.mjs) in its smallest mode: it must report every target of the
 * performance issue with a verdict, and time nothing in the caller's environment. Not a timed test:
 * the figures are not asserted, only that they are there.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp.js';

const ROOT = resolve(__dirname, '../..');

interface Row { target: string; measured: string; limit: string; pass?: boolean; ratio?: number }

describe('npm run bench', () => {
  it('prints every target with a figure and a verdict, and runs every command in a clean environment', async () => {
    const dir = tempDir('svc-bench-test-');
    // Every node process that starts with this environment writes its argv here: the bench's own
    // process may, none of the processes it times may.
    const marker = join(dir, 'started.ndjson');
    writeFileSync(join(dir, 'mark.cjs'), `require('node:fs').appendFileSync(${JSON.stringify(marker)}, JSON.stringify(process.argv.slice(1)) + '\\n');`);
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dir,
      NODE_OPTIONS: `--require=${join(dir, 'mark.cjs')}`,
      NODE_EXTRA_CA_CERTS: join(dir, 'no-such-bundle.pem'),
      SVC_OUTPUT: 'csv',
      SVC_BASE_URL: 'http://127.0.0.1:9',
      HTTPS_PROXY: 'http://127.0.0.1:9',
    };
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
      const child = spawn(process.execPath, ['scripts/bench.mjs', '--quick', '--runs', '1', '--sizes', '500,1000', '--bulk', '3', '--json'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
      child.stderr.setEncoding('utf8').on('data', (d) => { err += d; });
      child.on('error', fail);
      child.on('close', (c) => done({ code: c, stdout: out, stderr: err }));
    });
    // 0: every target passed; 1: some failed (the figures of a 1,000-issue run say little).
    expect([0, 1], stderr).toContain(code);
    const report = JSON.parse(stdout) as { machine: Record<string, unknown>; results: Row[] };

    const targets = report.results.filter((r) => r.pass !== undefined);
    const find = (re: RegExp) => {
      const row = targets.find((r) => re.test(r.target));
      expect(row, `no target matching ${re}`).toBeDefined();
      expect(row!.measured).toMatch(/\d/);
      return row!;
    };
    // Ratios to floors measured in the same rounds, with the spread of the per-round ratios.
    const call = find(/^`svc issues search -o json` \/ `node scripts\/bench-call-floor\.cjs` \(the call floor\)$/);
    expect(call.limit).toBe('≤ 1.5x');
    expect(call.measured).toMatch(/^\d+\.\d\dx: .*IQR .*min-max.*per round \d+\.\d\dx/);
    expect(find(/^`--all -o ndjson` \/ plain node:http pager \(bench-pager-floor\.cjs\), 1,000 issues: wall$/).limit).toBe('≤ 1.0x');
    expect(find(/^`svc gate --fail-on high` \([\d,]+ open issues read\) \/ `--all -o ndjson`, 1,000 issues: wall$/).limit).toBe('≤ 1.0x');
    expect(find(/^`svc gate --fail-on high --sarif --json-report`, 1,000 issues: peak RSS$/).limit).toBe('< 200 MB');
    expect(find(/^`svc gate --fail-on high --sarif --json-report --junit --markdown --gitlab-sast --code-quality`, 1,000 issues: peak RSS$/).limit).toBe('< 250 MB');
    expect(find(/^sandbox: a page of 500 at 1,000 issues, its CPU/).limit).toBe('< 2 ms');
    expect(find(/1,000 issues: svc's own CPU/).limit).toBe('≥ 60,000 issues/CPU-s');
    expect(find(/1,000 issues: end to end/).limit).toBe('≥ 40,000 issues/s');
    expect(find(/500 issues: peak RSS/).limit).toBe('< 120 MB');
    expect(find(/1,000 issues: peak RSS/).limit).toBe('< 120 MB');
    expect(find(/^peak RSS growth, 500 → 1,000 issues$/).limit).toBe('< 15 MB (flat)');
    expect(find(/^`svc issues search --all -o table`, 500 rows$/).limit).toBe('< 1 s');
    expect(find(/^bulk: 3 archives in one process \(`--ids-from`\) vs a shell loop of 3 single calls$/).limit).toBe('≥ 10x');
    // For context beside the target: the call against `node -e 0`, and the floor itself.
    // And the call split at the undici floor (undici's share of the call, and svc's on top of it) and
    // at the design floor (commander, zod and undici's share, and svc's own on top).
    for (const context of ['`svc issues search -o json` / `node -e 0`', '`node scripts/bench-call-floor.cjs` / `node -e 0`',
      'the undici floor (bench-undici-floor.cjs, bundled and code-cached as svc is) / `node scripts/bench-call-floor.cjs`',
      '`svc issues search -o json` / the undici floor',
      'the design floor (bench-design-floor.cts: commander, the row\'s zod schemas, undici) / `node scripts/bench-call-floor.cjs`',
      '`svc issues search -o json` / the design floor']) {
      const row = report.results.find((r) => r.target === context);
      expect(row?.pass, context).toBeUndefined();
      expect(row?.measured, context).toMatch(/^\d+\.\d\dx: /);
    }
    // Every ratio is also a number in the JSON, for tools.
    expect(typeof call.ratio).toBe('number');
    // Medians come with their spread.
    expect(report.results.find((r) => r.target === '`svc issues search -o json` / `node -e 0`')?.measured).toMatch(/IQR .*min-max/);
    expect(report.machine.loadBefore).toMatch(/^\d+\.\d\d \d+\.\d\d \d+\.\d\d$/);
    expect(report.machine.loadAfter).toMatch(/^\d+\.\d\d \d+\.\d\d \d+\.\d\d$/);

    // The caller's settings were named as left out, and no timed process saw them.
    expect(report.machine.left).toEqual(expect.arrayContaining(['NODE_OPTIONS', 'NODE_EXTRA_CA_CERTS', 'SVC_OUTPUT', 'SVC_BASE_URL', 'HTTPS_PROXY']));
    expect(report.machine.env).not.toMatch(/NODE_|PROXY|SVC_OUTPUT|SVC_BASE_URL/);
    expect(stderr).toMatch(/environment of every timed command: PATH=/);
    // The bench's own process warns that the bundle is missing; a timed process would warn again.
    expect(stderr.match(/Ignoring extra certs/g)?.length ?? 0).toBeLessThanOrEqual(1);
    const started = existsSync(marker) ? readFileSync(marker, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string[]) : [];
    const others = started.filter((a) => !a[0]?.endsWith(join('scripts', 'bench.mjs')));
    expect(others, 'processes that inherited NODE_OPTIONS').toEqual([]);
  }, 120_000);
});
