/**
 * A code cache V8 rejects (another node, or V8 flags in NODE_OPTIONS as CI jobs set them) makes
 * bin/svc.js compile from source once and keep a cache for that node and those flags in the user's
 * cache directory; the next run uses it. With the build's own node and flags nothing is written.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../helpers/run-svc.js';
import { startFakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

const run = promisify(execFile);

/**
 * `svc issues search <args>` with these node options, a cache directory of its own and `env`;
 * `rejected()`: for each script compiled so far (svc.cjs, and svc-more.cjs where a command needs
 * it), whether V8 rejected the cache it was given; `own()`: the caches made in the cache directory.
 */
function cacheProbe(name: string, env: Record<string, string> = {}) {
  const dir = tempDir(name);
  const log = join(dir, 'rejected.log');
  writeFileSync(join(dir, 'record.cjs'), `
    const vm = require('node:vm');
    const S = vm.Script;
    vm.Script = function (src, opts) {
      const s = new S(src, opts);
      require('node:fs').appendFileSync(${JSON.stringify(log)}, require('node:path').basename(opts.filename) + ' ' + String(s.cachedDataRejected) + '\\n');
      return s;
    };`);
  const cacheHome = join(dir, 'cache');
  const ownDir = join(cacheHome, 'svc', 'code-cache');
  return {
    call: (nodeOptions: string, args: string[]) => run(process.execPath, [BIN, 'issues', 'search', ...args], {
      env: cleanEnv({ ...env, XDG_CACHE_HOME: cacheHome, NODE_OPTIONS: `${nodeOptions} --require=${join(dir, 'record.cjs')}`.trim() }),
    }),
    rejected: () => readFileSync(log, 'utf8').trim().split('\n'),
    own: () => (existsSync(ownDir) ? readdirSync(ownDir) : []),
  };
}

describe('the code cache of another node or other V8 flags', () => {
  it('is made once in the user cache directory and used from the next run on', async () => {
    const { call, rejected, own } = cacheProbe('svc-code-cache-');
    const dryRun = ['--dry-run', '-o', 'json'];
    // The build's node and flags: the bundled cache, nothing written.
    const plain = await call('', dryRun);
    expect(own()).toEqual([]);
    // A V8 flag: the bundled cache is rejected, a cache for these flags is made ...
    const first = await call('--max-old-space-size=300', dryRun);
    expect(own()).toHaveLength(1);
    // (Named by the script, its build and a hash of node's version and flags.)
    expect(own()[0]).toMatch(/^svc-[0-9a-z]+-[0-9a-f]+\.cache$/);
    // ... and accepted by the next run with the same flags.
    const second = await call('--max-old-space-size=300', dryRun);
    expect(rejected()).toEqual(['svc.cjs false', 'svc.cjs true', 'svc.cjs false']);
    expect(first.stdout).toBe(plain.stdout);
    expect(second.stdout).toBe(plain.stdout);
  });

  it('a real call or listing, which set V8 flags as they run, make a cache the next run accepts', async () => {
    // --liftoff-only is set when undici's parser is compiled, after the script; a cache made with it
    // (or a listing's --optimize-for-size) still set would carry another hash of V8's flags and be
    // rejected by every later run.
    const server = await startFakeServer({ fallback: { json: { issues: [{ id: 'iss_1', score: 9 }], totalCount: 1 } } });
    try {
      const { call, rejected, own } = cacheProbe('svc-code-cache-call-', { SVC_BASE_URL: server.url, SVC_API_TOKEN_ID: 'id-1', SVC_API_TOKEN_SECRET: 'secret-1' });
      const json = ['-o', 'json'];
      const listing = ['--all', '-o', 'ndjson'];
      const plain = await call('', json);
      expect(JSON.parse(plain.stdout).totalCount).toBe(1);
      expect(own()).toEqual([]);
      // A listing first: it also sets --optimize-for-size (src/listing/heap.ts), undone as well. Its
      // engine is in the second script, which gets a cache of its own.
      expect((await call('--max-old-space-size=300', listing)).stdout).toBe('{"id":"iss_1","score":9}\n');
      const build = /^svc-([0-9a-z]+)-/.exec(own().find((f) => !f.startsWith('svc-more-'))!)![1];
      expect(own().map((f) => f.replace(/-[0-9a-f]+\.cache$/, '')).sort()).toEqual([`svc-more-${build}`, `svc-${build}`]);
      await call('--max-old-space-size=300', listing);
      const second = await call('--max-old-space-size=300', json);
      await call('', json);
      // The bundled caches (made by the build's real calls), rejected only for the other flags, then
      // this machine's caches for them, by a listing and by a call; the bundled one again without them.
      expect(rejected()).toEqual(['svc.cjs false', 'svc.cjs true', 'svc-more.cjs true', 'svc.cjs false', 'svc-more.cjs false', 'svc.cjs false', 'svc.cjs false']);
      expect(own()).toHaveLength(2);
      expect(second.stdout).toBe(plain.stdout);
    } finally {
      await server.close();
    }
  });
});
