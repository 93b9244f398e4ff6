/** Shared tail of every API command: check the response shape leniently and render it. */
import { layoutWidth } from '../core/host.js';
import type { IoContext } from './io-context.js';
import type { Operation } from '../operations/types.js';
import { render, rowsOf, type RenderOptions } from './render.js';
import { checkJq, type JqMode } from './jq.js';
import { outputSink } from './print-json.js';
import { parseColumns, resolveColumns } from './columns.js';
import { getPath, leafPaths } from './field-paths.js';
import { itemsOf } from '../answers/item-scope.js';
import { fieldPaths, rowSchema } from '../operations/fields.js';
import { anyObject, issueText, okResponse } from '../operations/fields.js';
import { BadRequestError } from '../http/api-errors.js';
import { answerValue, stripControls } from '../core/sanitize.js';
import { withServiceText } from './exact-json.js';

type ColumnsOf = Pick<Operation, 'columns' | 'response' | 'rows' | 'group' | 'name'> & Partial<Pick<Operation, 'csvColumns'>>;

/**
 * The columns to show: --columns (the one parser; field paths or table headers in any case, as the
 * paths they mean), else the row's defaults (its CSV ones for -o csv). `data`: the answer, for a
 * shape the spec does not show, whose fields are known only once it arrived.
 */
export function columnsFor(ctx: IoContext, op: ColumnsOf, data?: unknown): string[] {
  const chosen = ctx.globals.columns;
  if (chosen === undefined) return op.csvColumns && ctx.format() === 'csv' ? op.csvColumns : op.columns;
  const what = columnsWhat(op);
  const declared = fieldPaths(rowSchema(op.response, op.rows));
  // Any field the answer has, declared or not (records are loose: the service may send more).
  // Before the answer (--all's writer is made before page 1), a name not declared waits for it.
  const seen = data === undefined ? undefined : seenPaths(data, op.rows, shapeNotShown(op));
  const valid = declared || seen ? [...new Set([...(declared ?? []), ...(seen ?? [])])] : undefined;
  return resolveColumns(parseColumns(chosen), valid, what, op.columns, data === undefined || (seen === undefined && declared !== undefined));
}

/**
 * Output settings checked before anything is sent: the format, --columns against the fields the
 * row's schema declares, and the --jq expression compiled (both exit 2 when wrong).
 */
export async function checkOutput(ctx: IoContext, op?: Pick<Operation, 'response' | 'rows' | 'group' | 'name'> & Partial<Pick<Operation, 'columns' | 'pagination' | 'safe'>>, all = false): Promise<void> {
  ctx.format();
  if (ctx.globals.columns !== undefined) {
    const columns = parseColumns(ctx.globals.columns);
    // A read takes any field of its answer, checked when it comes (exit 2 then, nothing changed);
    // a change's answer is not known before it is made, so its names are checked against the schema now.
    if (op) resolveColumns(columns, fieldPaths(rowSchema(op.response, op.rows)), columnsWhat(op), op.columns ?? [], op.safe === true);
  }
  if (ctx.globals.jq !== undefined) await checkJq(ctx.globals.jq, all && op?.pagination ? jqPerItem(op.pagination) : jqPage(op));
}

/** Without --all: an example of the command's own answer for --jq's errors, where its shape says one. */
function jqPage(op?: Partial<Pick<Operation, 'rows' | 'pagination'>>): JqMode {
  if (op?.pagination) return { example: `.${op.pagination.items}[].${op.pagination.id}` };
  return op?.rows ? { example: `.${op.rows}[]` } : {};
}

/** With --all, --jq runs on each item of the pages' list. */
export function jqPerItem(p: NonNullable<Operation['pagination']>): JqMode {
  return { perItem: { items: p.items, example: `.${p.id}`, pageFields: [p.total, ...(p.pageFields ?? [])] } };
}

/** How a command's data is rendered: format, columns, detail view, --jq. */
function renderOptions(ctx: IoContext, op: Pick<Operation, 'rows' | 'columns'> & Partial<Operation>, data: unknown, request?: Record<string, unknown>, what?: string): RenderOptions {
  return {
    format: ctx.format(),
    columns: op.response && op.group ? columnsFor(ctx, op as Operation, data)
      // No row (svc api): the names are checked against what the answer has, not taken blindly.
      : ctx.globals.columns !== undefined ? resolveColumns(parseColumns(ctx.globals.columns), seenPaths(data, undefined, true), what ?? 'this answer') : op.columns,
    project: ctx.globals.columns !== undefined,
    names: ctx.globals.columns !== undefined ? parseColumns(ctx.globals.columns) : undefined,
    rowsPath: op.rows,
    findRows: shapeNotShown(op),
    pretty: ctx.io.stdoutIsTTY,
    color: ctx.color,
    width: layoutWidth(ctx),
    jq: ctx.globals.jq,
    detail: op.detail,
    request,
  };
}

