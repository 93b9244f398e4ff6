/**
 * Heap settings for long listings (`--all`; not the gate, see src/commands/gate/count.ts). `--optimize-for-size`
 * keeps V8's young generation small while pages stream through: peak RSS ~85 MB instead of ~130 MB
 * at 100,000 issues, for ~0.1 s more CPU (docs/performance.md). Set once the listing starts: V8 reads
 * it at each collection, and a single call never pays for it. Not where the user set the young
 * generation's size in NODE_OPTIONS (or this flag), in either spelling V8 reads (`-` or `_`): theirs win.
 */
import { setFlagsFromString } from 'node:v8';

let set = false;

export function favourSmallHeap(nodeOptions = '', execArgv: readonly string[] = process.execArgv): void {
  if (set || /--(no[-_])?(optimize[-_]for[-_]size|((max|min)[-_])?semi[-_]space[-_]size)/.test(`${execArgv.join(' ')} ${nodeOptions}`)) return;
  set = true;
  setFlagsFromString('--optimize-for-size');
  // V8 stamps a code cache with a hash of its flags: bin/svc.js sets these (the flag and what it
  // implies on node 20 and 22) before it makes one, so that the cache carries the hash a run starts
  // with, and while it compiles its second script (then this flag again).
  const flags = globalThis as { [k: symbol]: string[] | undefined };
  (flags[Symbol.for('svc.v8FlagsUndo')] ??= []).push('--no-optimize-for-size', '--max-semi-space-size=0');
  (flags[Symbol.for('svc.v8FlagsSet')] ??= []).push('--optimize-for-size');
}
