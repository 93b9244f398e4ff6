/**
 * The ids of a bulk action read from `--ids-from FILE|-`: one id a line, or what `svc issues search`
 * prints (NDJSON: one object a line; JSON: an array of issues, or the search answer `{ issues: [...] }`),
 * from which the `id` fields are taken. Spaces and CR line ends are trimmed, blank lines skipped; any
 * other line that is not an id is refused (exit 2) naming its line number, before anything is sent.
 * No ids at all (an empty search) is nothing to do: exit 0 with a note, as --where finding nothing.
 */
import { resolve } from 'node:path';
import type { Context } from '../context.js';
import type { Operation } from '../operations/types.js';
import { loadGroup } from '../operations/index.js';
import { InterruptedError, UsageError } from '../core/errors.js';
import { IDS_LIMIT, TooLargeError, tooLarge } from '../core/input-limit.js';
import { readTextFile } from '../output/read-file.js';
import { checkControls } from '../request/values.js';
import { escapeControls } from '../core/sanitize.js';
import { argName } from '../request/flags.js';
import { confirmWhere, findWhere, parseWhere, type Found, type Skipped } from './bulk-where.js';

/** What an id may look like: what the service's ids hold (letters, digits, `_ - . :`). */
const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

const HINT = 'give one id a line, or the NDJSON/JSON that `svc issues search -o ndjson|json` prints';

/** What a bulk run's record held besides the ids it takes (see parseIdList). */
interface RecordInfo {
  /** The actions of its records (`issues archive`); empty for a record without them. */
  actions: string[];
  /** How many of its ids were not done, by outcome (`failed`, `not-sent`, `unknown`): left out. */
  left: Map<string, number>;
}

interface IdList {
  ids: string[];
  /** Set when the input is the `-o json|ndjson` record of a bulk run: only its done ids are taken. */
  record?: RecordInfo;
}

/**
 * The ids of `--ids-from`: one id a line; the NDJSON/JSON of `svc issues search` (its `id` fields);
 * or the record a bulk run prints with `-o json|ndjson` (objects with `id` and `outcome`), of which
 * only the ids whose outcome is `done` are taken: fed to the action that undoes the run, it undoes
 * what was done and nothing else. A file that mixes records with other lines is refused.
 */
export function parseIdList(text: string, source: string): IdList {
  const body = text.replace(/^\uFEFF/, '');
  const start = body.trimStart()[0];
  const entries: Array<{ item: unknown; where: string }> = [];
  // A whole JSON document (`-o json`): an array, or an object with the issues.
  if (start === '[' || (start === '{' && !isNdjson(body))) {
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch (err) {
      throw new UsageError(`${source}: not valid JSON: ${(err as Error).message.slice(0, 120)}`, HINT);
    }
    const items = Array.isArray(doc) ? doc : isObject(doc) && Array.isArray(doc.issues) ? doc.issues : isObject(doc) ? [doc] : undefined;
    if (!items) throw new UsageError(`${source}: JSON that is neither a list nor an object`, HINT);
    items.forEach((item, i) => entries.push({ item, where: `${source}: item ${i + 1}` }));
  } else {
    const lines = body.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i].replace(/\r$/, '').trim();
      if (line === '') continue;
      const where = `${source}: line ${i + 1}`;
      if (line.startsWith('{')) {
        try {
          entries.push({ item: JSON.parse(line), where });
        } catch {
          throw new UsageError(`${where}: not valid JSON: '${clip(line)}'`, HINT);
        }
        continue;
      }
      entries.push({ item: checkId(line.replace(/^"(.*)"$/, '$1'), where), where });
    }
  }
  const records = entries.filter((e) => isRecord(e.item));
  if (records.length === 0) return { ids: entries.map((e) => idOf(e.item, e.where)) };
  if (records.length < entries.length) {
    const other = entries.find((e) => !isRecord(e.item))!;
    throw new UsageError(`${other.where}: not a record of a bulk run (no 'outcome'), while ${records[0].where.slice(source.length + 2)} is one`, 'give a bulk run\'s -o json|ndjson record as it was printed, or ids alone');
  }
  const ids: string[] = [];
  const actions = new Set<string>();
  const left = new Map<string, number>();
  for (const { item, where } of records) {
    const rec = item as Record<string, unknown>;
    const id = idOf(rec, where);
    if (typeof rec.action === 'string') actions.add(rec.action);
    if (rec.outcome === 'done') ids.push(id);
    else left.set(String(rec.outcome), (left.get(String(rec.outcome)) ?? 0) + 1);
  }
  return { ids, record: { actions: [...actions], left } };
}