/**
 * A 2xx whose body does not have the shape the spec (or the field notes) defines: a top-level value
 * of another type (a list where an object is documented, null) is no answer to show (`top-level`,
 * refused: exit 7); a field of it missing or of another type is shown as it came with a warning
 * (`shape`; answers/checks.ts), but for a change whose OkResponse has no readable `ok`
 * (`ok-unreadable`: whether it was done is unknown). Where the spec shows no fields (`anyObject`),
 * any JSON is taken, with a warning when it is not even an object.
 */
export function checkShape(ctx: Pick<IoContext, 'warn' | 'doubts'>, op: Operation, data: unknown): void {
  const what = `${op.group} ${op.name}`;
  const result = op.response.safeParse(data);
  if (result.success) {
    checkDone(data, what);
    return;
  }
  const got = data === null ? 'null (or an empty body)' : Array.isArray(data) ? 'a list' : typeof data;
  if (op.response === anyObject) {
    ctx.warn(`the response of ${op.group} ${op.name} is ${got}, not an object; showing it as received`);
    return;
  }
  const issues = result.error.issues;
  const top = issues.find((i) => i.path.length === 0);
  if (top) {
    // A change's answer that cannot be read says nothing of whether the change was made.
    ctx.doubts.add('top-level', what, `the response does not have the documented shape: the body ${issueText(top)} (got ${got})`, `${op.safe ? '' : 'the change may or may not have been made: check before repeating it; '}check the base URL and the service version; --verbose shows the answer as received`);
  }
  if (op.response === okResponse) {
    const ok = (data as { ok?: unknown }).ok;
    ctx.doubts.add('ok-unreadable', what, `the answer's ok is ${ok === undefined ? 'missing' : answerValue(ok)}, so whether it was done is unknown`, 'check the current state before trying again; --verbose shows the answer as received');
  }
  const items = op.pagination?.items;
  // A listing without its list has nothing to show (refused: "No results." would mislead); its one
  // list under another key is read as the items, said once (answers/item-scope.ts itemsOf).
  if (items !== undefined && !Array.isArray(getPath(data, items))) itemsOf(data, items, what, ctx.doubts.report);
  let said = 0;
  for (const issue of issues) {
    if (items !== undefined && issue.path[0] === items && !Array.isArray(getPath(data, items))) continue;
    // An item named by an alias of its id is its own row's doubt (item-id-field), said once there.
    if (items !== undefined && issue.path.length === 3 && issue.path[0] === items && issue.path[2] === op.pagination?.id && aliasNamed(getPath(data, items), issue.path[1], op.pagination?.idAliases)) continue;
    if (op.rows === undefined && issue.path.length === 2 && issue.path[1] === 'id' && aliasNamed(data, issue.path[0], op.idAliases)) continue;
    if (said++ >= 20) break;
    // A number beyond ±1.8e308 (1e400) reads as ±Infinity, which no number field takes: said as the gate says it (answerValue).
    const value = issue.path.reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k as PropertyKey] : undefined), data);
    const huge = typeof value === 'number' && !Number.isFinite(value) ? `, got ${answerValue(value)}` : '';
    ctx.doubts.add('shape', what, `${issue.path.join('.')} ${issueText(issue)}${huge}`);
  }
  checkDone(data, what);
}

/** Whether item `index` of `list` names itself by one of `aliases` (pagination.idAliases). */
function aliasNamed(list: unknown, index: PropertyKey, aliases: readonly string[] | undefined): boolean {
  const item = Array.isArray(list) && typeof index === 'number' ? list[index] : undefined;
  if (!aliases || item === null || typeof item !== 'object') return false;
  return aliases.some((a) => { const v = (item as Record<string, unknown>)[a]; return (typeof v === 'string' && v.trim() !== '') || typeof v === 'number'; });
}

/**
 * An answer saying `ok: false` (OkResponse, spec "Conventions": `ok` is true on success) is the
 * service saying it did not do what was asked: never a success. Exit 5 (the service refused it, its
 * state is known), not 7 (an answer that cannot be trusted): see README "Exit codes". Any answer
 * object with `ok` exactly false, so that `svc api` and the rows whose answer the spec does not show
 * say it too; `ok` missing or not a boolean where the row's schema wants one is checkShape's exit 7.
 */
export function checkDone(data: unknown, what: string): void {
  if (data === null || typeof data !== 'object' || Array.isArray(data) || (data as { ok?: unknown }).ok !== false) return;
  const said = (data as { message?: unknown }).message;
  const words = typeof said === 'string' ? stripControls(said).replace(/\s+/g, ' ').trim().slice(0, 200) : '';
  throw new BadRequestError(
    `${what}: the service answered "ok": false, so it did not do this${words ? ` (${JSON.stringify(words)})` : ''}`,
    200,
    'nothing says it was done: check the current state before trying again; --verbose shows the answer as received',
  );
}

/** `what`: how an error names the command when there is no row (`svc api issues/search`). */
/**
 * `svc api` (no row) is raw: its answer is shown as it came; only what cannot be read is refused (a
 * status other than 200, not JSON, nested too deeply, a key with two values) and `ok: false` is exit 5.
 */
