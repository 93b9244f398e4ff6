/** The gate's decision with what it was made on: the scope, what was verified and sifted, the issues read and the total the service gave. */
import type { GateResult } from '../../gate/verdict.js';
import type { Sifted } from '../../gate/sieve.js';
import type { VerifiedScope } from './scope.js';
import { cellText } from '../../core/sanitize.js';

export interface GateVerdict {
  result: GateResult;
  /** What the baseline, the policy and --new-since/--commit took out of the count. */
  sifted?: Sifted;
  scope: Record<string, unknown>;
  /** The ids of the scope that were looked up and found (see scope.ts). */
  verified: VerifiedScope;
  fetched: number;
  totalCount: number;
  /**
   * The organization the gate acted on and where it came from (`--org`, `SVC_ORGANIZATION_ID`,
   * `profile`, `--organization-id`), or no id: the token's default.
   */
  organization?: { id?: string; from: string };
}

/** "Organization: org_1 (from --org)", or the token's default when none is set. */
export function organizationText(o: { id?: string; from: string }): string {
  return o.id === undefined
    ? "Organization: the token's default (none set: --org, SVC_ORGANIZATION_ID or svc config set organization picks one; svc auth status lists them)."
    : `Organization: ${cellText(o.id)} (from ${o.from}).`;
}
