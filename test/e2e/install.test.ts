/**
 * A lean install: the packed tarball installs into an empty prefix without the registry (it has no
 * dependencies: dist/svc.cjs bundles them) and runs with no node_modules at all.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { cleanEnv } from '../helpers/run-svc.js';

const ROOT = resolve(__dirname, '../..');
const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe.skipIf(process.platform === 'win32')('installing the packed package', () => {
  const sb = useSandbox({ issues: 50 });

  it('installs from the tarball offline, one package, and runs --version and a call with no node_modules', async () => {
    const dir = tempDir('svc-install-');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.dependencies ?? {}).toEqual({});
    // The build is there already (the test run's global setup made it).
    const packed = await run(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, env: { ...process.env, npm_config_cache: join(dir, 'cache') } });
    const [{ filename, files }] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    const paths = files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['bin/svc.js', 'dist/svc.cjs', 'dist/svc.cjs.cache', 'dist/help.txt', 'package.json']));
    expect(paths.filter((p) => p.startsWith('src/') || p.startsWith('test/') || p.startsWith('node_modules/'))).toEqual([]);

    const prefix = join(dir, 'prefix');
    // --offline: nothing may be fetched; an install that needed a package would fail here.
    await run(npm, ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', join(dir, filename)], { env: { ...process.env, npm_config_cache: join(dir, 'cache') } });
    const installed = join(prefix, 'lib', 'node_modules');
    expect(readdirSync(installed)).toEqual(['svc-cli']);
    expect(existsSync(join(installed, 'svc-cli', 'node_modules'))).toBe(false);

    const svc = join(prefix, 'bin', 'svc');
    const env = cleanEnv({ ...sb.env, SVC_CONFIG_DIR: join(dir, 'config') });
    expect((await run(svc, ['--version'], { env })).stdout).toBe(`${pkg.version}\n`);
    const call = await run(svc, ['issues', 'search', '--page-size', '3', '-o', 'json'], { env });
    const data = JSON.parse(call.stdout);
    expect(data.issues).toHaveLength(3);
    expect(data.totalCount).toBeGreaterThan(0);
  }, 120_000);

  it('a copy without its build says so in one line (exit 70), no stack trace', async () => {
    const dir = tempDir('svc-nobuild-');
    mkdirSync(join(dir, 'bin'));
    cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    const r = await run(process.execPath, [join(dir, 'bin', 'svc.js'), 'issues', 'search'], { env: cleanEnv() }).catch((e: { code: number; stderr: string }) => e);
    expect((r as { code: number }).code).toBe(70);
    expect((r as { stderr: string }).stderr).toMatch(/^svc: error: .*dist[\\/]svc\.cjs is missing: this copy of svc was not built\. Install a package made with `npm pack`/);
    expect((r as { stderr: string }).stderr.trim().split('\n')).toHaveLength(1);
  });
});
