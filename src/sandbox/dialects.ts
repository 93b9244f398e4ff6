/**
 * Dialects: answers a plausible real service may give where the spec leaves room (a field it does
 * not show, a relation it never states). The default sandbox answers the most literal reading of
 * the spec; `svc sandbox --dialect NAME[,NAME]` (startSandbox({ dialects })) answers in the named
 * ones too, so a client, a CI pipeline or svc's own tests can be run against each. Each is one habit
 * of a service, never a lie: the data is the same, only how it is told differs (docs/sandbox.md).
 */

interface DialectSpec {
  name: string;
  /** One line: what changes in the answers (help, docs). */
  summary: string;
}

export const DIALECTS = [
  {
    name: 'wide-counts',
    summary: "issues search counts categoryCounts and totalCountAllCategories over the organization, not over the search's filters (totalCount still counts the page's filters)",
  },
  {
    name: 'redetect',
    summary: 'an issue a later full scan found again keeps the id of the first full scan of its repository in codeScan.id (half of the issues of every full scan but the first); a search by scanId still finds it under the scan that found it',
  },
  {
    name: 'sparse-counts',
    summary: 'issues search leaves the statuses with no issue out of categoryCounts instead of giving 0',
  },
  {
    name: 'status-words',
    summary: "scans list says a finished scan's status as succeeded or done (alternately, beside finished: true) instead of completed",
  },
  {
    name: 'no-counts',
    summary: 'issues search ignores getCounts: no categoryCounts, ever (totalCount and totalCountAllCategories as usual)',
  },
] as const satisfies readonly DialectSpec[];

export type Dialect = (typeof DIALECTS)[number]['name'];

export const DIALECT_NAMES: readonly Dialect[] = DIALECTS.map((d) => d.name);

/**
 * `wide-counts,redetect` (a list, or several lists) -> the dialects; an unknown name throws naming
 * the known ones. Empty names (`a,,b`, a trailing comma) are an error too: they are typos.
 */
export function parseDialects(raw: string | readonly string[]): Dialect[] {
  const names = (Array.isArray(raw) ? raw : [raw]).flatMap((s: string) => s.split(',')).map((s) => s.trim());
  const out: Dialect[] = [];
  for (const name of names) {
    if (!(DIALECT_NAMES as readonly string[]).includes(name)) {
      throw new Error(`unknown dialect ${name === '' ? '(an empty name)' : `'${name}'`}: the dialects are ${DIALECT_NAMES.join(', ')}`);
    }
    if (!out.includes(name as Dialect)) out.push(name as Dialect);
  }
  return out;
}
