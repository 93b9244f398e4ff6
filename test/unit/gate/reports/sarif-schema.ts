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
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ajvDraft04 from 'ajv-draft-04';
import ajvFormats from 'ajv-formats';
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

export function sarifValidator(): ValidateFunction {
  if (cached) return cached;
  const schema = JSON.parse(readFileSync(findSarifSchema(), 'utf8')) as Record<string, unknown>;
  // The schema is draft-04 and its `language` pattern is not a valid unicode-mode RegExp.
  // Both are CommonJS packages that also set `exports.default`, which works under ESM and TS alike.
  const Ajv04 = ajvDraft04.default;
  const addFormats = ajvFormats.default;
  const ajv = new Ajv04({ allErrors: true, strict: false, unicodeRegExp: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  cached = validate;
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
