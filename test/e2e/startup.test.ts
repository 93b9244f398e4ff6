/** The shim's fast paths must say exactly what the full CLI says. */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runSvc } from '../helpers/run-svc.js';

describe('fast paths of bin/svc.js', () => {
  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8'));
    const r = await runSvc(['--version']);
    expect(r.stdout).toBe(`${pkg.version}\n`);
    expect((await runSvc(['-V'])).stdout).toBe(`${pkg.version}\n`);
  });

  it('top-level help from dist/help.txt equals the help the program renders', async () => {
    const fast = await runSvc(['--help']);
    const full = await runSvc(['--help'], { env: { SVC_NO_FAST_HELP: '1' } });
    expect(fast.code).toBe(0);
    expect(fast.stdout).toBe(full.stdout);
    expect(fast.stdout).toMatch(/^Usage: svc <command>/);
    for (const group of ['orgs', 'repos', 'installations', 'stats', 'issues', 'scans', 'auth', 'config', 'api']) {
      expect(fast.stdout).toMatch(new RegExp(`\\n  ${group}\\b`));
    }
  });
});
