/**
 * Runs the SARIF multitool (`validate --rule-kind "Gh;Sarif"`, the checks a code-scanning upload
 * applies) on a SARIF file and returns its findings of level error and warning.
 *
 * The npm package's own launcher runs the tool through a shell, which splits `Gh;Sarif` at the `;`,
 * so the platform binary is spawned directly. `available()` says why the tool cannot run here (no
 * binary for this platform, not executable, missing system libraries), so a test can skip with that
 * reason and only then.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { removeTempDir, tempDir } from './temp.js';

const require = createRequire(import.meta.url);

export interface MultitoolFinding { ruleId: string; level: string; message: string }

function binary(): string {
  return require('@microsoft/sarif-multitool') as string;
}

/** undefined when the multitool runs on this machine, else the reason it cannot. */
export function multitoolUnavailable(): string | undefined {
  let bin: string;
  try {
    bin = binary();
  } catch (err) {
    return `no SARIF multitool binary for ${process.platform}: ${(err as Error).message.split('\n')[0]}`;
  }
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', env: { ...process.env, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1' } });
  if (r.error) return `the SARIF multitool cannot run here (${(r.error as NodeJS.ErrnoException).code ?? r.error.message}: ${bin})`;
  if (r.status !== 0) return `the SARIF multitool cannot run here (exit ${r.status}: ${(r.stderr || r.stdout).trim().split('\n')[0]})`;
  return undefined;
}

/**
 * Validates SARIF logs (objects or their text), all in one run of the tool on one file (each run,
 * and each further file in a run, costs about a second of CPU): the logs' runs are written as the
 * runs of one log, one run a line, and each finding goes back to its log by the line it names.
 * Returns each log's errors and warnings by name. A log must be `{ $schema, version, runs }` of
 * SARIF 2.1.0 (what svc writes); a finding on none of the runs (the combined log's own lines) throws.
 */
export function multitoolFindings(logs: Record<string, unknown>): Record<string, MultitoolFinding[]> {
  const dir = tempDir('svc-sarif-');
  try {
    const names = Object.keys(logs);
    // Line 1 is the log's head; then each run on a line of its own, and the line of each names its log.
    const owner: string[] = [];
    const lines: string[] = [];
    let schema: unknown;
    for (const name of names) {
      const log = (typeof logs[name] === 'string' ? JSON.parse(logs[name] as string) : logs[name]) as { $schema?: unknown; version?: unknown; runs?: unknown[] };
      const extra = Object.keys(log).filter((k) => !['$schema', 'version', 'runs'].includes(k));
      if (log.version !== '2.1.0' || !Array.isArray(log.runs) || log.runs.length === 0 || extra.length) {
        throw new Error(`multitoolFindings: ${name} is not a SARIF 2.1.0 log of { $schema, version, runs } (${extra.join(', ') || 'version or runs'})`);
      }
      if (schema !== undefined && log.$schema !== schema) throw new Error(`multitoolFindings: ${name} names another $schema`);
      schema = log.$schema;
      for (const run of log.runs) {
        owner.push(name);
        lines.push(JSON.stringify(run));
      }
    }
    const head = `{${schema === undefined ? '' : `"$schema":${JSON.stringify(schema)},`}"version":"2.1.0","runs":[`;
    const input = join(dir, 'all.sarif');
    writeFileSync(input, `${head}\n${lines.join(',\n')}\n]}\n`);
    const output = join(dir, 'validation.sarif.json');
    const r = spawnSync(binary(), ['validate', input, '--rule-kind', 'Gh;Sarif', '--output', output, '--log', 'ForceOverwrite'], {
      encoding: 'utf8', env: { ...process.env, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1' },
    });
    if (r.error || r.status !== 0) throw new Error(`the SARIF multitool failed (${r.status}): ${r.stdout}${r.stderr}`);
    const out = JSON.parse(readFileSync(output, 'utf8')) as { runs: Array<{
      results?: Array<{ ruleId: string; level?: string; message: { text?: string; arguments?: string[] }; locations?: Array<{ physicalLocation?: { artifactLocation?: { uri?: string }; region?: { startLine?: number } } }> }>;
      invocations?: Array<{ toolExecutionNotifications?: Array<{ level?: string; message: { text: string } }> }>;
    }> };
    const found: Record<string, MultitoolFinding[]> = Object.fromEntries(names.map((n) => [n, []]));
    for (const run of out.runs) {
      for (const res of run.results ?? []) {
        const level = res.level ?? 'warning';
        if (level !== 'error' && level !== 'warning') continue;
        const finding = { ruleId: res.ruleId, level, message: res.message.text ?? (res.message.arguments ?? []).join(' | ') };
        const where = res.locations?.[0]?.physicalLocation;
        const line = where?.region?.startLine;
        const name = where?.artifactLocation?.uri?.endsWith('/all.sarif') && line !== undefined ? owner[line - 2] : undefined;
        if (name === undefined) throw new Error(`a multitool finding names none of the runs: ${JSON.stringify(res)}`);
        // Where the finding names its run by index (runs[k]...), that run is on its line.
        const k = /^runs\[(\d+)\]/.exec(res.message.arguments?.[0] ?? '')?.[1];
        if (k !== undefined && owner[Number(k)] !== name) throw new Error(`a multitool finding names runs[${k}] on the line of another run: ${JSON.stringify(res)}`);
        found[name].push(finding);
      }
      for (const inv of run.invocations ?? []) {
        for (const n of inv.toolExecutionNotifications ?? []) {
          if (n.level === 'error') throw new Error(`the SARIF multitool reported: ${n.message.text}`);
        }
      }
    }
    return found;
  } finally {
    removeTempDir(dir);
  }
}
