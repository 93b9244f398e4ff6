/**
 * Host B's report formats, transcribed as JSON schemas (draft-07) for the tests:
 * - its security report schema for SAST, version 15.x (the parts a SAST report uses; the published
 *   file has the same required fields, enums and patterns for these);
 * - its Code Quality report (an array of issues in the format its documentation describes, a subset
 *   of the open code-climate issue format).
 */
import { Ajv } from 'ajv';
import type { ErrorObject } from 'ajv';

const vendorized = {
  type: 'object',
  required: ['id', 'name', 'version', 'vendor'],
  properties: {
    id: { type: 'string', minLength: 1 },
    name: { type: 'string', minLength: 1 },
    url: { type: 'string', pattern: '^https?://.+' },
    version: { type: 'string', minLength: 1 },
    vendor: { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } },
  },
} as const;

const identifier = {
  type: 'object',
  required: ['type', 'name', 'value'],
  properties: {
    type: { type: 'string', minLength: 1 },
    name: { type: 'string', minLength: 1 },
    url: { type: 'string', pattern: '^(https?|ftp)://.+' },
    value: { type: 'string', minLength: 1 },
  },
} as const;

const TIME = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}$';

export const SAST_SCHEMA_15 = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Report format for host B SAST (security report schema 15.x)',
  type: 'object',
  required: ['scan', 'version', 'vulnerabilities'],
  properties: {
    scan: {
      type: 'object',
      required: ['analyzer', 'end_time', 'scanner', 'start_time', 'status', 'type'],
      properties: {
        end_time: { type: 'string', pattern: TIME },
        start_time: { type: 'string', pattern: TIME },
        messages: {
          type: 'array',
          items: { type: 'object', required: ['level', 'value'], properties: { level: { enum: ['info', 'warning', 'fatal'] }, value: { type: 'string' } } },
        },
        analyzer: vendorized,
        scanner: vendorized,
        status: { type: 'string', enum: ['success', 'failure'] },
        type: { type: 'string', enum: ['sast'] },
        primary_identifiers: { type: 'array', items: identifier },
      },
    },
    schema: { type: 'string', pattern: '^https?://.+\\.json$' },
    version: { type: 'string', pattern: '^15\\.[0-9]+\\.[0-9]+$' },
    vulnerabilities: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'identifiers', 'location'],
        properties: {
          id: { type: 'string', minLength: 1 },
          name: { type: 'string', maxLength: 255 },
          description: { type: 'string', maxLength: 1048576 },
          severity: { type: 'string', enum: ['Info', 'Unknown', 'Low', 'Medium', 'High', 'Critical'] },
          solution: { type: 'string', maxLength: 7000 },
          identifiers: { type: 'array', minItems: 1, items: identifier },
          links: {
            type: 'array',
            items: { type: 'object', required: ['url'], properties: { name: { type: 'string' }, url: { type: 'string', pattern: '^(https?|ftp)://.+' } } },
          },
          location: {
            type: 'object',
            properties: {
              file: { type: 'string', minLength: 1 },
              start_line: { type: 'integer' },
              end_line: { type: 'integer' },
              class: { type: 'string' },
              method: { type: 'string' },
            },
          },
        },
      },
    },
    remediations: { type: 'array' },
  },
} as const;

export const CODE_QUALITY_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  title: 'Host B Code Quality report',
  type: 'array',
  items: {
    type: 'object',
    required: ['description', 'check_name', 'fingerprint', 'severity', 'location'],
    properties: {
      description: { type: 'string', minLength: 1 },
      check_name: { type: 'string', minLength: 1 },
      fingerprint: { type: 'string', minLength: 1 },
      severity: { type: 'string', enum: ['info', 'minor', 'major', 'critical', 'blocker'] },
      location: {
        type: 'object',
        required: ['path'],
        properties: {
          path: { type: 'string', minLength: 1 },
          lines: { type: 'object', required: ['begin'], properties: { begin: { type: 'integer', minimum: 1 }, end: { type: 'integer', minimum: 1 } } },
          positions: { type: 'object', required: ['begin'], properties: { begin: { type: 'object', required: ['line'], properties: { line: { type: 'integer', minimum: 1 } } } } },
        },
        anyOf: [{ required: ['lines'] }, { required: ['positions'] }],
      },
    },
  },
} as const;

const ajv = new Ajv({ allErrors: true, strict: false });
const sast = ajv.compile(SAST_SCHEMA_15);
const quality = ajv.compile(CODE_QUALITY_SCHEMA);

function problems(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

export function sastErrors(report: unknown): string[] {
  return sast(report) ? [] : problems(sast.errors);
}

/** The schema, plus what host B requires beyond it: fingerprints unique within a report. */
export function codeQualityErrors(report: unknown): string[] {
  if (!quality(report)) return problems(quality.errors);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const [i, entry] of (report as Array<{ fingerprint: string }>).entries()) {
    if (seen.has(entry.fingerprint)) out.push(`/${i}/fingerprint is not unique`);
    seen.add(entry.fingerprint);
  }
  return out;
}
