/**
 * The row constructor: every row of the operation table is made here, so that the parts that follow
 * from the group and the name (the group, the API path) and the defaults (source, safety) are
 * filled the same way for all of them.
 */
import type { Source } from './fields.js';
import { GROUPS } from './groups.js';
import type { GroupName, Operation } from './types.js';

/**
 * What a call does to the service: `read` (safe to retry even when it may have reached the
 * server), `change` (retried only when it provably never arrived, or on 429), `destroy` (a change
 * that asks for confirmation on a terminal and needs --yes elsewhere).
 */
type Effect = 'read' | 'change' | 'destroy';

export type RowSpec = Omit<Operation, 'group' | 'name' | 'path' | 'source' | 'safe' | 'destructive' | 'request' | 'response'> & {
  effect: Effect;
  /** Default `spec`: the operation is in the API spec. */
  source?: Source;
  /**
   * The schemas, or functions that build them on first use: a group's module is evaluated whole, and
   * each zod schema costs start-up time to build, so a call builds only its own row's.
   */
  request: Operation['request'] | (() => Operation['request']);
  response: Operation['response'] | (() => Operation['response']);
};

/** `key` of `op`: the schema, or a getter that builds it once, on first use. */
function schema<K extends 'request' | 'response'>(op: Operation, key: K, given: Operation[K] | (() => Operation[K])): void {
  if (typeof given !== 'function') {
    op[key] = given;
    return;
  }
  Object.defineProperty(op, key, {
    configurable: true,
    enumerable: true,
    get() {
      const built = (given as () => Operation[K])();
      Object.defineProperty(op, key, { value: built, enumerable: true, writable: true, configurable: true });
      return built;
    },
  });
}

/**
 * The API path of an operation: `/api/v1/<group's API segment>/<name>`. The one place svc spells
 * one; code that must name an operation by its path (the answer checks keyed by operation) asks here.
 */
export function apiPath(group: GroupName, name: string): string {
  const api = GROUPS.find((g) => g.name === group)!.api;
  return `/api/v1/${api}/${name}`;
}

/** One operation: `row('issues', 'archive', { effect: 'change', summary: ..., request: ..., ... })`. */
export function row(group: GroupName, name: string, spec: RowSpec): Operation {
  const { effect, source = 'spec', request, response, ...rest } = spec;
  const op = {
    group,
    name,
    path: apiPath(group, name),
    source,
    safe: effect === 'read',
    ...(effect === 'destroy' ? { destructive: true } : {}),
    ...rest,
  } as Operation;
  schema(op, 'request', request);
  schema(op, 'response', response);
  return op;
}
