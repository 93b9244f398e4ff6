/**
 * `svc config get KEY` of a setting that is not set: the hint is the command that sets it in the
 * profile asked about (it named `svc config set KEY VALUE`, which sets the default profile).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, testHost } from '../../../helpers/host.js';

function withProfile(env: Record<string, string> = {}) {
  const host = testHost({ env });
  writeFileSync(join(host.configDir, 'config.json'), JSON.stringify({ profiles: {
    default: { baseUrl: 'https://api.example.test' },
    staging: { organization: 'org_1' },
  } }), { mode: 0o600 });
  return host;
}

describe('svc config get: a setting that is not set', () => {
  it('--profile staging: the hint sets it in staging, not in default', async () => {
    const host = withProfile();
    const r = await runCli(['config', 'get', 'base-url', '--profile', 'staging'], { host });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`'base-url' is not set in profile "staging"; set it with 'svc config set base-url VALUE --profile staging'`);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('SVC_PROFILE=staging: the hint names the profile too (a shell without the variable sets default)', async () => {
    const r = await runCli(['config', 'get', 'dev-base-url'], { host: withProfile({ SVC_PROFILE: 'staging' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("set it with 'svc config set dev-base-url VALUE --profile staging'");
  });

  it('the default profile: the hint stays short', async () => {
    const r = await runCli(['config', 'get', 'organization'], { host: withProfile() });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`'organization' is not set in profile "default"; set it with 'svc config set organization VALUE'`);
  });
});
