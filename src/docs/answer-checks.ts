/**
 * docs/security.md's list of what svc does not trust in an answer, generated from the one table of
 * checks (src/answers/checks.ts) by `npm run docs`; test/unit/completion/generated.test.ts fails when
 * the file is stale.
 */
import { BASES, USES, checkIds, checkTable, type Action, type AnswerCheck, type Basis, type Use } from '../answers/checks.js';

const USE_NAMES: Record<Use, string> = { read: 'read', all: '--all', gate: 'gate', bulk: 'bulk' };

const ACTION_NAMES: Record<Action, string> = {
  refuse: 'refused (7)',
  warn: 'warning',
  stop: 'no PASS (7)',
  count: 'counted, named',
  pending: 'pending (8)',
  skip: 'skipped (10)',
};

/** How the doc counts the rows of a basis. */
const COUNTED: Record<Basis, string> = {
  spec: 'stated by the spec (or its field notes)',
  request: 'comparing the request with the answer',
  pages: 'comparing the pages of one listing',
  absent: 'on a field absent',
  inferred: 'on relations the spec never states (inferred)',
};

/** Markdown text of a row's field: one line, `|` escaped for a table cell. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

export function answerChecksMarkdown(): string {
  const rows = checkIds().map((id) => [id, checkTable()[id] as AnswerCheck] as const);
  const byBasis = new Map<Basis, number>();
  for (const [, row] of rows) byBasis.set(row.basis, (byBasis.get(row.basis) ?? 0) + 1);
  const counts = (Object.keys(BASES) as Basis[]).map((b) => `${byBasis.get(b) ?? 0} ${COUNTED[b]}`);
  const out: string[] = [
    '<!-- Generated from src/answers/checks.ts by `npm run docs`: do not edit here. A test fails when it is stale. -->',
    '',
    `${rows.length} checks: ${counts.join(', ')}. Each is declared once, with its basis and what svc does where it applies:`,
    '',
    '- **read**: a read command, one call (`issues search`, `stats ...`, `orgs list`, `scans list`); **--all**: every page of a',
    '  listing; **gate**: `svc gate`, its listing and its lookups; **bulk**: acting on data (a bulk action with `--where`,',
    '  `--ids-from` or several ids, `issues triage`, any change, `scans start --wait`).',
    '- **refused (7)**: exit 7, nothing shown or used (the gate: no verdict, but a FAIL read before stands); **warning**: shown',
    '  or used as it came, one warning line per kind on stderr (`--verbose` says more; the gate: also in its summary and the',
    '  CI step summary); **no PASS (7)**: the gate reads on, and exits 7 naming the doubt unless a FAIL is proven;',
    '  **counted, named**: the gate counts the issue, fail closed, and names it; **pending (8)**: no verdict yet;',
    '  **skipped (10)**: a bulk action does not act on the item, lists it, and ends with exit 10.',
    '- `svc api` is raw: it has no row, so it shows the answer as it came. Only what it cannot read is refused (`status`,',
    '  `not-json`, `too-deep`, `key-twice`); `key-repeated` and `error-beside-data` are warnings; `ok: false` is exit 5.',
    '- A check whose basis is **inferred** rests on a relation the spec never states; its reason says the inference (and so',
    '  does the code: look for "inference:").',
    '',
    `| Check | Basis | ${USES.map((u) => USE_NAMES[u]).join(' | ')} |`,
    `|---|---|${USES.map(() => '---').join('|')}|`,
  ];
  for (const [id, row] of rows) {
    out.push(`| \`${id}\`: ${cell(row.doubt)} | ${BASES[row.basis]} | ${USES.map((u) => (row.on[u] ? ACTION_NAMES[row.on[u]!] : '-')).join(' | ')} |`);
  }
  out.push('', 'Each check, why svc doubts it, and the answers that trip it:', '');
  for (const [id, row] of rows) {
    out.push(`- \`${id}\` (${BASES[row.basis]}): ${row.why}.`);
    if (row.plausible) out.push(`  A plausible answer: ${row.plausible}.`);
    if (row.lie) out.push(`  The lie it stops: ${row.lie}.`);
  }
  out.push('', 'Tests: `test/e2e/answer-checks.test.ts` holds a test per row (its plausible answer and its lie).');
  return out.join('\n');
}
