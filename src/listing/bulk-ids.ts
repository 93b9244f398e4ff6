/**
 * The ids of a bulk action read from `--ids-from FILE|-`: one id a line, or what `svc issues search`
 * prints (NDJSON: one object a line; JSON: an array of issues, or the search answer `{ issues: [...] }`),
 * from which the `id` fields are taken. Spaces and CR line ends are trimmed, blank lines skipped; any
 * other line that is not an id is refused (exit 2) naming its line number, before anything is sent.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Context } from '../context.js';
import type { Operation } from '../operations/types.js';
import { loadGroup } from '../operations/index.js';
import { UsageError } from '../core/errors.js';
import { checkControls } from '../request/values.js';
import { escapeControls } from '../core/sanitize.js';
import { argName } from '../request/flags.js';
import { confirmWhere, findWhere, parseWhere, type Found, type Skipped } from './bulk-where.js';

/** What an id may look like: what the service's ids hold (letters, digits, `_ - . :`). */
const ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

const HINT = 'give one id a line, or the NDJSON/JSON that `svc issues search -o ndjson|json` prints';

export function parseIdList(text: string, source: string): string[] {
  const body = text.replace(/^\uFEFF/, '');
  const start = body.trimStart()[0];
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
    return items.map((item, i) => idOf(item, `${source}: item ${i + 1}`));
  }
  const ids: string[] = [];
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '').trim();
    if (line === '') continue;
    const where = `${source}: line ${i + 1}`;
    if (line.startsWith('{')) {
      let rec: unknown;
      try {
        rec = JSON.parse(line);
      } catch {
        throw new UsageError(`${where}: not valid JSON: '${clip(line)}'`, HINT);
      }
      ids.push(idOf(rec, where));
      continue;
    }
    ids.push(checkId(line.replace(/^"(.*)"$/, '$1'), where));
  }
  return ids;
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
  throw new UsageError(`${where}: no 'id' field`, HINT);
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
    const text = from === '-' ? await ctx.readStdin() : await readIdFile(ctx, from);
    const read = parseIdList(text, `--ids-from ${from === '-' ? '(stdin)' : from}`);
    if (read.length === 0) throw new UsageError(`--ids-from ${from === '-' ? '(stdin)' : from} holds no id`, 'give one id a line, or the output of `svc issues search -o ndjson`');
    ids.push(...read);
  }
  let skipped: Skipped[] = [];
  if (src.where !== undefined) {
    const search = (await loadGroup('issues')).find((o) => o.name === 'search')!;
    const where = parseWhere(search, src.where);
    const answer = await findWhere(ctx, search, where, organizationId, src.concurrency);
    const found = answer.found;
    skipped = answer.skipped;
    if (found.length === 0 && ids.length === 0) {
      ctx.note(`no issue matches --where ${where.text}: nothing to do`);
      return { ids: [], skipped };
    }
    await confirmWhere(ctx, op, search, where, found, src.yes === true, skipped);
    src.onFound?.(found);
    ids.push(...found.map((f) => f.id));
  }
  if (ids.length === 0) throw new UsageError(`no ${op.positional} given`, `give ids as arguments, --ids-from FILE|-, or --where FILTER=VALUE; see 'svc ${op.group} ${op.name} --help'`);
  return { ids, skipped };
}

async function readIdFile(ctx: Context, path: string): Promise<string> {
  try {
    return await readFile(resolve(ctx.cwd, path), 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : (err as Error).message;
    throw new UsageError(`cannot read --ids-from ${path}: ${why}`, 'check the path');
  }
}
