/**
 * Small helpers to write request schemas tersely while keeping help metadata (description and where
 * the field comes from) attached to each field through zod's metadata registry.
 */
import { z } from 'zod';
import type { Source } from './types.js';

export interface FieldMeta {
  description?: string;
  source?: Source;
  /** Placeholder shown in help (`<id>`), default derived from the type. */
  placeholder?: string;
}

/** Attach help metadata to a field schema. */
export function field<T extends z.ZodType>(schema: T, description: string, source: Source = 'spec', placeholder?: string): T {
  return schema.meta({ description, source, ...(placeholder ? { placeholder } : {}) }) as T;
}

export function fieldMeta(schema: z.ZodType): FieldMeta {
  return (z.globalRegistry.get(schema) as FieldMeta | undefined) ?? {};
}

/** Date in the `format: date` of the spec (YYYY-MM-DD). */
export const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD');

export const orgId = (source: Source = 'spec') =>
  field(z.string().min(1).optional(), 'Organization id (default: --org, SVC_ORGANIZATION_ID, then the profile)', source, 'id');
export const repoId = (source: Source = 'spec', description = 'Repository id') =>
  field(z.string().min(1).optional(), description, source, 'id');
export const issueId = (source: Source = 'notes') => field(z.string().min(1).optional(), 'Issue id', source, 'id');

export const LEVELS = ['critical', 'high', 'medium', 'low', 'info'] as const;

/** Request body: declared fields are checked, any other field passes through untouched. */
export const body = <S extends z.ZodRawShape>(shape: S) => z.looseObject(shape);

/** Lenient response record: listed fields are typed, unknown fields kept. */
export const record = <S extends z.ZodRawShape>(shape: S) => z.looseObject(shape);

export const okResponse = record({ ok: z.boolean() });
/** IdResponse: its field list is not shown in the spec; `id` is the likely one. */
export const idResponse = record({ id: z.string().optional() });
export const anyObject = z.looseObject({});
