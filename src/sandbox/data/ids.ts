/** Deterministic ids: a prefix and a scrambled counter, distinct per kind and seed. */
import { mix, scramble } from '../prng.js';

export type IdKind = 'org' | 'repo' | 'project' | 'installation' | 'instrepo' | 'scan' | 'schedule' | 'issue' | 'patch' | 'invitation' | 'provider';

const PREFIX: Record<IdKind, string> = {
  org: 'org_', repo: 'repo_', project: 'prj_', installation: 'inst_', instrepo: 'irepo_', scan: 'scan_',
  schedule: 'sched_', issue: 'iss_', patch: 'patch_', invitation: 'inv_', provider: 'ext_',
};
const SALT: Record<IdKind, number> = {
  org: 1, repo: 2, project: 3, installation: 4, instrepo: 5, scan: 6, schedule: 7, issue: 8, patch: 9, invitation: 10, provider: 11,
};

export function makeId(kind: IdKind, seed: number, n: number): string {
  return PREFIX[kind] + scramble(n, mix(seed, SALT[kind]));
}
