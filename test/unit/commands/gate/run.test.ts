/**
 * The gate's run step called directly (gh's runF seam): options built as a typed GateOptions, a
 * Context from createContext, no command line. What it decides is what `svc gate` decides.
 */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../../helpers/sandbox.js';
import { runCli, testHost } from '../../../helpers/host.js';
import { createContext } from '../../../../src/runtime.js';
import { runGate } from '../../../../src/commands/gate/run.js';
import { parseGateOptions, type GateCommandOptions } from '../../../../src/commands/gate/options.js';
import { scopeSpecs } from '../../../../src/commands/gate/scope-flags.js';
import type { GlobalOptions } from '../../../../src/core/global-options.js';
import { CliError, UsageError } from '../../../../src/core/errors.js';
import { EXIT } from '../../../../src/core/exit-codes.js';
import { tempDir } from '../../../helpers/temp.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const sb = useSandbox();

async function gate(raw: GateCommandOptions, globals: GlobalOptions = {}) {
  const host = testHost({ env: sb.env });
  const ctx = createContext(host, globals);
  await ctx.config.prepare();
  let error: unknown;
  try {
    await runGate(ctx, parseGateOptions(raw, { specs: scopeSpecs(), attribute: new Map() }));
  } catch (err) {
    error = err;
  } finally {
    await ctx.close();
  }
  return { error, stdout: host.stdout, stderr: host.stderr };
}

describe('runGate, called with typed options', () => {
  it('decides as `svc gate` does: the same verdict as data, failed with exit 1', async () => {
    const direct = await gate({ failOn: 'high' }, { output: 'json' });
    expect(direct.error).toBeInstanceOf(CliError);
    expect((direct.error as CliError).exitCode).toBe(EXIT.GATE_FAILED);
    const viaCli = await runCli(['gate', '--fail-on', 'high', '-o', 'json'], { env: sb.env });
    expect(viaCli.code).toBe(EXIT.GATE_FAILED);
    expect(JSON.parse(direct.stdout)).toEqual(JSON.parse(viaCli.stdout));
    expect(JSON.parse(direct.stdout)).toMatchObject({ passed: false, decided: true });
  });

  it('passes on thresholds nothing breaks', async () => {
    const r = await gate({ maxTotal: '1000000' });
    expect(r.error, r.stderr).toBeUndefined();
    expect(r.stdout).toMatch(/^svc gate: PASSED/);
  });

  it('refuses --wait without a scan to wait for, before anything is counted', async () => {
    const r = await gate({ failOn: 'high', wait: true });
    expect(r.error).toBeInstanceOf(UsageError);
    expect((r.error as Error).message).toMatch(/--wait waits for the scan of --scan-id/);
    expect(r.stdout).toBe('');
  });
});

describe('the gate says which organization it acted on, and where that came from (issue 24, item 1)', () => {
  const flat = (text: string) => text.replace(/\s+/g, ' ');

  it('on an 80-column terminal: --org, SVC_ORGANIZATION_ID, the profile, --organization-id, or the token\'s default', async () => {
    const orgs = await sb.runJson<Array<{ id: string }>>(['orgs', 'list']);
    const org = orgs[1].id;
    const tty = { tty: true, columns: 80 } as const;
    const none = await runCli(['gate', '--max-total', '1000000'], { env: sb.env, ...tty });
    expect(none.code, none.stderr).toBe(0);
    expect(flat(none.stdout)).toContain("Organization: the token's default (none set: --org, SVC_ORGANIZATION_ID or svc config set organization picks one; svc auth status lists them).");
    expect(none.stdout.split('\n').filter((l) => l.length > 80)).toEqual([]);
    const flag = await runCli(['gate', '--max-total', '1000000', '--org', org], { env: sb.env, ...tty });
    expect(flag.stdout).toContain(`Organization: ${org} (from --org).`);
    const env = await runCli(['gate', '--max-total', '1000000'], { env: { ...sb.env, SVC_ORGANIZATION_ID: org }, ...tty });
    expect(env.stdout).toContain(`Organization: ${org} (from SVC_ORGANIZATION_ID).`);
    const field = await runCli(['gate', '--max-total', '1000000', '--organization-id', org], { env: sb.env, ...tty });
    expect(field.stdout).toContain(`Organization: ${org} (from --organization-id).`);
    const dir = tempDir('svc-gate-org-');
    const withProfile = { ...sb.env, SVC_CONFIG_DIR: dir, HOME: dir };
    expect((await runCli(['config', 'set', 'organization', org], { env: withProfile })).code).toBe(0);
    const profile = await runCli(['gate', '--max-total', '1000000'], { env: withProfile, ...tty });
    expect(profile.stdout).toContain(`Organization: ${org} (from profile).`);
  });

  it('-o json, --json-report and the markdown summary carry it too', async () => {
    const orgs = await sb.runJson<Array<{ id: string }>>(['orgs', 'list']);
    const dir = tempDir('svc-gate-org-');
    const md = join(dir, 'summary.md');
    const r = await runCli(['gate', '--max-total', '1000000', '--org', orgs[0].id, '-o', 'json', '--markdown', md], { env: sb.env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).organization).toEqual({ id: orgs[0].id, from: '--org' });
    // Markdown escapes its punctuation: `\(from --org\)`, `\_`.
    expect(readFileSync(md, 'utf8').replace(/\\(.)/g, '$1')).toContain(`Organization: ${orgs[0].id} (from --org).`);
    const none = await runCli(['gate', '--max-total', '1000000', '-o', 'json'], { env: sb.env });
    expect(JSON.parse(none.stdout).organization).toEqual({ from: "the token's default" });
  });
});