export async function renderResponse(ctx: IoContext, op: Pick<Operation, 'rows' | 'columns'> & Partial<Operation>, data: unknown, request?: Record<string, unknown>, what?: string): Promise<void> {
  if (op.response && op.group) checkShape(ctx, op as Operation, data);
  else checkDone(data, what ?? 'the call');
  let rows = rowsKey(op, data);
  // A shape the spec does not show whose rows are not where the row guessed them (`branches` for
  // repos branches, answered `{ items: [...] }` or a bare list): the answer's own list, found as for
  // any such shape (render.ts rowsOf), not a record of the row's empty default columns.
  if (rows !== undefined && shapeNotShown(op) && !Array.isArray(getPath(data, rows))) rows = undefined;
  const shown = (op.idAliases || op.cellFallbacks) && (ctx.format() === 'table' || ctx.format() === 'csv') ? shownRows(data, rows, op) : data;
  await render(shown, renderOptions(ctx, { ...op, rows }, shown, request, what), outputSink(ctx));
}

/**
 * For a table or CSV: each row without its id field (`id`; `scanId` for scans list, its
 * pagination.id) that names itself by an alias (`organizationId`, `id` for a scan: the row's idAliases,
 * said by its check) shows it in that ID column, and an empty cell of a cellFallbacks column shows the
 * field that stands in for it, marked; rows with an id, and JSON, as they came.
 */
function shownRows(data: unknown, rowsPath: string | undefined, op: PeopleRows): unknown {
  const list = rowsOf(data, rowsPath);
  const rows = list && rowsForPeople(list, op);
  if (!rows || rows === list) return data;
  if (Array.isArray(data)) return rows;
  return rowsPath && !rowsPath.includes('.') ? { ...(data as Record<string, unknown>), [rowsPath]: rows } : data;
}

type PeopleRows = Partial<Pick<Operation, 'idAliases' | 'cellFallbacks' | 'pagination'>>;

/** The rows of `list` as a table or CSV shows them (shownRows); `list` itself when none changes. */
export function rowsForPeople(list: unknown[], op: PeopleRows): unknown[] {
  const idField = op.pagination?.id ?? 'id';
  const aliases = op.idAliases ?? [];
  const fallbacks = op.cellFallbacks ?? [];
  const fills = (r: unknown, i: number): Record<string, unknown> | undefined => {
    if (r === null || typeof r !== 'object' || Array.isArray(r)) return undefined;
    const rec = r as Record<string, unknown>;
    const add: Record<string, unknown> = {};
    if (aliases.length && !usable(rec[idField]) && aliasNamed(list, i, aliases)) add[idField] = rec[aliases.find((a) => usable(rec[a]))!];
    for (const f of fallbacks) if (!present(rec[f.path]) && usable(rec[f.from])) add[f.path] = `${String(rec[f.from])}${f.mark}`;
    return Object.keys(add).length ? add : undefined;
  };
  if (!list.some((r, i) => fills(r, i))) return list;
  return list.map((r, i) => {
    const add = fills(r, i);
    // Copied: a number a double does not hold is kept as the service's text first (exact-json.ts
    // finds it by the object it came in).
    return add ? { ...(withServiceText(r) as Record<string, unknown>), ...add } : r;
  });
}

const present = (v: unknown) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '');
const usable = (v: unknown) => (typeof v === 'string' && v.trim() !== '') || typeof v === 'number';

/**
 * Where a listing's rows are: its row's key, or (items-key, said by checkShape) the answer's one list
 * under another key (`scans` for `codeScans`), which --all and the gate read as the items too: the
 * table and CSV show them, not the answer as one record.
 */
function rowsKey(op: Pick<Operation, 'rows'> & Partial<Operation>, data: unknown): string | undefined {
  const items = op.pagination?.items;
  if (op.rows === undefined || op.rows !== items || items.includes('.') || Array.isArray(getPath(data, items))) return op.rows;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return op.rows;
  const lists = Object.entries(data).filter(([, v]) => Array.isArray(v));
  return getPath(data, items) === undefined && lists.length === 1 ? lists[0][0] : op.rows;
}

/** No record declared for the answer (`anyObject`: the spec does not show it; no row: `svc api`). */
const shapeNotShown = (op: Partial<Pick<Operation, 'response'>>): boolean => op.response === undefined || op.response === anyObject;

/** The command as typed; for a shape the spec does not show, which list of the answer its rows are. */
function columnsWhat(op: Pick<Operation, 'group' | 'name' | 'rows' | 'response'>): string {
  const kebab = op.name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  return `${op.group} ${kebab}${op.rows && op.response === anyObject ? ` (its rows are ${op.rows})` : ''}`;
}

/** Every path the answer's rows (or the record itself) have: leaves and the objects above them. */
function seenPaths(data: unknown, rowsPath?: string, find = false): string[] | undefined {
  const rows = rowsOf(data, rowsPath, find) ?? (data !== null && typeof data === 'object' && !Array.isArray(data) ? [data] : []);
  const seen = new Set<string>();
  for (const row of rows.slice(0, 200)) {
    for (const leaf of leafPaths(row)) {
      const keys = leaf.split('.');
      for (let i = 1; i <= keys.length; i++) seen.add(keys.slice(0, i).join('.'));
    }
  }
  return seen.size ? [...seen] : undefined;
}
