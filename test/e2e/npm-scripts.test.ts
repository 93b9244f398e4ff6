/**
 * Every npm script the README (and docs/) names runs as a new user would run it: through npm, from
 * a fresh copy of the project (so `npm run docs` and the others write there, not into the checkout
 * other tests run), in its quick form where it has one; or, where another file runs it already, as
 * its command there (a row's `elsewhere`; the first test checks that package.json's script is that command). A script added to the README without a row
 * here fails the first test. `npm test` is not run from inside itself: it is the CI command (.ci/run).
 */
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { HELP_FILES, helpFile } from '../../src/docs/generated.js';
import { cleanEnv } from '../helpers/run-svc.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = resolve(__dirname, '../..');
const docsText = () => [join(ROOT, 'README.md'), ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'docs', f))]
  .map((f) => readFileSync(f, 'utf8')).join('\n');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

/** How each named script is run here: its quick form, and what shows that it worked. */
const RUNS: Record<string, { args: string[]; check(r: Run): void } | { elsewhere: string; script?: string }> = {
  // The build of a fresh clone, after `npm ci`, is the README's release recipe's (`npm run release`
  // runs `node scripts/build.mjs`, this script, and fails when it fails): a build here too cost ~8 s
  // of CPU (esbuild's included) for the same check. The copy below runs the run's build.
  build: { elsewhere: 'test/global-setup.ts (every run builds with npm run build) and readme-release-recipe.test.ts (npm run release builds a fresh clone with it)', script: 'node scripts/build.mjs' },
  docs: { args: [], check: (r) => expect(r.code, r.stderr).toBe(0) },
  // Run once in the suite, where their output is checked closely; there as `node <script>`, which
  // is what package.json's script is (checked in the first test below).
  demo: { elsewhere: 'sandbox-command.test.ts (npm run demo)', script: 'node scripts/demo.mjs' },
  'fail-rate': { elsewhere: 'fail-rate.test.ts', script: 'node scripts/fail-rate-check.mjs' },
  bench: { elsewhere: 'bench-script.test.ts', script: 'node scripts/bench.mjs' },
  sandbox: { args: [], check: () => {} },
  // One version in the quick form: the `node` package's binary comes from npm's cache once fetched.
  'test:node': { args: ['22'], check: (r) => { expect(r.code, r.stderr + r.stdout).toBe(0); expect(r.stdout).toMatch(/ok {3}the gate with reports[\s\S]*All checks passed on Node 22\./); } },
  test: { elsewhere: '.ci/run runs exactly `npm ci && npm test`' },
  // It commits and tags in a clone: the README's recipe runs it there, as written, twice.
  release: { elsewhere: 'readme-release-recipe.test.ts (npm run release in a scratch mirror)', script: 'node scripts/release.mjs' },
};

interface Run { code: number | null; stdout: string; stderr: string }

let copy: string;
let env: Record<string, string>;

/** `npm run <name> -- args` in the copy; `until` ends it early (SIGTERM to its process group) once stdout says so. */
function npm(name: string, args: string[], until?: (stdout: string) => Promise<boolean>): Promise<Run> {
  return new Promise((done, reject) => {
    const argv = name === 'test' ? ['test'] : ['run', '--silent', name, ...(args.length ? ['--', ...args] : [])];
    const child = spawn('npm', argv, { cwd: copy, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let stopping = false;
    const kill = (signal: NodeJS.Signals) => { try { process.kill(-child.pid!, signal); } catch { /* gone */ } };
    const timer = setTimeout(() => kill('SIGKILL'), 150_000);
    child.stdout.setEncoding('utf8').on('data', async (d: string) => {
      stdout += d;
      if (until && !stopping && (await until(stdout))) { stopping = true; kill('SIGTERM'); }
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => { clearTimeout(timer); done({ code, stdout, stderr }); });
  });
}

beforeAll(() => {
  copy = tempDir('svc-npm-scripts-');
  // dist/: the run's build (the global setup made it from these sources), copied last so that it is
  // newer than src/ and `npm run sandbox` / `test:node` do not build again.
  for (const entry of ['package.json', 'package-lock.json', 'tsconfig.json', 'README.md', 'bin', 'src', 'scripts', 'docs', 'completions', 'dist']) {
    cpSync(join(ROOT, entry), join(copy, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(copy, 'node_modules'), 'dir');
  // A user's own npm settings: no update check; packages npm has cached (test:node's `npx node@22`)
  // used without asking the registry again.
  env = cleanEnv({ SVC_CONFIG_DIR: join(copy, '.config'), npm_config_update_notifier: 'false', npm_config_prefer_offline: 'true' });
});

describe('npm scripts named in the README', () => {
  const named = [...new Set([...docsText().matchAll(/\bnpm (?:run ([\w:-]+)|(test)\b)/g)].map((m) => m[1] ?? m[2]))];

  it('each is a script of package.json and has a row here', () => {
    expect(named).toEqual(expect.arrayContaining(['demo', 'sandbox', 'test', 'build', 'docs']));
    for (const name of named) {
      expect(pkg.scripts[name], `package.json has no script '${name}'`).toBeTypeOf('string');
      expect(RUNS[name], `the README names 'npm run ${name}': add how to run it to RUNS`).toBeDefined();
    }
    // A script run elsewhere as its command: package.json's script is that command.
    for (const [name, how] of Object.entries(RUNS)) {
      if ('script' in how && how.script !== undefined) expect(pkg.scripts[name], `npm run ${name} (tested in ${how.elsewhere})`).toBe(how.script);
    }
  });

  it('npm run docs (which leaves the committed files as they are) works in a fresh copy', async () => {
    const docs = await npm('docs', []);
    (RUNS.docs as { check(r: Run): void }).check(docs);
    for (const file of ['README.md', 'docs/reference.md', 'completions/svc.bash', 'completions/_svc', 'completions/svc.fish', ...Object.keys(HELP_FILES).map(helpFile)]) {
      expect(readFileSync(join(copy, file), 'utf8'), `${file} is stale: run npm run docs`).toBe(readFileSync(join(ROOT, file), 'utf8'));
    }
  }, 180_000);

  it('npm run sandbox serves the API until SIGTERM (it crashed: dist/svc.js no longer exists)', async () => {
    let health: unknown;
    const r = await npm('sandbox', ['--port', '0', '--quiet', '-o', 'json'], async (out) => {
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return false;
      const res = await fetch(`${JSON.parse(line).baseUrl}/__sandbox/health`);
      health = await res.json();
      return true;
    });
    expect(health, r.stderr).toMatchObject({ ok: true });
    expect(r.stderr).not.toMatch(/Error|ERR_/);
  }, 180_000);

  it.each(['test:node'])('npm run %s', async (name) => {
    const how = RUNS[name] as { args: string[]; check(r: Run): void };
    how.check(await npm(name, how.args));
  }, 180_000);
});
