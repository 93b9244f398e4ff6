/**
 * Request schema -> flag specs. Field `fooBar` becomes `--foo-bar <value>`, booleans get
 * `--foo-bar`/`--no-foo-bar`, arrays repeat or take a comma list, object fields nest
 * (`severities.min` -> `--severities-min`), arrays of objects take JSON or @file.
 */
import { fieldMeta, type Schema } from '../operations/fields.js';
import type { Source } from '../operations/types.js';
import { kebab } from '../operations/index.js';

type FlagKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'array' | 'json';
type ItemKind = 'string' | 'number' | 'integer' | 'enum';

export interface FlagSpec {
  /** Path of the field in the request body. */
  path: string[];
  /** Flag name without dashes. */
  flag: string;
  kind: FlagKind;
  itemKind?: ItemKind;
  choices?: string[];
  min?: number;
  max?: number;
  defaultValue?: unknown;
  nullable: boolean;
  /**
   * For strings (and lists of strings): free text (a search query, a template), which may hold
   * tabs and line breaks; otherwise an id-like value (no minimum length means free text), which
   * may hold no control character at all.
   */
  text?: boolean;
  description: string;
  source: Source;
  placeholder: string;
  /** Also `--<flag>-from FILE|-` (the text read from a file or stdin). */
  fromFile?: boolean;
}

/** The commander attribute of a spec's `--<flag>-from` option (`--reason-from` -> `reasonFrom`). */
export function fromFileAttribute(spec: FlagSpec): string {
  return `${spec.flag}-from`.replace(/-([a-z])/g, (_m, c: string) => c.toUpperCase());
}

interface Unwrapped { schema: Schema; defaultValue?: unknown; nullable: boolean }

interface Check { _zod: { def: { check: string; value?: number; inclusive?: boolean; format?: string } } }
interface Def {
  type: string;
  innerType?: Schema;
  defaultValue?: unknown;
  element?: Schema;
  shape?: Record<string, Schema>;
  entries?: Record<string, string>;
  format?: string;
  checks?: Check[];
}
const defOf = (s: Schema) => (s as unknown as { _zod: { def: Def } })._zod.def;

function unwrap(schema: Schema): Unwrapped {
  let s = schema;
  let defaultValue: unknown;
  let nullable = false;
  for (;;) {
    const d = defOf(s);
    if (d.type === 'optional' || d.type === 'nullable' || d.type === 'default' || d.type === 'prefault') {
      if (d.type === 'nullable') nullable = true;
      if (d.type === 'default') defaultValue = d.defaultValue;
      s = d.innerType!;
    } else return { schema: s, defaultValue, nullable };
  }
}

const INTEGER_FORMATS = new Set(['safeint', 'int32', 'uint32', 'int64', 'uint64']);

function scalarKind(s: Schema): { kind: ItemKind; choices?: string[]; min?: number; max?: number; text?: boolean } | undefined {
  const d = defOf(s);
  // An id-like string is declared non-empty (fields.ts `id()`); any other string is free text.
  if (d.type === 'string') return { kind: 'string', text: !d.checks?.some((c) => c._zod.def.check === 'min_length') };
  if (d.type === 'enum') return { kind: 'enum', choices: Object.values(d.entries ?? {}).map(String) };
  if (d.type === 'number') {
    const bound = (check: string) => d.checks?.find((c) => c._zod.def.check === check)?._zod.def.value;
    const integer = INTEGER_FORMATS.has(d.format ?? '') || !!d.checks?.some((c) => c._zod.def.check === 'number_format' && INTEGER_FORMATS.has(c._zod.def.format ?? ''));
    return { kind: integer ? 'integer' : 'number', min: bound('greater_than'), max: bound('less_than') };
  }
  return undefined;
}

/** The flags of one operation command: its field specs and the commander attribute of each. */
export interface OperationFlags {
  specs: FlagSpec[];
  /** Commander attribute name of each spec's option. */
  attribute: Map<FlagSpec, string>;
  /** Commander attribute names of the row's follow-up flags (`--wait`, ...). */
  followUp?: string[];
}

/** What commander parsed for an operation command. */
export interface OperationOptions {
  field?: string[];
  rawField?: string[];
  input?: string;
  all?: boolean;
  concurrency?: string;
  yes?: boolean;
  [flag: string]: unknown;
}

/** Flag specs of an object schema's fields, nested objects flattened. */
export function flagSpecs(shape: Readonly<Record<string, Schema>>, prefix: string[] = []): FlagSpec[] {
  const out: FlagSpec[] = [];
  for (const [key, fieldSchema] of Object.entries(shape)) {
    const meta = fieldMeta(fieldSchema);
    const { schema, defaultValue, nullable } = unwrap(fieldSchema);
    const path = [...prefix, key];
    const base = {
      path,
      flag: meta.flag ?? path.map(kebab).join('-'),
      ...(meta.fromFile ? { fromFile: true } : {}),
      nullable,
      defaultValue,
      description: meta.description ?? '',
      source: meta.source ?? 'spec',
    };
    const d = defOf(schema);
    const scalar = scalarKind(schema);
    if (d.type === 'boolean') {
      out.push({ ...base, kind: 'boolean', placeholder: '' });
    } else if (scalar) {
      out.push({ ...base, kind: scalar.kind, choices: scalar.choices, min: scalar.min, max: scalar.max, text: scalar.text, placeholder: meta.placeholder ?? placeholderOf(scalar.kind, scalar.choices) });
    } else if (d.type === 'array') {
      const item = scalarKind(unwrap(d.element!).schema);
      if (item) out.push({ ...base, kind: 'array', itemKind: item.kind, choices: item.choices, min: item.min, max: item.max, text: item.text, placeholder: meta.placeholder ?? 'list' });
      else out.push({ ...base, kind: 'json', placeholder: meta.placeholder ?? 'json|@file' });
    } else if (d.type === 'object') {
      out.push(...flagSpecs(d.shape ?? {}, path).map((f) => ({ ...f, source: fieldMeta(fieldSchema).source ?? f.source })));
    } else {
      out.push({ ...base, kind: 'json', placeholder: meta.placeholder ?? 'json|@file' });
    }
  }
  return out;
}

function placeholderOf(kind: ItemKind, choices?: string[]): string {
  if (kind === 'enum') return choices && choices.join('|').length <= 24 ? choices.join('|') : 'value';
  if (kind === 'integer' || kind === 'number') return 'n';
  return 'value';
}

/** `issueId` -> `ISSUE_ID`, the positional argument's name in usage lines. */
export function argName(field: string): string {
  return kebab(field).replace(/-/g, '_').toUpperCase();
}

/** One-line type description for help: `integer >= 1`, `one of: asc, desc`, `list of strings`. */
export function typeText(f: FlagSpec): string {
  const range = [f.min !== undefined ? `>= ${f.min}` : '', f.max !== undefined ? `<= ${f.max}` : ''].filter(Boolean).join(', ');
  switch (f.kind) {
    case 'boolean': return 'boolean';
    case 'enum': return `one of: ${f.choices!.join(', ')}`;
    case 'array':
      return f.itemKind === 'enum' ? `list of: ${f.choices!.join(', ')}` : `list of ${f.itemKind}s${range ? ` (${range})` : ''} (repeat or comma-separate)`;
    case 'json': return 'JSON or @file';
    default: return `${f.kind}${range ? ` ${range}` : ''}`;
  }
}
