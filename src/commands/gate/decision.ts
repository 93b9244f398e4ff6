/** The gate's decision with what it was made on: the scope, what was verified and sifted, the issues read and the total the service gave. */
import type { GateResult } from '../../gate/verdict.js';
import type { Sifted } from '../../gate/sieve.js';
import type { VerifiedScope } from './scope.js';

export interface GateVerdict {
  result: GateResult;
  /** What the baseline, the policy and --new-since/--commit took out of the count. */
  sifted?: Sifted;
  scope: Record<string, unknown>;
  /** The ids of the scope that were looked up and found (see scope.ts). */
  verified: VerifiedScope;
  fetched: number;
  totalCount: number;
}
