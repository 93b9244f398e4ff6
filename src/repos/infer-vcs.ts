/**
 * The `repository-vcs` step of a row's `infer` (`repos resolve-by-url` without --vcs): the provider
 * of the URL, worked out before the call (src/repos/find.ts `inferVcs`), so the request always
 * carries `vcs`. A 404 for a provider svc chose names the URL and the closest linked repositories.
 */
import type { Context } from '../context.js';
import type { Operation } from '../operations/types.js';
import { CliError } from '../core/errors.js';
import { EXIT } from '../core/exit-codes.js';
import { detectCi } from '../ci/detect.js';
import type { Vcs } from '../ci/providers.js';
import { inferVcs, notLinkedError } from './find.js';

const label = (op: Operation) => `${op.group} ${op.name}`;
const org = (body: Record<string, unknown>) => (typeof body.organizationId === 'string' ? { organizationId: body.organizationId } : {});

export const repositoryVcs = {
  async fill(ctx: Context, op: Operation, body: Record<string, unknown>): Promise<void> {
    const url = String(body.repositoryUrl ?? '');
    const ci = detectCi(ctx.env, { disabled: ctx.globals.ci === false });
    const found = await inferVcs(ctx, url, { ...org(body), ...(ci ? { ci } : {}), label: label(op), offline: ctx.globals.dryRun === true });
    if (found === undefined) {
      ctx.warn(`${label(op)}: --vcs not given; without --dry-run svc looks the URL up among the organization's repositories to choose it`);
      return;
    }
    body.vcs = found.vcs;
    ctx.note(`${label(op)}: vcs ${found.vcs} (${found.how})`);
  },
  async failed(ctx: Context, op: Operation, body: Record<string, unknown>, err: unknown): Promise<unknown> {
    if (!(err instanceof CliError) || err.exitCode !== EXIT.NOT_FOUND) return err;
    try {
      return await notLinkedError(ctx, String(body.repositoryUrl), { ...org(body), label: label(op), vcs: body.vcs as Vcs });
    } catch {
      return err;
    }
  },
};
