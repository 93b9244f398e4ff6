/**
 * When the gate reaches no PASS on what it read: a doubt that could hide a breaking issue (answers/
 * checks.ts, action `stop`) is exit 7 naming it, and the counts above the listing name the one
 * setting that resolves them (--counts wide). Each kind of doubt the run raised, as the verdict lists it.
 */
import type { Context } from '../../context.js';
import { CliError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { kindLine, type Kind } from '../../answers/doubts.js';
import { checkOf } from '../../answers/checks.js';
import type { CountsScope } from '../../gate/policy-file.js';
import type { DoubtData } from '../../gate/verdict.js';
import type { GateOptions } from './options.js';
import type { GateSetup } from './setup.js';

/** What the service's categoryCounts are taken to count, and where that came from. */
export interface CountsSetting { scope: CountsScope; from: string }

/** --counts, else the policy file's `counts:`, else narrow (svc's inference). */
export function countsScope(opts: GateOptions, setup: GateSetup): CountsSetting {
  if (opts.counts !== undefined) return { scope: opts.counts, from: '--counts' };
  if (setup.policy?.counts !== undefined) return { scope: setup.policy.counts, from: setup.policy.file };
  return { scope: 'narrow', from: 'default' };
}

/** Each kind of doubt the run's answers raised, as the verdict lists it. */
export function doubtData(ctx: Context): DoubtData[] {
  return ctx.doubts.found().map((k) => ({ check: k.id, action: k.action, line: kindLine(k), times: k.times, details: k.details.slice(0, 10) }));
}

/**
 * No PASS: what was read breaks no threshold, but a doubt could hide an issue that would (answers/
 * checks.ts, action `stop`): exit 7 naming it. Counts above the listing name the setting that tells
 * svc this service counts categories over a wider scope.
 */
export function noPass(ctx: Context, stops: readonly Kind[], counts: CountsSetting): CliError {
  // The counts first: the one doubt a setting resolves.
  const first = stops.find((k) => k.id === 'counts-above-total') ?? stops[0];
  const others = stops.filter((k) => k !== first);
  // Named here, so not said again as a warning (the others are, above the error).
  ctx.doubts.markSaid(first.id);
  const said = `${first.details[0]}${first.times > 1 ? ` (and ${first.times - 1} more)` : ''}`;
  const more = others.length > 0 ? `; and ${others.length} more kind${others.length === 1 ? '' : 's'} of doubt (above: ${others.map((k) => k.id).join(', ')})` : '';
  const hint = first.id === 'counts-above-total'
    ? `svc infers that categoryCounts count the search's scope (the spec does not say); if this service counts them over a wider scope (the organization's), say so with --counts wide, or counts: wide in .svc-policy.yml (now: ${counts.scope}, from ${counts.from}); the setting is recorded in the summary and in -o json`
    : `no issue read breaks a threshold, but this doubt could hide one (${first.id}: ${checkOf(first.id).doubt}; docs/security.md; --verbose says more)`;
  // The setting is named in the message itself, which the CI step summary and the reports carry too.
  const setting = first.id === 'counts-above-total' ? ' (counts say more issues exist than were listed; a service whose categoryCounts count a wider scope: --counts wide)' : '';
  return new CliError(`gate: no PASS: ${said}${setting}${more}`, EXIT.BAD_RESPONSE, hint);
}
