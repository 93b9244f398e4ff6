/**
 * The outside systems' published schemas (../shared/schemas beside the clone, or beside the folder of
 * worktrees it is in; its README says their sources), each compiled once with ajv.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

const ROOT = resolve(__dirname, '../..');
export const SCHEMAS = ['../shared/schemas', '../../shared/schemas'].map((p) => resolve(ROOT, p)).find((p) => existsSync(p));

const validators = new Map<string, ValidateFunction>();
/**
 * The errors of `data` against schema file `schema` (compiling the workflow schema is most of a test's time: once).
 * Without ajv's optimizing pass over the code it generates (the same checks; the pass only folds and
 * drops redundant code): the workflow and action schemas compile in 0.54 CPU-s instead of 0.75.
 */
export function schemaCheck(schema: string, data: unknown): string[] {
  if (!SCHEMAS) throw new Error('the schemas beside the clone (../shared/schemas) are missing');
  if (!validators.has(schema)) validators.set(schema, new Ajv({ strict: false, allErrors: true, code: { optimize: false } }).compile(JSON.parse(readFileSync(join(SCHEMAS, schema), 'utf8'))));
  const validate = validators.get(schema)!;
  return validate(data) ? [] : (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath} ${e.message}`);
}
