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
import { scopeSpecs } from '../../../../src/commands/gate/flags.js';
import type { GlobalOptions } from '../../../../src/global-options.js';
import { CliError, UsageError } from '../../../../src/errors.js';
import { EXIT } from '../../../../src/exit-codes.js';

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
