/**
 * The doubts of one run: every check of the table (checks.ts) that found something reports it here
 * (`add`), and what happens is the table's action for the run's use. A refusal throws at once (exit 7);
 * every other doubt is kept, and said at the end as ONE warning line per kind (`lines`, `--verbose`:
 * each item and the reason). The gate asks which doubts stop a PASS (`stopping`).
 *
 * Memory: a kind keeps its first DETAILS_KEPT details and counts the rest, so a listing of 100,000
 * issues that all carry one doubt costs a counter.
 */
import { CliError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { BASES, actionOf, checkOf, type Action, type CheckId, type Use } from './checks.js';

/** Details kept per kind (the rest are counted). */
const DETAILS_KEPT = 50;
/** Details named in the one warning line of a kind. */
const DETAILS_SAID = 3;

/** An answer refused by a check of the table: exit 7, the table's "bad answer". */
export class AnswerRefusedError extends CliError {
  constructor(message: string, readonly check: CheckId, hint?: string) {
    super(message, EXIT.BAD_RESPONSE, hint);
  }
}

/** How a check reports what it found: the row, what was being read ("issues search"), the item or value. */
export type Report = (id: CheckId, what: string, detail: string, hint?: string) => void;

/** One kind of doubt of this run: a row of the table and what it found. */
export interface Kind {
  id: CheckId;
  action: Action;
  /** The use it was found in. */
  use: Use;
  /** What was being read when it was first found ("issues search", "gate"). */
  what: string;
  details: string[];
  /** How many times it was found (details beyond DETAILS_KEPT are only counted). */
  times: number;
}

const HINTS: Record<string, string> = {
  pages: 'the listing is incomplete, so nothing was reported as complete; run again',
  default: 'the service (or something between it and svc) sent an answer svc cannot read; check the base URL and any proxy; --verbose shows the answer',
};

/** The refusal of a doubt of `id`: its message names what was read and what was found. */
export function refusal(id: CheckId, what: string, detail: string, hint?: string): AnswerRefusedError {
  const basis = checkOf(id).basis;
  return new AnswerRefusedError(`${what}: ${detail}`, id, hint ?? HINTS[basis] ?? HINTS.default);
}

/** Without a run's doubts (a client made alone, tests): refuses what a read command refuses, and says nothing else. */
export const readOnly: Report = (id, what, detail, hint) => {
  if (actionOf(id, 'read') === 'refuse') throw refusal(id, what, detail, hint);
};

/** What the one line of a kind says svc did, per action (a warning: per use). */
const DONE: Record<Exclude<Action, 'warn'>, string> = {
  refuse: 'refused',
  stop: 'no PASS on it',
  count: 'counted, fail closed',
  pending: 'taken as not finished',
  skip: 'not acted on',
};
const WARNED: Record<Use, string> = {
  read: 'shown as it came',
  all: 'shown as it came',
  gate: 'it hides no breaking issue: decided',
  bulk: 'used as it came',
};

export class Doubts {
  private readonly kinds = new Map<CheckId, Kind>();
  /** Kinds already said (by the gate's summary, or a flush). */
  private readonly said = new Set<CheckId>();

  /** `use`: where this run's answers are used (a command sets it before its first call). */
  constructor(public use: Use = 'read') {}

  /**
   * A check found a doubt. Refused in this use: throws (exit 7). Otherwise kept (a check that does not
   * apply to this use is dropped), and the action is returned (`skip` for a bulk action, `count`...).
   */
  add(id: CheckId, what: string, detail: string, hint?: string): Action | undefined {
    const action = actionOf(id, this.use);
    if (action === undefined) return undefined;
    if (action === 'refuse') throw refusal(id, what, detail, hint);
    let kind = this.kinds.get(id);
    if (!kind) {
      kind = { id, action, use: this.use, what, details: [], times: 0 };
      this.kinds.set(id, kind);
    }
    // One answer checked twice (page 1 of --all: as a page, and as the listing's shape) is one doubt.
    if (kind.details.includes(detail)) return action;
    kind.times++;
    if (kind.details.length < DETAILS_KEPT) kind.details.push(detail);
    return action;
  }

  /** The report function of this run (what the HTTP client and the listing engine call). */
  readonly report: Report = (id, what, detail, hint) => { this.add(id, what, detail, hint); };

  /** The kinds found so far, in the order first found (with `action`: only those). */
  found(action?: Action): Kind[] {
    return [...this.kinds.values()].filter((k) => action === undefined || k.action === action);
  }

  /** The kinds that stop the gate's PASS. */
  stopping(): Kind[] {
    return this.found('stop');
  }

  /** A kind said elsewhere (the gate's error names it): not said again. */
  markSaid(id: CheckId): void {
    this.said.add(id);
  }

  /** Whether a doubt of `id` was found. */
  has(id: CheckId): boolean {
    return this.kinds.has(id);
  }

  /**
   * One line per kind not said yet (marked said), as `warning:` lines say them; with `verbose`, each
   * kept detail and the reason on lines of their own below it.
   */
  take(verbose = false): string[] {
    const out: string[] = [];
    for (const kind of this.kinds.values()) {
      if (this.said.has(kind.id)) continue;
      this.said.add(kind.id);
      out.push(kindLine(kind));
      if (verbose) out.push(...kindDetails(kind));
    }
    return out;
  }
}

/**
 * The one line of a kind: what was read, the first items found, and in brackets the check (its row of
 * the table, docs/security.md), its basis and what svc did.
 */
export function kindLine(kind: Kind): string {
  const row = checkOf(kind.id);
  const shown = kind.details.slice(0, DETAILS_SAID).join('; ');
  const more = kind.times - Math.min(kind.details.length, DETAILS_SAID);
  const done = kind.action === 'warn' ? WARNED[kind.use] : DONE[kind.action];
  return `${kind.what}: ${shown}${more > 0 ? ` (and ${more} more)` : ''} [${kind.id}, ${BASES[row.basis]}; ${done}; --verbose says more]`;
}

/** What --verbose adds below a kind's line: the doubt, every kept item, and why svc doubts it. */
function kindDetails(kind: Kind): string[] {
  const row = checkOf(kind.id);
  const lines = [`  ${kind.id}: ${row.doubt}`, ...kind.details.map((d) => `  - ${d}`)];
  if (kind.times > kind.details.length) lines.push(`  - and ${kind.times - kind.details.length} more`);
  lines.push(`  why: ${row.why} (docs/security.md)`);
  return lines;
}
