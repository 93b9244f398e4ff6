/**
 * Every call svc makes to the API goes through a row of the operation table (src/operations/): the
 * row gives the path, whether the call is safe to send again (`op.safe`), the request schema and the
 * response schema. Nowhere else in src/ names an API path (test/unit/architecture/api-paths.test.ts
 * fails on one); the one exception is `svc api`, whose user names the path.
 *
 * - `sendRow`: a body built from the row's own flags by the request kit (request/build.ts: the flags
 *   checked against the row's schema; the user's -F/--input fields are the user's reading of the
 *   API and go as given), sent to the row's path. The caller checks the answer (the command renders
 *   it through the row's response schema, the listing engine checks each page).
 * - `callRow`: a body svc composes itself (the gate's scope and commit lookups, scans wait, triage,
 *   repository names, the token check): checked against the row's request schema before anything is
 *   sent, and the answer's top-level type checked against the row's response schema (a list where
 *   the row documents one, an object where it documents one). A caller reads the fields it needs
 *   and says what it cannot use.
 */
import type { Client } from './client.js';
import type { BodyBuffers } from './raw-answer.js';
import { refusal } from '../answers/doubts.js';
import { CliError } from '../core/errors.js';
import { kebab } from '../operations/index.js';
import { EXIT } from '../core/exit-codes.js';
import { issueText, topType } from '../operations/fields.js';
import type { Operation } from '../operations/types.js';

type Body = Record<string, unknown>;

interface SendOptions {
  /** The answer unparsed (see Client.call): the listing engine parses each page when its turn comes. */
  raw?: boolean | BodyBuffers;
  signal?: AbortSignal;
  waitSignal?: AbortSignal;
}

interface CallOptions extends SendOptions {
  /** How messages name the call (`gate: orgs list`); default the command (`orgs list`). */
  what?: string;
  /** What the user can do when the answer is of another type (default: check the base URL). */
  hint?: string;
}

/** The command of a row as typed: `stats issues-by-severity`. */
export function rowCommand(op: Pick<Operation, 'group' | 'name'>): string {
  return `${op.group} ${kebab(op.name)}`;
}

/** The body (built from the row's flags) sent to the row's path, retried as the row allows. */
export function sendRow(client: Pick<Client, 'call'>, op: Operation, body: Body, o: SendOptions = {}): Promise<unknown> {
  return client.call(op.path, body, { ...o, safe: op.safe });
}

/**
 * A body svc composed, checked against the row's request schema (a body its own table refuses is a
 * fault of svc: exit 70, nothing sent), sent to the row's path; the answer's top-level type is the
 * row's (else exit 7, as every command of that row refuses it).
 */
export async function callRow(client: Pick<Client, 'call'>, op: Operation, body: Body, o: CallOptions = {}): Promise<unknown> {
  const what = o.what ?? rowCommand(op);
  const checked = op.request.safeParse(body);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    const field = issue.path.map(String).join('.') || 'the body';
    throw new CliError(`${what}: svc built a request its operation table refuses (${field} ${issueText(issue)}); nothing was sent`, EXIT.INTERNAL, 'this is a fault of svc: please report it with the command line (--debug shows where)');
  }
  const { what: _what, hint, ...send } = o;
  const data = await sendRow(client, op, body, send);
  if (o.raw) return data;
  const want = topType(op.response);
  const got = data === null ? 'null' : Array.isArray(data) ? 'list' : typeof data;
  if (want !== undefined && got !== want) {
    const said = got === 'null' ? 'nothing (null or an empty body)' : got === 'list' ? 'a list' : got === 'object' ? 'an object' : `a ${got}`;
    // `top-level` of the one table of checks (answers/checks.ts): refused in every use.
    throw refusal('top-level', what, `the answer is ${said}, not the ${want} ${op.source === 'spec' ? 'the spec documents' : 'the field notes document'} for ${rowCommand(op)}`,
      hint ?? 'check the base URL and the service version; --verbose shows the answer as received');
  }
  return data;
}
