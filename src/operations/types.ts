/**
 * The shape of one row of the operation table. Every command, flag, help text, completion, the
 * command reference and the sandbox's routes are derived from these rows.
 */
import type { Schema, Source } from './fields.js';
import type * as z from './zod.js';
import type { DetailView } from './detail-view.js';

export type { Source } from './fields.js';

export type GroupName = 'orgs' | 'repos' | 'installations' | 'stats' | 'issues' | 'scans';

interface Example {
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
  /** Field that identifies an item: an id seen twice across pages means the order shifted and `--all` fails. */
  id?: string;
  /**
   * Other fields an item without `id` may name itself by (inference, answers/checks.ts `item-id-field`:
   * `issueId`, the name the field notes give an issue in request bodies; `id` for a scan without `scanId`).
   */
  idAliases?: string[];
  /**
   * Body fields of the order `--all` asks for when the user names none: one in which items do not move
   * between pages while they are read (oldest first: new items land on the last page).
   */
  stableOrder?: Record<string, unknown>;
  /**
   * Counts of the whole listing that each page repeats beside `total` (numbers, or objects of them):
   * every page of one listing must give page 1's, else it changed while it was read (`--all` and the
   * gate fail, exit 7).
   */
  counts?: string[];
  /** Other fields of a page beside `items` and `total` (counts, its number): under `--all --jq` they are no item's. */
  pageFields?: string[];
}

/** A flag of the command that is not a request field (e.g. `--wait`). */
interface ExtraOption {
  /** Commander flags, e.g. `--poll-interval <seconds>`. */
  flags: string;
  description: string;
}

/**
 * What a command does after its call when one of its own flags asks for it (`scans start --wait`).
 * The row stays declarative: it lists the flags and names the step; the step's code lives with the
 * commands (src/commands/operation/run.ts) and is loaded only when one of the flags is given.
 */
export interface FollowUp {
  step: 'scan-wait';
  options: ExtraOption[];
}

/**
 * Filters the request cannot express (the spec's search has no score or date filter), applied by
 * svc to each item of each page, single page or `--all` (src/listing/local-filter.ts). A filtered page
 * may hold fewer items than its page size, and the service's totals count unfiltered items.
 */
export interface LocalFilters {
  filters: Array<{
    /** Commander flags, e.g. `--min-score <n>`. */
    flags: string;
    description: string;
    /**
     * `min-score`: the field is at least the number (0-100); `level`: the level of the field's score,
     * by the gate's cut-offs, is the one given or above; `after`: the field's time is later than a
     * date, date-time or duration back from now (the gate's --new-since values).
     */
    test: 'min-score' | 'level' | 'after';
    /** The item's field it reads. */
    path: string;
  }>;
  /** Why the request cannot carry them (said in the help). */
  why: string;
  /** Fields of the answer that count unfiltered items: left out of a filtered page. */
  unfilteredCounts: string[];
}

/**
 * A field the API requires that svc works out when the user leaves it out (`repos resolve-by-url`
 * without --vcs): the request always carries it. The row stays declarative: it names the field, the
 * step and says how (shown in the help and the reference); the step's code lives with the commands
 * (src/commands/operation/run.ts) and is loaded only when the field is missing.
 */
export interface Inferred {
  field: string;
  step: 'repository-vcs';
  /** How the value is chosen, in words: the help's "Required by svc" line and the reference. */
  how: string;
}

/**
 * A row whose positional id may be many ids (`svc issues archive id1 id2`, `--ids-from`, `--where`):
 * one call per id, run by the bulk engine (src/listing/bulk.ts).
 */
interface Bulk {
  /** What the summary says of the ids that worked: `48 archived`. */
  done: string;
  /**
   * How a run of it is undone, said in its help: `by` the action (a bulk row of the same group) that
   * undoes it when given this run's `-o json|ndjson` record as `--ids-from` (only the ids it did are
   * taken), with what of that the spec does not state (`inferred`); or `none`, why nothing can.
   */
  undo: { by: string; inferred?: string } | { none: string };
  /** The action whose runs this one undoes (its `undo.by` names this row; the table test checks both sides). */
  undoes?: string;
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
  /** Fields the CLI insists on although the spec marks none required (the sandbox checks them too). */
  required?: string[];
  /** A required field svc works out when it is not given (see Inferred). */
  infer?: Inferred;
  /** Where the rows of a table live in the response (`issues`); default: the response itself. */
  rows?: string;
  /** Default table columns (dot paths into a row). */
  columns: string[];
  /**
   * Fields a row without its id (`id`, or the listing's `pagination.id`: `scanId`) names itself by
   * (inference, answers/checks.ts `org-id-field`, `item-id-field`): a table and CSV show it in that
   * id's column, with a warning; JSON shows the row as it came.
   */
  idAliases?: string[];
  /**
   * A column a row may leave empty that another field fills for people (a PR scan's branch: its
   * `prTargetBranch`, field notes): a table and CSV show `from`'s value there followed by `mark`,
   * which says which it is; JSON shows the row as it came.
   */
  cellFallbacks?: Array<{ path: string; from: string; mark: string }>;
  /**
   * Default CSV columns where a spreadsheet wants more than a screen holds (the CWE, the dates);
   * default: `columns`.
   */
  csvColumns?: string[];
  /** How one record is shown to a person (a response record, or a list of one row). */
  detail?: DetailView;
  pagination?: Pagination;
  /** The positional id may be many ids, one call each (see Bulk). */
  bulk?: Bulk;
  /** Flags of filters svc applies to the items itself (see LocalFilters). */
  localFilters?: LocalFilters;
  /**
   * `--limit <n>` on a list whose request has no limit or page field (`stats top-issues`): svc keeps
   * the first n rows of the answer, highest `orderBy` first (the service's own length is its choice).
   */
  localLimit?: { orderBy: string };
  /** Flags and a step that run after the call (e.g. wait for the started scan). */
  followUp?: FollowUp;
  /** On a terminal, a table of it starts with the organization it is of, and where that came from. */
  showsOrganization?: boolean;
  /** Lines for people after a success, shown on stderr with a table (e.g. a schedule's next runs). */
  explain?(body: Record<string, unknown>): Promise<string[]>;
  examples: Example[];
}

export interface Group {
  name: GroupName;
  /** Path segment of the API group (`repositories` for `repos`). */
  api: string;
  aliases: string[];
  summary: string;
}
