/**
 * Dead exports do not come back: every export of a file in src/ is imported by another file (in
 * src/ or test/), or it is on the short list below with the reason. An export used only inside its
 * own file loses its `export`; one used nowhere is deleted.
 * Read from the syntax alone (TypeScript's parser, no type check): static imports, re-exports,
 * `import * as ns` (the `ns.name`s read), `import('...')` read by destructuring, `.then((m) => m.x)`
 * or `(await import(...)).x`, and `import('...').Type` in types. A dynamic import it cannot read
 * fails the test, naming the place, rather than counting as a use of everything.
 * Run alone: npx vitest run test/unit/architecture/exports.test.ts
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sourceScan, type ExportUse } from '../../helpers/source-scan.js';

/** Exports used only outside src/ and test/, and why. */
const ALLOWED = new Map<string, string>([
  ['src/entry.ts runProcess', 'bin/svc.js runs it (the bundle\'s one entry)'],
  ['src/entry.ts builtVersion', 'bin/svc.js passes it to runProcess (the version the build read from package.json)'],
  ['src/entry.ts stdoutFailed', 'bin/svc.js calls it when a fast path (--version, top-level help) cannot write stdout'],
]);

/** `file name` of every export in src/ that no other file imports. */
function unusedExports(u: ExportUse): string[] {
  return [...u.exports]
    .filter(([f]) => f.startsWith('src/'))
    .flatMap(([f, names]) => [...names].map((n) => `${f} ${n}`))
    .filter((k) => !u.used.has(k))
    .sort();
}

describe('exports of src/', () => {
  // Read in a hook, not while vitest collects the file: a hook's time counts in the file's duration,
  // by which the next run orders the files (longest first), so this file no longer comes last.
  // The parse is test/helpers/source-scan.ts's, once per run for the three tests that read syntax.
  let u: ExportUse;
  beforeAll(async () => {
    const scan = await sourceScan();
    u = { exports: new Map(Object.entries(scan.exports).map(([f, names]) => [f, new Set(names)])), used: new Set(scan.used), unreadable: scan.unreadable };
  });

  it('reads every dynamic import', () => {
    expect(u.unreadable).toEqual([]);
  });

  it('reads the uses it checks', () => {
    expect(u.used).toContain('src/cli.ts main');
    expect(u.used).toContain('src/commands/program.ts buildProgram');
  });

  it('every export of src/ is imported by another file (or listed, with its reason)', () => {
    const unused = unusedExports(u).filter((k) => !ALLOWED.has(k));
    expect(unused, 'remove `export` (used only in its own file) or delete it (used nowhere)').toEqual([]);
  });

  it('the allow-list holds only exports that exist and are otherwise unused', () => {
    const unused = new Set(unusedExports(u));
    expect([...ALLOWED.keys()].filter((k) => !unused.has(k))).toEqual([]);
  });

  it('finds an export nobody imports (the check can fail)', () => {
    const fake: ExportUse = { exports: new Map([['src/a.ts', new Set(['x', 'y'])]]), used: new Set(['src/a.ts x']), unreadable: [] };
    expect(unusedExports(fake)).toEqual(['src/a.ts y']);
  });
});
