/**
 * Request schema -> flag specs. Field `fooBar` becomes `--foo-bar <value>`, booleans get
 * `--foo-bar`/`--no-foo-bar`, arrays repeat or take a comma list, object fields nest
 * (`severities.min` -> `--severities-min`), arrays of objects take JSON or @file.
 */
import type { z } from 'zod';
import { fieldMeta } from '../operations/fields.js';
import type { Source } from '../operations/types.js';
import { kebab } from '../operations/index.js';

export type FlagKind = 'string' | 'number' | 'integer' | 'boolean' | 'enum' | 'array' | 'json';
export type ItemKind = 'string' | 'number' | 'integer' | 'enum';

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
  description: string;
  source: Source;
  placeholder: string;
}

interface Unwrapped { schema: z.ZodType; defaultValue?: unknown; nullable: boolean }

type Def = { type: string; innerType?: z.ZodType; defaultValue?: unknown; element?: z.ZodType; shape?: Record<string, z.ZodType> };
const defOf = (s: z.ZodType) => (s as unknown as { def: Def }).def;

function unwrap(schema: z.ZodType): Unwrapped {
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

function scalarKind(s: z.ZodType): { kind: ItemKind; choices?: string[]; min?: number; max?: number } | undefined {
  const d = defOf(s);
  if (d.type === 'string') return { kind: 'string' };
  if (d.type === 'enum') return { kind: 'enum', choices: (s as unknown as { options: string[] }).options.map(String) };
  if (d.type === 'number') {
    const n = s as unknown as { minValue: number | null; maxValue: number | null; isInt: boolean };
    const real = (v: number | null) => (v !== null && Number.isFinite(v) && Math.abs(v) < Number.MAX_SAFE_INTEGER ? v : undefined);
    return { kind: n.isInt ? 'integer' : 'number', min: real(n.minValue), max: real(n.maxValue) };
  }
  return undefined;
}

/** Flag specs of an object schema's fields, nested objects flattened. */
export function flagSpecs(shape: Record<string, z.ZodType>, prefix: string[] = []): FlagSpec[] {
  const out: FlagSpec[] = [];
  for (const [key, fieldSchema] of Object.entries(shape)) {
    const meta = fieldMeta(fieldSchema);
    const { schema, defaultValue, nullable } = unwrap(fieldSchema);
    const path = [...prefix, key];
    const base = {
      path,
      flag: path.map(kebab).join('-'),
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
      out.push({ ...base, kind: scalar.kind, choices: scalar.choices, min: scalar.min, max: scalar.max, placeholder: meta.placeholder ?? placeholderOf(scalar.kind, scalar.choices) });
    } else if (d.type === 'array') {
      const item = scalarKind(unwrap(d.element!).schema);
      if (item) out.push({ ...base, kind: 'array', itemKind: item.kind, choices: item.choices, min: item.min, max: item.max, placeholder: meta.placeholder ?? 'list' });
      else out.push({ ...base, kind: 'json', placeholder: meta.placeholder ?? 'json|@file' });
    } else if (d.type === 'object') {
      out.push(...flagSpecs((schema as unknown as { shape: Record<string, z.ZodType> }).shape, path).map((f) => ({ ...f, source: fieldMeta(fieldSchema).source ?? f.source })));
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
