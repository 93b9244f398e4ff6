// Makes the V8 code caches of the CLI's two scripts (see bin/svc.js): dist/svc.cjs.cache by one real
// `svc issues search -o json` against a loopback server with SVC_WRITE_CODE_CACHE=1, so that it holds
// every function an API call compiles, made with the flags a normal run has; dist/svc-more.cjs.cache
// by `svc issues search -o table` (SVC_WRITE_CODE_CACHE=more): the second script's top level and the
// table's functions (what a call on a terminal runs); the rest of it compiles when used.
// Run by scripts/build.mjs; talks to 127.0.0.1 only.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = new URL('..', import.meta.url).pathname;
const CACHE = join(ROOT, 'dist', 'svc.cjs.cache');
const MORE_CACHE = join(ROOT, 'dist', 'svc-more.cjs.cache');

const issue = (n) => ({ id: `iss_${n}`, repositoryId: 'repo_1', repositoryName: 'web', status: 'open', score: 7.5, severity: 8, vulnClass: 'sqli', affectedFile: 'src/a.ts', startLine: n, generatedTitle: 'SQL injection', createdAt: '2026-01-01T00:00:00Z' });
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const body = JSON.stringify({ issues: [issue(1), issue(2)], totalCount: 2, page: 1, pageSize: 10 });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const configDir = mkdtempSync(join(tmpdir(), 'svc-code-cache-'));
try {
  rmSync(CACHE, { force: true });
  rmSync(MORE_CACHE, { force: true });
  // Nothing of the builder's own svc settings or proxies; no NODE_OPTIONS, which could carry V8
  // flags that the cache would then require of every run.
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(SVC_\w+|NODE_OPTIONS|https?_proxy|no_proxy|HTTPS?_PROXY|NO_PROXY)$/.test(k)));
  for (const [format, run, file] of [['json', '1', CACHE], ['table', 'more', MORE_CACHE]]) {
    await promisify(execFile)(process.execPath, [join(ROOT, 'bin', 'svc.js'), 'issues', 'search', '-o', format], {
      env: {
        ...env,
        SVC_WRITE_CODE_CACHE: run,
        SVC_CONFIG_DIR: configDir,
        SVC_BASE_URL: `http://127.0.0.1:${server.address().port}`,
        SVC_API_TOKEN_ID: 'build-token',
        SVC_API_TOKEN_SECRET: 'build-secret',
      },
    });
    if (!(statSync(file).size > 0)) throw new Error(`${file} is empty`);
  }
} catch (err) {
  // svc works without it, only slower to start: a build where loopback is closed still succeeds.
  rmSync(CACHE, { force: true });
  rmSync(MORE_CACHE, { force: true });
  process.stderr.write(`build: warning: no code cache made (${err.message.split('\n')[0]}); svc will start ~30 ms slower\n`);
} finally {
  server.close();
  rmSync(configDir, { recursive: true, force: true });
}
