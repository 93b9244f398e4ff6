/**
 * The shape of one row of the operation table. Every command, flag, help text, completion, the
 * command reference and the sandbox's routes are derived from these rows.
 */
import type { Schema } from './fields.js';
import type * as z from 'zod/mini';

/** Where a request field or an operation comes from: the API spec, the field notes, or our inference. */
export type Source = 'spec' | 'notes' | 'inferred';

export type GroupName = 'orgs' | 'repos' | 'installations' | 'stats' | 'issues' | 'scans';

export interface Example {
  /** The command line, starting with `svc`. */
  cmd: string;
  /** What it does, one line. */
  desc: string;
}

/** How `--all` walks the pages of a listing. */
export interface Pagination {
  page: string;
  pageSize: string;
  /** Field of the response holding the page's items. */
  items: string;
  /** Field of the response holding the total number of items. */
  total: string;
  /** Page size `--all` asks for when the user gives none. */
  maxPageSize: number;
}

export interface Operation {
  group: GroupName;
  /** The API's own name of the operation, as in the path (`issuesBySeverity`, `set-pr-scanning`). */
  name: string;
  /** Full API path, `/api/v1/<group>/<name>`. */
  path: string;
  summary: string;
  /** Longer help text (optional). */
  description?: string;
  /** `spec` for operations of the API spec; `notes` for ones only seen in public clients. */
  source: Source;
  /** Request body schema. Unknown keys pass through (the `-F` escape hatch). */
  request: z.ZodMiniObject<z.core.$ZodLooseShape, z.core.$loose>;
  /** Response schema: lenient, unknown fields are kept. */
  response: Schema;
  /** Read-only, so safe to retry after the request may have reached the server. */
  safe: boolean;
  /** Asks for confirmation on a terminal and needs `--yes` elsewhere. */
  destructive?: boolean;
  /** Request field that may be given as the command's positional argument. */
  positional?: string;
  /** Fields the CLI insists on although the spec marks none required. */
  required?: string[];
  /** Where the rows of a table live in the response (`issues`); default: the response itself. */
  rows?: string;
  /** Default table columns (dot paths into a row). */
  columns: string[];
  pagination?: Pagination;
  examples: Example[];
}

export interface Group {
  name: GroupName;
  /** Path segment of the API group (`repositories` for `repos`). */
  api: string;
  aliases: string[];
  summary: string;
}
