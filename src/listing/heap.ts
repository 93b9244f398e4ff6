/**
 * Heap settings for long listings (`--all`; not the gate, see src/gate/run.ts). `--optimize-for-size`
 * keeps V8's young generation small while pages stream through: peak RSS ~85 MB instead of ~130 MB
 * at 100,000 issues, for ~0.1 s more CPU (docs/performance.md). Set once the listing starts: V8 reads
 * it at each collection, and a single call never pays for it.
 */
import { setFlagsFromString } from 'node:v8';

let set = false;

export function favourSmallHeap(): void {
  if (set) return;
  set = true;
  setFlagsFromString('--optimize-for-size');
}
