/**
 * A validator for the official SARIF 2.1.0 JSON schema, as shipped on the npm registry.
 *
 * No npm package ships the OASIS file under its own name (`sarif-schema-2.1.0.json`). The
 * vendor's `jest-sarif` package (a dev dependency, scoped) ships `sarif-2.1.0-rtm.5.json`: the
 * 2.1.0 schema as published in the JSON schema store. It is found here by file name, so that
 * no vendor name is written in this project. Compared with the OASIS errata01 file it lacks the
 * `region.anyOf` rule (a region needs startLine, charOffset or byteOffset), which
 * `oasisRegionProblems` checks instead, and a few `type: string` on enums.
 */
import { existsSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
import ajvStandalone from 'ajv/dist/standalone/index.js';
import type { ErrorObject, ValidateFunction } from 'ajv';

const SCHEMA_FILE = join('jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json');

export function findSarifSchema(): string {
  let dir = fileURLToPath(new URL('.', import.meta.url));
  for (;;) {
    const modules = join(dir, 'node_modules');
    if (existsSync(modules)) {
      for (const scope of readdirSync(modules).filter((name) => name.startsWith('@'))) {
        const candidate = join(modules, scope, SCHEMA_FILE);
        if (existsSync(candidate)) return candidate;
      }
    }
    const parent = join(dir, '..');
    if (parent === dir) throw new Error(`SARIF schema not found (${SCHEMA_FILE}): run npm install`);
    dir = parent;
  }
}

let cached: ValidateFunction | undefined;

/**
 * The schema's validator. Compiling it costs about a second of CPU, and every test file that checks a
 * SARIF log would pay it again (vitest evaluates a file's modules anew for each file): the first file
 * of a run also writes the compiled validator as code (ajv's standalone output, the same checks) to the
 * run's shared folder (SVC_TEST_SHARED, test/global-setup.ts), and the other files load that code.
 */
export function sarifValidator(): ValidateFunction {
  if (cached) return cached;
  const shared = process.env.SVC_TEST_SHARED;
  const file = shared ? join(shared, 'sarif-2.1.0-validator.cjs') : undefined;
  if (file && existsSync(file)) {
    cached = loadStandalone(readFileSync(file, 'utf8'));
    return cached;
  }
  const schema = JSON.parse(readFileSync(findSarifSchema(), 'utf8')) as Record<string, unknown>;
  // The schema is draft-04 and its `language` pattern is not a valid unicode-mode RegExp.
  // Both are CommonJS packages that also set `exports.default`, which works under ESM and TS alike.
  const Ajv04 = ajvDraft04.default;
  const addFormats = ajvFormats.default;
  const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false, code: { source: true } });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  if (file) {
    // Written whole under another name, then renamed: a file reading it never sees half of it. Only
    // a saving: where it cannot be written, the next file compiles the schema again.
    const part = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    try {
      writeFileSync(part, ajvStandalone.default(ajv, validate));
      renameSync(part, file);
    } catch {
      rmSync(part, { force: true });
    }
  }
  cached = validate;
  return validate;
}

/** The validator from its standalone code (CommonJS: it requires ajv's and ajv-formats' runtime). */
function loadStandalone(code: string): ValidateFunction {
  const module = { exports: {} as { default?: ValidateFunction } };
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  new Function('require', 'module', 'exports', code)(createRequire(import.meta.url), module, module.exports);
  const validate = (module.exports.default ?? module.exports) as ValidateFunction;
  if (typeof validate !== 'function') throw new Error('the compiled SARIF validator is not a function');
  return validate;
}

export function schemaErrors(log: unknown): ErrorObject[] {
  const validate = sarifValidator();
  return validate(log) ? [] : [...(validate.errors ?? [])];
}

/** The OASIS errata01 rule missing from the packaged copy: each region has startLine (or an offset). */
export function oasisRegionProblems(log: { runs: Array<{ results: Array<{ locations?: unknown[] }> }> }): string[] {
  const problems: string[] = [];
  log.runs.forEach((run, r) =>
    run.results.forEach((result, i) =>
      (result.locations ?? []).forEach((loc) => {
        const region = (loc as { physicalLocation?: { region?: Record<string, unknown> } }).physicalLocation?.region;
        if (region && !('startLine' in region) && !('charOffset' in region) && !('byteOffset' in region)) {
          problems.push(`runs[${r}].results[${i}]: region without startLine`);
        }
      }),
    ),
  );
  return problems;
}
