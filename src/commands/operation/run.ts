/** The run step of every generated operation command: build and check the body, send it, render. */
import type { Context } from '../../context.js';
import type { FollowUp, Operation } from '../../operations/types.js';
import { buildRequestBody } from '../../request/build.js';
import type { FollowUpStep } from '../../request/follow-up.js';
import type { OperationFlags, OperationOptions } from '../../request/flags.js';
import { checkOutput, renderResponse } from '../../output/respond.js';
import { printDryRun } from '../../http/dry-run.js';
import { confirmDestructive } from '../../terminal/confirm.js';

/** The code of each follow-up step a row can name, loaded only when one of its flags is given. */
const FOLLOW_UPS: Record<FollowUp['step'], () => Promise<FollowUpStep>> = {
  'scan-wait': () => import('../../scans/wait.js').then((m) => m.scanWait),
};

export async function runOperation(ctx: Context, op: Operation, flags: OperationFlags, opts: OperationOptions, positional?: string): Promise<void> {
  const wanted = op.followUp && flags.followUp?.some((a) => opts[a] !== undefined);
  const followUp = wanted ? await FOLLOW_UPS[op.followUp!.step]() : undefined;
  const settings = followUp?.prepare(opts);
  const body = await buildRequestBody(ctx, op, flags, opts, positional);
  await checkOutput(ctx, op);
  if (op.destructive) await confirmDestructive(ctx, op, body, opts.yes === true);
  if (ctx.globals.dryRun) {
    printDryRun(ctx, op.path, body);
    return;
  }
  if (opts.all && op.pagination) {
    // The --all engine (pager, heap settings) is evaluated only when --all is given.
    const { runAllPages } = await import('../../listing/paginate.js');
    await runAllPages(ctx, op, body, opts);
    return;
  }
  const client = await ctx.client();
  const data = await ctx.spin(`${op.group} ${op.name}`, () => client.call(op.path, body, { safe: op.safe }));
  if (followUp) await followUp.run(ctx, op, body, data, settings);
  else await renderResponse(ctx, op, data, body);
  if (op.explain && ctx.format() === 'table') for (const line of await op.explain(body)) ctx.note(line);
}
