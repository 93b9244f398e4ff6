import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HELP_TOPICS, environmentHelp, globalFlagsHelp, outputHelp } from '../../../../src/commands/help-topics.js';
import { GLOBAL_OPTIONS } from '../../../../src/commands/globals.js';
import { EXIT } from '../../../../src/core/exit-codes.js';

const SRC = resolve(__dirname, '../../../../src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('help topics', () => {
  it('exist: exit-codes, environment, output, global-flags', () => {
    expect(Object.keys(HELP_TOPICS)).toEqual(['exit-codes', 'environment', 'output', 'global-flags']);
  });

  it('environment lists every SVC_* variable the code reads, NO_COLOR and the proxies', () => {
    const text = environmentHelp();
    const used = new Set<string>();
    for (const file of sources(SRC)) {
      if (file.endsWith('help-topics.ts')) continue;
      for (const m of readFileSync(file, 'utf8').matchAll(/\bSVC_[A-Z][A-Z0-9_]*\b/g)) used.add(m[0]);
    }
    expect(used.size).toBeGreaterThan(5);
    for (const name of used) expect(text, `${name} is read by the code but not in 'svc help environment'`).toMatch(new RegExp(`\\b${name}\\b`));
    for (const name of ['NO_COLOR', 'HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'NODE_EXTRA_CA_CERTS']) expect(text).toContain(name);
  });

  it('output explains every format, columns and the terminal rules', () => {
    const formats = GLOBAL_OPTIONS.find((o) => o.flags.includes('--output'))!.choices!;
    for (const f of formats) expect(outputHelp()).toMatch(new RegExp(`^  ${f} +\\S`, 'm'));
    expect(outputHelp()).toContain('--columns');
    expect(outputHelp()).toMatch(/stdout/);
    expect(outputHelp()).toMatch(/stderr/);
    expect(outputHelp()).toMatch(/terminal/);
    expect(outputHelp()).toContain('NO_COLOR');
  });

  it('exit-codes lists every code', () => {
    const text = HELP_TOPICS['exit-codes'].text();
    for (const code of Object.values(EXIT)) expect(text).toMatch(new RegExp(`^ *${code}  \\S`, 'm'));
  });

  it('global-flags lists every global flag with its choices', () => {
    const text = globalFlagsHelp();
    for (const o of GLOBAL_OPTIONS) expect(text).toContain(o.flags);
    expect(text).toContain('[one of: table, json, ndjson, csv]');
  });
});