/** One record of a bulk run (`{ id, action, outcome, code, ... }`), not an issue. */
function isRecord(item: unknown): boolean {
  return isObject(item) && typeof item.outcome === 'string';
}

/** NDJSON: more than one line, each a JSON object on its own. */
function isNdjson(body: string): boolean {
  const lines = body.split('\n').map((l) => l.trim()).filter(Boolean);
  if (lines.length < 2) return false;
  try {
    JSON.parse(lines[0]);
    return true;
  } catch {
    return false;
  }
}

function idOf(item: unknown, where: string): string {
  if (typeof item === 'string') return checkId(item.trim(), where);
  if (isObject(item) && typeof item.id === 'string') return checkId(item.id.trim(), where);
  if (isObject(item) && typeof item.issueId === 'string') return checkId(item.issueId.trim(), where);
  // A service that numbers its issues (svc shows such an id with a warning, and acts on it as text).
  for (const key of ['id', 'issueId']) {
    const v = isObject(item) ? item[key] : undefined;
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return checkId(String(v), where);
  }
  const present = isObject(item) && ('id' in item || 'issueId' in item);
  throw new UsageError(`${where}: ${present ? `its 'id' is not an issue id (${clip(JSON.stringify(isObject(item) ? item.id ?? item.issueId : item) ?? '')})` : "no 'id' field"}`, HINT);
}

function checkId(id: string, where: string): string {
  if (!ID.test(id)) throw new UsageError(`${where}: '${clip(id)}' is not an issue id`, HINT);
  return id;
}

