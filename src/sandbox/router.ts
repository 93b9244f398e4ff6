/**
 * Operation path -> handler. Every row of the CLI's operation table must have a handler (checked
 * at start-up), and every body is validated with the row's own zod schema, so the sandbox and the
 * CLI can never disagree about a field.
 */
import { issueText, type Schema } from '../operations/fields.js';
import type { Operation } from '../operations/types.js';
import type { Store } from './state.js';
import { HttpError, badRequest } from './http-error.js';
import { HandlerContext, type Body, type HandlerTable, type Timing } from './handlers/handler-context.js';
import { orgHandlers } from './handlers/orgs.js';
import { repoHandlers } from './handlers/repos.js';
import { installationHandlers } from './handlers/installations.js';
import { statsHandlers } from './handlers/stats.js';
import { issueHandlers } from './handlers/issues.js';
import { scanHandlers } from './handlers/scans.js';

export const HANDLERS: HandlerTable = {
  ...orgHandlers, ...repoHandlers, ...installationHandlers, ...statsHandlers, ...issueHandlers, ...scanHandlers,
};

export interface Route {
  op: Operation;
  handle(body: Body): unknown;
}

export function buildRoutes(ops: Operation[], store: Store, timing: Timing): Map<string, Route> {
  const missing = ops.filter((op) => !HANDLERS[op.path]).map((op) => op.path);
  if (missing.length) throw new Error(`sandbox: no handler for ${missing.join(', ')}`);
  const routes = new Map<string, Route>();
  for (const op of ops) {
    const handler = HANDLERS[op.path];
    routes.set(op.path, {
      op,
      handle(body) {
        const parsed = validate(op.request, body);
        for (const key of op.required ?? []) {
          const v = parsed[key];
          if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) throw badRequest(`missing required field '${key}'`);
        }
        store.tick();
        return handler(new HandlerContext(parsed, store, timing));
      },
    });
  }
  return routes;
}

/** The body checked with the operation's request schema; the first problem names its field. */
export function validate(schema: Schema, body: Body): Body {
  const result = schema.safeParse(body);
  if (result.success) return result.data as Body;
  const issue = result.error.issues[0];
  const field = issue.path.map(String).join('.') || '(body)';
  throw new HttpError(400, `invalid field '${field}': ${issueText(issue)}`);
}
