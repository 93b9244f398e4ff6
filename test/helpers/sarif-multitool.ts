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
 * Validates SARIF logs (objects or their text), all in one run of the tool (each run costs seconds
 * of start-up); returns each log's errors and warnings by name.
 */
export function multitoolFindings(logs: Record<string, unknown>): Record<string, MultitoolFinding[]> {
  const dir = tempDir('svc-sarif-');
  try {
    const names = Object.keys(logs);
    const inputs = names.map((name, k) => {
      const file = join(dir, `${k}.sarif`);
      writeFileSync(file, typeof logs[name] === 'string' ? logs[name] as string : JSON.stringify(logs[name]));
      return file;
    });
    const output = join(dir, 'validation.sarif.json');
    const r = spawnSync(binary(), ['validate', ...inputs, '--rule-kind', 'Gh;Sarif', '--output', output, '--log', 'ForceOverwrite'], {
      encoding: 'utf8', env: { ...process.env, DOTNET_SYSTEM_GLOBALIZATION_INVARIANT: '1' },
    });
    if (r.error || r.status !== 0) throw new Error(`the SARIF multitool failed (${r.status}): ${r.stdout}${r.stderr}`);
    const out = JSON.parse(readFileSync(output, 'utf8')) as { runs: Array<{
      results?: Array<{ ruleId: string; level?: string; message: { text?: string; arguments?: string[] }; locations?: Array<{ physicalLocation?: { artifactLocation?: { uri?: string } } }> }>;
      invocations?: Array<{ toolExecutionNotifications?: Array<{ level?: string; message: { text: string } }> }>;
    }> };
    const found: Record<string, MultitoolFinding[]> = Object.fromEntries(names.map((n) => [n, []]));
    for (const run of out.runs) {
      for (const res of run.results ?? []) {
        const level = res.level ?? 'warning';
        if (level !== 'error' && level !== 'warning') continue;
        const uri = res.locations?.[0]?.physicalLocation?.artifactLocation?.uri ?? '';
        const k = inputs.findIndex((file) => uri.endsWith(`/${file.split('/').pop()}`));
        const finding = { ruleId: res.ruleId, level, message: res.message.text ?? (res.message.arguments ?? []).join(' | ') };
        if (k < 0) throw new Error(`a multitool finding names no input: ${JSON.stringify(res)}`);
        found[names[k]].push(finding);
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