function clip(text: string): string {
  const t = escapeControls(text);
  return t.length > 60 ? `${t.slice(0, 57)}...` : t;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** What a bulk command was given to find its ids. */
interface IdSources {
  positionals: string[];
  idsFrom?: string;
  where?: string[];
  yes?: boolean;
  concurrency: number;
  /** Told the issues --where found (their search fields), for the --dry-run preview. */
  onFound?: (found: Found[]) => void;
}

/**
 * The ids of a bulk action, in order, from the positional ids, `--ids-from` and `--where` (any of
 * them together); none at all is a usage error. `--where` shows a preview and asks first.
 */
export async function collectIds(ctx: Context, op: Operation, src: IdSources, organizationId: string | undefined): Promise<{ ids: string[]; skipped: Skipped[] }> {
  const ids = src.positionals.map((id, i) => {
    checkControls(`${argName(op.positional!)} ${i + 1}`, id);
    return id;
  });
  if (src.idsFrom !== undefined) {
    const from = src.idsFrom;
    const name = `--ids-from ${from === '-' ? '(stdin)' : from}`;
    const text = from === '-' ? await ctx.readStdin(name, IDS_LIMIT) : await readIdFile(ctx, from);
    const read = parseIdList(text, name);
    if (read.record) {
      await sayRecord(ctx, op, name, read.ids.length, read.record);
      if (read.ids.length === 0 && ids.length === 0 && src.where === undefined) return { ids: [], skipped: [] };
    } else if (read.ids.length === 0) {
      // An empty search (`[]`, `{ "issues": [] }`, or no line at all: what `-o ndjson` prints for one)
      // is nothing to do, as --where finding nothing is (exit 0), not a usage error: it was exit 2,
      // with a hint to give the very search output that was given.
      const what = text.trim() === '' ? 'is empty' : 'holds an empty search answer';
      ctx.note(`${name} ${what}: no ids${ids.length === 0 && src.where === undefined ? ', nothing to do' : ''}`);
      if (ids.length === 0 && src.where === undefined) return { ids: [], skipped: [] };
    }
    for (const id of read.ids) ids.push(id); // not push(...): 150,000 ids overflowed the stack
  }
  let skipped: Skipped[] = [];
  if (src.where !== undefined) {
    const search = (await loadGroup('issues')).find((o) => o.name === 'search')!;
    const where = await parseWhere(search, src.where);
    const answer = await findWhere(ctx, search, where, organizationId, src.concurrency);
    // An id named by hand (an argument, --ids-from) is the user's choice: acted on as named, also when
    // the search answers it outside the filter; recorded once, as done or failed, never also as skipped
    // (the records and the summary said both). Not an id svc could not name (a number a double rounds:
    // it names another issue than the one given).
    const named = new Set(ids);
    const namedOutside = answer.skipped.filter((s) => !s.unnamed && named.has(s.id));
    if (namedOutside.length > 0) {
      ctx.warn(`the search of --where ${where.text} answered ${namedOutside.map((s) => `${s.id} (${s.why})`).join(', ')} outside the filter: acted on all the same, as ${namedOutside.length === 1 ? 'it is' : 'they are'} named by id (as an argument or in --ids-from)`);
    }
    const found = answer.found.filter((f) => !named.has(f.id));
    skipped = answer.skipped.filter((s) => !namedOutside.includes(s));
    if (found.length === 0 && ids.length === 0) {
      // Issues the search answered outside the filter are listed (and exit 10) after this: not "nothing".
      ctx.note(`no issue matches --where ${where.text}${skipped.length === 0 ? ': nothing to do' : `: ${skipped.length} the search answered outside it will not be changed (skipped)`}`);
      return { ids: [], skipped };
    }
    await confirmWhere(ctx, op, search, where, answer.found, src.yes === true, skipped);
    src.onFound?.(answer.found);
    // An issue both named and found is given once (not "given more than once").
    for (const f of found) ids.push(f.id);
  }
  if (ids.length === 0) throw new UsageError(`no ${op.positional} given`, `give ids as arguments, --ids-from FILE|-, or --where FILTER=VALUE; see 'svc ${op.group} ${op.name} --help'`);
  return { ids, skipped };
}

/**
 * What was taken of a bulk run's record, on stderr: the done ids, what was left out, and whether
 * this action is the one that undoes the record's (a warning when it is not: a record is usually
 * fed to its undo).
 */
async function sayRecord(ctx: Context, op: Operation, name: string, taken: number, record: RecordInfo): Promise<void> {
  const notDone = [...record.left].filter(([outcome]) => outcome !== 'unknown').map(([outcome, n]) => `${n} ${outcome}`).join(', ');
  const unknown = record.left.get('unknown') ?? 0;
  const leftText = (notDone ? `; left out: ${notDone} (not done by that run)` : '')
    + (unknown ? `; left out too: ${unknown} whose outcome is unknown (that run may have applied ${unknown === 1 ? 'it' : 'them'}: look with svc issues get ID before undoing one by its id)` : '');
  const command = `svc ${op.group} ${op.name}`;
  const of = record.actions.map((a) => `svc ${a}`).join(', ');
  if (taken === 0) {
    ctx.note(`${name} is the record of a bulk run${of ? ` (${of})` : ''} with no id done${leftText}: nothing to do`);
    return;
  }
  const rows = await loadGroup(op.group);
  const undone = record.actions.map((a) => rows.find((r) => `${r.group} ${r.name}` === a));
  const undoes = undone.length > 0 && undone.every((r) => r?.bulk && 'by' in r.bulk.undo && r.bulk.undo.by === op.name);
  if (undoes) {
    ctx.note(`${name}: undoing ${of}: the ${taken} id${taken === 1 ? '' : 's'} it did${leftText}`);
    return;
  }
  const inverse = undone.length === 1 && undone[0]?.bulk && 'by' in undone[0].bulk.undo ? `, which svc ${op.group} ${undone[0].bulk.undo.by} undoes` : '';
  ctx.warn(`${name} is the record of ${of || 'a bulk run'}${inverse}: ${command} takes its ${taken} done id${taken === 1 ? '' : 's'}${leftText}`);
}

async function readIdFile(ctx: Context, path: string): Promise<string> {
  try {
    // A FIFO without a writer is waited on without holding a thread: Ctrl-C and SIGTERM still end svc.
    return await readTextFile(resolve(ctx.cwd, path), ctx.signal, IDS_LIMIT.bytes);
  } catch (err) {
    if (err instanceof TooLargeError) throw tooLarge(`--ids-from ${path}`, IDS_LIMIT, err.size);
    if (err instanceof InterruptedError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new UsageError(`cannot read --ids-from ${path}: ${why}`, 'check the path');
  }
}
