/**
 * The gate's scope and threshold flags: the scope flags are the issue search's own (taken from its
 * row, so they stay in sync), one --max-<level> flag per level and one for the total; and the scope
 * they give (buildScope). Checking that the scope's ids exist is scope.ts.
 */
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { missingText, type CiInfo } from '../../ci/detect.js';
import type { Env } from '../../core/host.js';
import { issues } from '../../operations/issues.js';
import type { Operation } from '../../operations/types.js';
import { flagSpecs, type FlagSpec } from '../../request/flags.js';
import { buildRequestBody } from '../../request/build.js';
import type { OperationOptions } from '../../request/flags.js';

/** Request fields of the issue search that scope the gate (it always searches `types: ["open"]`). */
const SCOPE_FIELDS = [
  'organizationId', 'repositoryIds', 'scanId', 'projectId', 'codeScanTypes',
  'vulnerabilityClasses', 'languages', 'ruleId', 'searchQuery',
] as const;

export const MAX_FLAGS = ['critical', 'high', 'medium', 'low', 'info', 'total'] as const;

export function searchOperation(): Operation {
  return issues.find((op) => op.name === 'search')!;
}

export function scopeSpecs(): FlagSpec[] {
  const shape = searchOperation().request.shape;
  return flagSpecs(Object.fromEntries(SCOPE_FIELDS.map((k) => [k, shape[k]])));
}

export interface GateFlags {
  specs: FlagSpec[];
  attribute: Map<FlagSpec, string>;
}

/**
 * The search scope of the flags (`types: ["open"]` always), and the body as built from them. With
 * --repository the repository is resolved later (a URL, or auto: run.ts); --dry-run sends nothing,
 * so it only says what it would resolve.
 */
export async function buildScope(ctx: Context, opts: { scope: { flags: GateFlags; values: OperationOptions }; repository?: string; wait?: unknown; commit?: string }, ci: CiInfo | undefined): Promise<{ scope: Record<string, unknown>; built: Record<string, unknown> }> {
  const built = await buildRequestBody(ctx, searchOperation(), opts.scope.flags, opts.scope.values);
  // types: the gate counts open issues, whatever a flag asked for (the key first, as the search body has always listed it).
  const scope: Record<string, unknown> = { types: ['open'] };
  Object.assign(scope, built, { types: ['open'] });
  if (opts.repository !== undefined) {
    if (built.repositoryIds !== undefined) throw new UsageError('give --repository or --repository-ids, not both');
    const v = opts.repository.trim();
    const kind = checkRepositoryFlag(v, ci, ctx.env);
    const resolved = kind === 'auto' ? `<resolved from ${ci!.repositoryUrl}>` : kind === 'url' ? `<resolved from ${v}>` : v;
    scope.repositoryIds = ctx.globals.dryRun ? [resolved] : undefined;
  }
  if (opts.wait && typeof scope.scanId !== 'string' && opts.commit === undefined) throw new UsageError('--wait waits for the scan of --scan-id or --commit, and neither is given', 'add --scan-id or --commit (auto: the commit the CI builds), or drop --wait');
  return { scope, built };
}

/** Checks --repository before anything is sent: what it names, and that `auto` has CI variables to read. */
export function checkRepositoryFlag(value: string, ci: CiInfo | undefined, env: Env): 'id' | 'url' | 'auto' {
  const v = value.trim();
  if (v === '') throw new UsageError('--repository needs a repository id, a URL or auto');
  if (v === 'auto') {
    if (!ci?.repositoryUrl) {
      throw new UsageError(`--repository auto: ${missingText(ci, 'repositoryUrl', env)}`, 'give the repository id or URL, or run in a CI job (see svc help environment)');
    }
    return 'auto';
  }
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(v) || /^[^@/\s]+@[^:/\s]+:/.test(v) ? 'url' : 'id';
}

/** The organization the gate sends and where it came from; none: the token's default. */
export function organizationInUse(ctx: Context, body: Record<string, unknown>): { id?: string; from: string } {
  const sent = typeof body.organizationId === 'string' ? body.organizationId : undefined;
  if (sent === undefined) return { from: "the token's default" };
  const org = ctx.organization();
  return { id: sent, from: sent === org.id && org.from ? org.from : '--organization-id' };
}
