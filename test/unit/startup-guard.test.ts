/**
 * Start-up regression guard (not a timed test): the code loaded before any command runs must not
 * contain the heavy modules that only some commands need. Works on the built bundle: the static
 * import closure of dist/svc.js is exactly what every invocation pays for.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const DIST = resolve(__dirname, '../../dist');

function staticClosure(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  const text = readFileSync(file, 'utf8');
  // Static imports only: `import ... from"./x.js"` and `import"./x.js"`; dynamic import("...") is excluded.
  for (const m of text.matchAll(/(?:^|[;\n])\s*import\s*(?:[^"'()]*?from\s*)?["'](\.[^"']+)["']/g)) {
    staticClosure(join(dirname(file), m[1]), seen);
  }
  return seen;
}

const HEAVY: Record<string, string> = {
  undici: 'llhttp',
  zod: '$ZodType',
  'cli-table3': 'colWidths',
  ora: 'dots12',
  'conf/ajv': 'ajv',
};

describe('what every invocation loads', () => {
  const closure = [...staticClosure(join(DIST, 'svc.js'))];
  const text = closure.map((f) => readFileSync(f, 'utf8')).join('\n');

  for (const [name, marker] of Object.entries(HEAVY)) {
    it(`does not load ${name} before a command needs it`, () => {
      expect(text.includes(marker), `${name} is reachable statically from dist/svc.js`).toBe(false);
    });
  }

  it('stays small', () => {
    const bytes = closure.reduce((n, f) => n + readFileSync(f).length, 0);
    expect(bytes).toBeLessThan(120_000);
  });

  it('bin/svc.js answers --version without importing the CLI', () => {
    const shim = readFileSync(resolve(__dirname, '../../bin/svc.js'), 'utf8');
    const staticImports = [...shim.matchAll(/^import .* from ['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    expect(staticImports).toEqual(['node:fs']);
  });
});
