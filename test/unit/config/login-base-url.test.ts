/** `svc auth login` finds its base URL by the precedence every other command uses (config/resolve.ts). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/host.js';
import { startFakeServer, type FakeServer } from '../../helpers/fake-server.js';

describe('auth login: the one base-URL precedence', () => {
  let prod: FakeServer;
  let dev: FakeServer;
  beforeAll(async () => { [prod, dev] = await Promise.all([startFakeServer(), startFakeServer()]); });
  afterAll(async () => { await Promise.all([prod.close(), dev.close()]); });

  it('--dev checks the token against SVC_DEV_BASE_URL and binds it as the dev URL (it used SVC_BASE_URL)', async () => {
    dev.stub('/api/v1/orgs/list', { json: [] });
    const r = await runCli(['auth', 'login', '--dev', '--token-id', 'tid-0001', '--with-secret-stdin'], {
      env: { SVC_BASE_URL: prod.url, SVC_DEV_BASE_URL: dev.url }, stdin: 'the-secret\n',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(dev.hits('/api/v1/orgs/list')).toBe(1);
    expect(prod.requests).toHaveLength(0);
    const stored = JSON.parse(readFileSync(join(r.host.configDir, 'config.json'), 'utf8'));
    expect(stored.profiles.default.devBaseUrl).toBe(dev.url);
    expect(stored.profiles.default.baseUrl).toBeUndefined();
  });
});
