/**
 * Heap settings for long listings (`--all`, `svc gate`). A page of 500 issues arrives as one string
 * of ~1 MB, which V8 keeps in the old generation until a full collection; with V8's default growth
 * heuristics a 100,000-issue listing lets ~100 MB of such garbage pile up before it collects.
 * `--optimize-for-size` makes it collect sooner: peak RSS ~95 MB instead of ~145-165 MB at 50k-100k
 * issues, for ~40% more CPU in the collector, which hardly shows in the wall time while the service
 * sets the pace (README "Performance"). Set once the listing starts: V8 reads it at each collection,
 * and a single call never pays for it.
 */
import { setFlagsFromString } from 'node:v8';

let set = false;

export function favourSmallHeap(): void {
  if (set) return;
  set = true;
  setFlagsFromString('--optimize-for-size');
}
