/**
 * A FIFO where the config file (or its lock) should be. A plain open() of it blocks until a writer
 * comes, and svc read the config file synchronously: every command hung, even with its settings all
 * in the environment, and neither Ctrl-C nor SIGTERM could stop it (only SIGKILL). A real process,
 * as only one shows that: a hang is killed at the timeout (SIGKILL) and the test fails, it never hangs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSvc } from '../helpers/run-svc.js';
import { tempDir } from '../helpers/temp.js';

/** A config folder holding a FIFO at `name` (removed with the folder when the test ends). */
function withFifo(name: string): { dir: string; fifo: string } {
  const dir = tempDir('svc-fifo-');
  const fifo = join(dir, name);
  execFileSync('mkfifo', [fifo]);
  return { dir, fifo };
}

const ENV_ONLY = { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_API_TOKEN_ID: 'id-0001', SVC_API_TOKEN_SECRET: 'fifo-secret-5e1a', SVC_ORGANIZATION_ID: 'org_1' };
const say = (path: string, kind: string) =>
  `svc: error: cannot read the config file ${path}: it is ${kind}, not a regular file; delete it with 'svc config reset --yes'`;

describe.concurrent('a FIFO in the config file\'s place', () => {
  it.each([
    ['config get base-url', ['config', 'get', 'base-url'], {}],
    ['orgs list, every setting in the environment', ['orgs', 'list'], ENV_ONLY],
    ['config set', ['config', 'set', 'organization', 'org_2'], {}],
  ])('%s: exit 2 at once, naming the path and the way out', async (_, args, env) => {
    const { dir, fifo } = withFifo('config.json');
    const r = await runSvc(args, { env: { ...env, SVC_CONFIG_DIR: dir }, timeoutMs: 15_000 });
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(say(fifo, 'a FIFO (named pipe)'));
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('reached through a symbolic link: the same, and `config reset --yes` removes the link only', async () => {
    const { dir, fifo } = withFifo('pipe');
    const path = join(dir, 'config.json');
    symlinkSync(fifo, path);
    const r = await runSvc(['config', 'list'], { env: { SVC_CONFIG_DIR: dir }, timeoutMs: 15_000 });
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(say(path, 'a symbolic link to a FIFO (named pipe)'));
    const reset = await runSvc(['config', 'reset', '--yes'], { env: { SVC_CONFIG_DIR: dir }, timeoutMs: 15_000 });
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toBe(`Deleted the symbolic link ${path} (what it pointed to was left as it was).\n`);
    expect(existsSync(path)).toBe(false);
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('`config reset --yes` deletes the FIFO itself', async () => {
    const { dir, fifo } = withFifo('config.json');
    const r = await runSvc(['config', 'reset', '--yes'], { env: { SVC_CONFIG_DIR: dir }, timeoutMs: 15_000 });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe(`Deleted ${fifo} (it was a FIFO (named pipe), not a config file).\n`);
    expect(existsSync(fifo)).toBe(false);
  });

  it('a FIFO as the lock file: `config set` is exit 2 at once, naming it', async () => {
    const { dir, fifo } = withFifo('config.json.lock');
    const r = await runSvc(['config', 'set', 'organization', 'org_2'], { env: { SVC_CONFIG_DIR: dir }, timeoutMs: 15_000 });
    expect(r.signal).toBeNull();
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toBe(`svc: error: the lock file ${fifo} of the config file is a FIFO (named pipe), not a lock svc made; nothing was changed; delete ${fifo} and try again\n`);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});
