/**
 * The gate's scope and threshold flags: the scope flags are the issue search's own (taken from its
 * row, so they stay in sync), one --max-<level> flag per level and one for the total. Checking that
 * the scope's ids exist is scope.ts.
 */
import { issues } from '../../operations/issues.js';
import type { Operation } from '../../operations/types.js';
import { flagSpecs, type FlagSpec } from '../../request/flags.js';

/** Request fields of the issue search that scope the gate (it always searches `types: ["open"]`). */
const SCOPE_FIELDS = [
  'organizationId', 'repositoryIds', 'scanId', 'projectId', 'codeScanTypes',
  'vulnerabilityClasses', 'languages', 'ruleId', 'searchQuery',
] as const;

export const MAX_FLAGS = ['critical', 'high', 'medium', 'low', 'info', 'total'] as const;

export function searchOperation(): Operation {
  return issues.find((op) => op.name === 'search')!;
}

export function scopeSpecs(): FlagSpec[] {
  const shape = searchOperation().request.shape;
  return flagSpecs(Object.fromEntries(SCOPE_FIELDS.map((k) => [k, shape[k]])));
}

export interface GateFlags {
  specs: FlagSpec[];
  attribute: Map<FlagSpec, string>;
}
