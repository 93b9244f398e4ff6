/**
 * A lean install: the packed tarball's only dependencies are the packages the build leaves out of
 * dist/svc.cjs (jq's WebAssembly, loaded with --jq); it installs into an empty prefix without the
 * registry, given those, and runs.
 */
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { cleanEnv } from '../helpers/run-svc.js';
import { packedSvc } from '../helpers/pack.js';

const ROOT = resolve(__dirname, '../..');
const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

describe.skipIf(process.platform === 'win32')('installing the packed package', () => {
  const sb = useSandbox({ issues: 50 });

  it('installs from the tarball offline with only the packages the bundle leaves out, and runs --version, a call and --jq', async () => {
    const dir = tempDir('svc-install-');
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const external = JSON.parse((/external: (\[[^\]]*\])/.exec(readFileSync(join(ROOT, 'scripts', 'build.mjs'), 'utf8'))?.[1] ?? '[]').replace(/'/g, '"')) as string[];
    expect(Object.keys(pkg.dependencies ?? {}).sort()).toEqual([...external].sort());
    const npmEnv = { ...process.env, npm_config_cache: join(dir, 'cache') };
    // The package as `npm pack` makes it: packed once in the run (test/helpers/pack.ts; the examples install the release tree instead: release-tree.ts).
    const { tarball, files: paths } = await packedSvc();
    expect(paths).toEqual(expect.arrayContaining(['bin/svc.js', 'dist/svc.cjs', 'dist/svc.cjs.cache', 'dist/help.txt', 'package.json', 'LICENSE']));
    expect(paths.filter((p) => p.startsWith('src/') || p.startsWith('test/') || p.startsWith('node_modules/'))).toEqual([]);
    // The external packages, as the registry gave them: their installed folders, tarred as a
    // registry tarball holds a package (under package/), without an npm process each. gzip -1: the
    // same gzip file npm reads, for a third of the CPU of gzip's default -6 (jq-wasm's 4 MB: 0.11
    // CPU-s against 0.31; the tarball is read once, here).
    const deps = await Promise.all(external.map(async (name) => {
      const tarball = join(dir, `${name.replace(/[@/]/g, '_')}.tgz`);
      await run('tar', ['--use-compress-program=gzip -1', '-cf', tarball, '--transform', 's,^\\.,package,', '-C', join(ROOT, 'node_modules', name), '.']);
      return tarball;
    }));

    const prefix = join(dir, 'prefix');
    // --offline: nothing may be fetched; an install that needed any other package would fail here.
    await run(npm, ['install', '--global', '--prefix', prefix, '--offline', '--no-audit', '--no-fund', tarball, ...deps], { env: npmEnv });
    const installed = join(prefix, 'lib', 'node_modules');
    expect(readdirSync(installed).sort()).toEqual(['svc-cli', ...external].sort());
    expect(existsSync(join(installed, 'svc-cli', 'node_modules'))).toBe(false);

    const svc = join(prefix, 'bin', 'svc');
    const env = cleanEnv({ ...sb.env, SVC_CONFIG_DIR: join(dir, 'config') });
    expect((await run(svc, ['--version'], { env })).stdout).toBe(`${pkg.version}\n`);
    const call = await run(svc, ['issues', 'search', '--page-size', '3', '-o', 'json'], { env });
    const data = JSON.parse(call.stdout);
    expect(data.issues).toHaveLength(3);
    expect(data.totalCount).toBeGreaterThan(0);
    // --jq loads the one package the bundle leaves out.
    expect((await run(svc, ['issues', 'search', '--page-size', '3', '--jq', '.issues | length'], { env })).stdout).toBe('3\n');
  }, 120_000);

  it('a copy without its build says so in one line (exit 70), no stack trace', async () => {
    const dir = tempDir('svc-nobuild-');
    mkdirSync(join(dir, 'bin'));
    cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    // --help and -h too: they are answered from dist/help.txt when it is there.
    for (const args of [['issues', 'search'], ['--help'], ['-h']]) {
      const r = await run(process.execPath, [join(dir, 'bin', 'svc.js'), ...args], { env: cleanEnv() }).catch((e: { code: number; stderr: string }) => e);
      expect((r as { code: number }).code, args.join(' ')).toBe(70);
      expect((r as { stderr: string }).stderr).toMatch(/^svc: error: .*dist[\\/]svc\.cjs is missing: this copy of svc was not built\. Install a package made with `npm pack`/);
      expect((r as { stderr: string }).stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});
