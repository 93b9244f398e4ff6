/**
 * The schema vocabulary of the operation table, on zod/mini (the tree-shakable zod: ~17 KB instead
 * of ~450 KB, which matters when every call pays for loading it). Help metadata (description and
 * where a field comes from) is attached to each field through zod's metadata registry.
 */
import * as z from './zod.js';

export type Schema = z.ZodMiniType;
/** Where a request field or an operation comes from: the API spec, the field notes, or our inference. */
export type Source = 'spec' | 'notes' | 'inferred';
/** A field that may be absent (no help metadata: for nested records). */
export const maybe = <T extends Schema>(s: T) => z.optional(s);
export const nullable = <T extends Schema>(s: T) => z.nullable(s);
export const loose = <S extends z.core.$ZodLooseShape>(shape: S) => z.looseObject(shape);

interface FieldMeta {
  description?: string;
  source?: Source;
  /** Placeholder shown in help (`<id>`); default derived from the type. */
  placeholder?: string;
  /** The flag's name when it is not the field's (`--reason` for `falsePositiveReason`). */
  flag?: string;
  /** Text that may also be read from a file or stdin: `--<flag>-from FILE|-`. */
  fromFile?: boolean;
}

/** How a field's flag differs from the default one. */
interface FlagChoice {
  flag?: string;
  fromFile?: boolean;
}

/** An optional request field with help metadata (the spec marks no request field required). */
export function field<T extends Schema>(schema: T, description: string, source: Source = 'spec', placeholder?: string, choice: FlagChoice = {}) {
  const optional = z.optional(schema);
  z.globalRegistry.add(optional, { description, source, ...(placeholder ? { placeholder } : {}), ...choice });
  return optional;
}

export function fieldMeta(schema: Schema): FieldMeta {
  return (z.globalRegistry.get(schema) as FieldMeta | undefined) ?? {};
}

export const str = () => z.string();
export const id = () => z.string().check(z.minLength(1));
export const int = (min?: number) => (min === undefined ? z.int() : z.int().check(z.minimum(min)));
export const num = () => z.number();
export const bool = () => z.boolean();
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => z.enum(values);
export const list = <T extends Schema>(item: T) => z.array(item);
export const withDefault = <T extends Schema>(schema: T, value: z.output<T>) => z._default(schema, value as never);
/** Date in the `format: date` of the spec (YYYY-MM-DD). */
/** A calendar day as YYYY-MM-DD that exists (2026-13-01 and 2026-02-30 do not). */
export const isoDate = () => z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD'),
  z.refine((s) => realDay(s), 'expected a real calendar day as YYYY-MM-DD (month 01-12, a day that month has)'),
);

function realDay(s: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s)) return true; // the format check above says what is wrong
  const [y, m, d] = s.split('-').map(Number);
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
}

export const orgId = (source: Source = 'spec') =>
  field(id(), 'Organization id (default: --org, SVC_ORGANIZATION_ID, then the profile)', source, 'id');
/** The organization of a destructive row: never taken from the environment or the profile (request/build.ts). */
export const orgIdNamed = (source: Source = 'spec') =>
  field(id(), 'Organization id (default: --org on the command line; a command that deletes takes none from SVC_ORGANIZATION_ID or the profile)', source, 'id');
export const repoId = (source: Source = 'spec', description = 'Repository: its id, name, owner/name or URL') => field(id(), description, source, 'id');
export const issueId = (source: Source = 'notes') => field(id(), 'Issue id', source, 'id');

/** Request body: declared fields are checked, any other field passes through untouched. */
export const body = loose;

/** Lenient response record: listed fields are typed, unknown fields kept. */
export const record = loose;
export const optional = <T extends Schema>(s: T) => z.nullish(s);

// One schema per optional leaf type, shared by every field of the response records: they carry no
// help metadata (which zod keeps per schema object), and each zod schema costs start-up time to build.
const O_STR = optional(str());
const O_NUM = optional(num());
const O_BOOL = optional(bool());
const O_INT = optional(int());
export const oStr = () => O_STR;
export const oNum = () => O_NUM;
export const oBool = () => O_BOOL;
export const oInt = () => O_INT;

