/** The lines that say what the baseline, the policy and --new-since/--commit took out of the count. */
import type { IgnoreEntry } from './policy-file.js';
import type { Sifted } from './sieve.js';

const s = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Plain sentences, for the terminal summary and the markdown summary alike. `expired`: the most
 * expired policy entries named one a line (the step summary's; a policy file can hold thousands), the
 * rest summed up with where all of them are (`fullAt`).
 */
export function siftedLines(sifted: Sifted | undefined, counted: number, o: { expired?: number; fullAt?: string } = {}): string[] {
  if (!sifted) return [];
  const out: string[] = [];
  if (sifted.baseline) {
    out.push(`${counted} new, ${sifted.unchangedCount} already in the baseline (not counted; baseline ${sifted.baseline.file}, ${s(sifted.baseline.entries, 'issue', 'issues')}).`);
  }
  if (sifted.diff) {
    const d = sifted.diff;
    const what = `--diff ${d.base}${d.workTree ? ' with the work tree' : ''}, merge base ${d.mergeBase.slice(0, 12)}, ${s(d.files, 'file', 'files')} changed, by ${d.scope}`;
    out.push(`${d.inChange} in this change, ${d.elsewhereCount} elsewhere (not counted; ${what}).`);
    if (d.unlocated > 0) out.push(`${s(d.unlocated, 'issue has', 'issues have')} no file${d.scope === 'lines' ? ' or line' : ''} and counted (fail closed).`);
    if (d.unknownFile > 0) out.push(`${s(d.unknownFile, 'issue names a file', 'issues name files')} this repository does not have, and counted (fail closed): run svc in the checkout of the scanned repository.`);
  }
  if (sifted.suppressedCount > 0 || sifted.policy) {
    out.push(`${s(sifted.suppressedCount, 'issue', 'issues')} suppressed by the policy${sifted.policy ? ` ${sifted.policy.file}` : ''} (not counted).`);
  }
  const named = Math.min(sifted.expired.length, o.expired ?? Infinity);
  for (const e of sifted.expired.slice(0, named)) out.push(`Policy entry expired ${e.expires}: ${entryLabel(e)} counts again.`);
  const more = sifted.expired.length - named;
  if (more > 0) out.push(`…and ${s(more, 'more policy entry', 'more policy entries')} expired and ${more === 1 ? 'counts' : 'count'} again${o.fullAt ? `; all of them: ${o.fullAt}` : ''}.`);
  if (sifted.outOfScope > 0) out.push(`${s(sifted.outOfScope, 'open issue was', 'open issues were')} left out by --new-since/--commit.`);
  if (sifted.undated > 0) out.push(`${s(sifted.undated, 'issue has', 'issues have')} no creation date and counted (fail closed).`);
  if (sifted.uncommitted > 0) out.push(`${s(sifted.uncommitted, 'issue names', 'issues name')} no scan commit and counted (fail closed).`);
  return out;
}

/** What an entry matches, for messages: "iss_123", "rule sql-injection in src/**". */
export function entryLabel(entry: IgnoreEntry): string {
  if (entry.id !== undefined) return entry.id;
  if (entry.fingerprint !== undefined) return `fingerprint ${entry.fingerprint}`;
  return [entry.rule !== undefined ? `rule ${entry.rule}` : 'any rule', entry.path !== undefined ? `in ${entry.path}` : ''].filter(Boolean).join(' ');
}
