/** Destructive operations ask on a terminal and need --yes elsewhere. */
import type { IoContext } from '../output/io-context.js';
import { UsageError } from '../core/errors.js';
import type { Operation } from '../operations/types.js';

export async function confirmDestructive(ctx: Pick<IoContext, 'io' | 'globals'>, op: Operation, body: Record<string, unknown>, yes: boolean): Promise<void> {
  if (yes || ctx.globals.dryRun) return;
  const target = ['organizationId', 'repositoryId', 'repositoryIds'].filter((k) => body[k] !== undefined).map((k) => `${k}=${JSON.stringify(body[k])}`).join(' ');
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) {
    throw new UsageError(`'svc ${op.group} ${op.name}' deletes data and needs --yes when not run on a terminal`, 'add --yes to confirm');
  }
  // node:readline is loaded only when there is something to ask.
  const { confirm } = await import('./prompt.js');
  const ok = await confirm(ctx.io, `${op.summary}${target ? ` (${target})` : ''}. This cannot be undone. Continue?`);
  if (!ok) throw new UsageError('cancelled: nothing was changed');
}

/** Ask a yes/no question on the terminal (the caller checked that there is one). */
export async function askYesNo(ctx: Pick<IoContext, 'io' | 'globals'>, question: string): Promise<boolean> {
  const { confirm } = await import('./prompt.js');
  return confirm(ctx.io, question);
}