export const okResponse = record({ ok: bool() });
/** IdResponse: its field list is not shown in the spec; `id` is the likely one. */
export const idResponse = record({ id: optional(str()) });
export const anyObject = loose({});

/** One line for a validation problem (zod/mini ships no message locale, so say it ourselves). */
export function issueText(issue: z.core.$ZodIssue): string {
  const i = issue as unknown as { code: string; origin?: string; minimum?: number | bigint; maximum?: number | bigint; inclusive?: boolean; values?: unknown[]; expected?: string; message: string; format?: string };
  const unit = i.origin === 'string' ? ' characters' : i.origin === 'array' ? ' items' : '';
  if (i.code === 'too_small' && i.origin === 'string' && Number(i.minimum) === 1) return 'must not be empty';
  if (i.code === 'too_small' && i.minimum !== undefined) return `must be ${i.inclusive === false ? 'greater than' : 'at least'} ${i.minimum}${unit}`;
  if (i.code === 'too_big' && i.maximum !== undefined) return `must be ${i.inclusive === false ? 'less than' : 'at most'} ${i.maximum}${unit}`;
  if (i.code === 'invalid_value' && i.values) return `must be one of: ${i.values.join(', ')}`;
  if (i.code === 'invalid_type' && i.expected) return `expected ${i.expected === 'int' ? 'an integer' : /^[aeiou]/.test(i.expected) ? `an ${i.expected}` : `a ${i.expected}`}`;
  if (i.code === 'unrecognized_keys') return 'has unknown fields';
  return i.message && i.message !== 'Invalid input' ? i.message : `is invalid (${i.format ?? i.code})`;
}

interface Def { type: string; innerType?: Schema; element?: Schema; shape?: Record<string, Schema>; catchall?: Schema; in?: Schema }
const defOf = (s: Schema) => (s as unknown as { _zod: { def: Def } })._zod.def;

/** A schema without its optional/nullable/default wrappers. */
function unwrap(s: Schema): Schema {
  for (let d = defOf(s); ; d = defOf(s)) {
    if (d.innerType && ['optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly', 'catch'].includes(d.type)) s = d.innerType;
    else if (d.type === 'pipe' && d.in) s = d.in;
    else return s;
  }
}

/**
 * What a response schema says the answer is at its top: a list, an object, or undefined where the
 * row declares no fields (`anyObject`: the spec does not show the shape, so any JSON is taken).
 */
export function topType(response: Schema): 'list' | 'object' | undefined {
  if (response === anyObject) return undefined;
  const d = defOf(unwrap(response));
  return d.type === 'array' ? 'list' : d.type === 'object' ? 'object' : undefined;
}

/** The schema of one row: the items of the list at `rowsPath`, or of the response when it is a list. */
export function rowSchema(response: Schema, rowsPath?: string): Schema {
  let s = unwrap(response);
  for (const key of rowsPath ? rowsPath.split('.') : []) {
    const shape = defOf(s).shape;
    if (!shape?.[key]) return s;
    s = unwrap(shape[key]);
  }
  const d = defOf(s);
  return d.type === 'array' && d.element ? unwrap(d.element) : s;
}

/**
 * Every dot path a record schema declares (objects and their fields; a list is one field), or
 * undefined when it declares none (a shape the spec does not show). An object declared without
 * fields is given as `path.*`: anything below it is allowed.
 */
export function fieldPaths(schema: Schema): string[] | undefined {
  const s = unwrap(schema);
  const shape = defOf(s).shape;
  if (defOf(s).type !== 'object' || !shape || Object.keys(shape).length === 0) return undefined;
  const out: string[] = [];
  const walk = (sh: Record<string, Schema>, prefix: string) => {
    for (const [key, value] of Object.entries(sh)) {
      const path = prefix + key;
      out.push(path);
      const inner = unwrap(value);
      const d = defOf(inner);
      if (d.type === 'object' && d.shape) {
        if (Object.keys(d.shape).length === 0) out.push(`${path}.*`);
        else walk(d.shape, `${path}.`);
      }
    }
  };
  walk(shape, '');
  return out;
}
