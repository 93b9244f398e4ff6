/**
 * An issue search for a repository that does not exist answers "no issues", which reads as "this
 * repository is clean". When an answer is empty (and only then, so the common path costs nothing),
 * the `repositoryIds` it was scoped to are looked up in `repositories list` of the same organization:
 * one the service does not know is exit 4 naming it (issue search, `--all` or not); so is a `scanId`
 * that `scans list` does not list.
 */
import { CliError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import type { Client } from '../http/client.js';
import { callRow } from '../http/row-call.js';
import { rowOf } from '../operations/index.js';
import { apiPath } from '../operations/row.js';

/** The listings whose empty answer is checked (by the row's path), and the request field that names repositories. */
const SCOPED: Record<string, string> = { [apiPath('issues', 'search')]: 'repositoryIds' };

export async function checkEmptyScope(client: Pick<Client, 'call'>, path: string, body: Record<string, unknown>, what: string): Promise<void> {
  if (SCOPED[path] !== undefined && typeof body.scanId === 'string' && body.scanId !== '') await checkScan(client, body, what);
  const field = SCOPED[path];
  const asked = field === undefined ? undefined : body[field];
  if (!Array.isArray(asked) || asked.length === 0) return;
  const lookup: Record<string, unknown> = { getCounts: false };
  if (typeof body.organizationId === 'string') lookup.organizationId = body.organizationId;
  const repos = await callRow(client, await rowOf('repos', 'list'), lookup, { what: `${what}: repos list` }) as unknown[];
  const known = new Set(repos.map((r) => (r !== null && typeof r === 'object' ? (r as { id?: unknown }).id : undefined)).filter((id) => id !== undefined && id !== null).map(String));
  const missing = asked.map(String).filter((id) => !known.has(id));
  if (missing.length > 0) {
    const where = typeof body.organizationId === 'string' ? `organization '${body.organizationId}'` : "the token's organization";
    throw new CliError(
      `${what}: repositor${missing.length === 1 ? 'y' : 'ies'} ${missing.map((m) => `'${m}'`).join(', ')} not found in ${where}, so "no results" says nothing about ${missing.length === 1 ? 'it' : 'them'}`,
      EXIT.NOT_FOUND,
      '`svc repos list` shows the repository ids',
    );
  }
}

/**
 * The scan an empty search was scoped to (`scanId`), looked up in `scans list` (the field notes'
 * filter `scanId`): an answer that lists no scan at all (a total of 0) says the service does not
 * know it: exit 4. One that lists other scans (the filter ignored) or the scan says nothing more.
 */
async function checkScan(client: Pick<Client, 'call'>, body: Record<string, unknown>, what: string): Promise<void> {
  const scanId = body.scanId as string;
  const lookup: Record<string, unknown> = { scanId, page: 1, pageSize: 10 };
  if (typeof body.organizationId === 'string') lookup.organizationId = body.organizationId;
  const answer = await callRow(client, await rowOf('scans', 'list'), lookup, { what: `${what}: scans list` }) as { codeScans?: unknown; totalCount?: unknown } | null;
  const listed = answer !== null && typeof answer === 'object' && Array.isArray(answer.codeScans) ? answer.codeScans : undefined;
  if (listed === undefined || listed.length > 0 || (answer!.totalCount !== undefined && answer!.totalCount !== 0)) return;
  throw new CliError(`${what}: scan '${scanId}' not found (scans list names no scan for it), so "no results" says nothing about it`, EXIT.NOT_FOUND, '`svc scans list` shows the scan ids');
}
