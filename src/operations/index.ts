/**
 * The operation table's index: group metadata here (cheap to load, for top-level help and dispatch),
 * the rows in one module per group, loaded only when a command of that group runs.
 */
import type { GroupName, Operation } from './types.js';
import { GROUPS } from './groups.js';

export type { Group, Operation } from './types.js';

export { GROUPS } from './groups.js';

// One module per group: its zod schemas are built only when a command of that group runs.
const loaders: Record<GroupName, () => Promise<Operation[]>> = {
  orgs: () => import('./orgs.js').then((m) => m.orgs),
  repos: () => import('./repositories.js').then((m) => m.repositories),
  installations: () => import('./installations.js').then((m) => m.installations),
  stats: () => import('./stats.js').then((m) => m.stats),
  issues: () => import('./issues.js').then((m) => m.issues),
  scans: () => import('./scans.js').then((m) => m.scans),
};

export function loadGroup(name: GroupName): Promise<Operation[]> {
  return loaders[name]();
}

/**
 * The row of one operation, its group's module loaded when first asked for (a call site names the
 * row it calls: `await rowOf('repos', 'list')`).
 */
export async function rowOf(group: GroupName, name: string): Promise<Operation> {
  const op = (await loaders[group]()).find((o) => o.name === name);
  if (!op) throw new Error(`the operation table has no row '${group} ${name}'`);
  return op;
}

export async function loadAllOperations(): Promise<Operation[]> {
  const lists = await Promise.all(GROUPS.map((g) => loaders[g.name]()));
  return lists.flat();
}

/** `issuesBySeverity` -> `issues-by-severity`; kebab names stay as they are. */
export function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/** The command name of an operation and the API spelling accepted as an alias (when different). */
export function commandName(op: Operation): { name: string; alias?: string } {
  const name = kebab(op.name);
  return name === op.name ? { name } : { name, alias: op.name };
}
