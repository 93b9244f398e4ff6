/** A step a row's follow-up flags run after the call (see FollowUp in the operation table). */
import type { Context } from '../context.js';
import type { Operation } from '../operations/types.js';

export interface FollowUpStep {
  /** Checks the follow-up flags before any request is sent (throws a UsageError); returns its settings. */
  prepare(opts: Record<string, unknown>): unknown;
  /** Runs after the call, in place of rendering the response. */
  run(ctx: Context, op: Operation, body: Record<string, unknown>, response: unknown, settings: unknown): Promise<void>;
}
