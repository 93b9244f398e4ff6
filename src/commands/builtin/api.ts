/** `svc api <path>`: call any operation, including the groups the spec does not show. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { BODY_LIMIT } from '../../core/input-limit.js';
import { escapeHatchBody } from '../../request/body.js';
import { checkOutput, renderResponse } from '../../output/respond.js';
import { printDryRun } from '../../http/dry-run.js';
import type { Runner } from '../runner.js';

/** `sca/vulnerabilities/search`, `/api/v1/sca/...` or `api/v1/...` -> `/api/v1/sca/...`. */
function apiPath(raw: string): string {
  const rest = raw.trim().replace(/^\/+/, '').replace(/^api\/v1\//, '');
  if (!rest || !/^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/.test(rest)) {
    throw new UsageError(`invalid API path '${raw}'`, 'give it as group/operation, e.g. issues/search or /api/v1/sca/vulnerabilities/search');
  }
  return `/api/v1/${rest}`;
}

interface ApiOptions { field?: string[]; rawField?: string[]; input?: string; safe?: boolean }

export function apiCommand(run: Runner, cmd = new Command('api')): Command {
  const collect = (v: string, prev: string[] | undefined) => [...(prev ?? []), v];
  return cmd
    .description('Call any API operation by path, e.g. the SCA, Rules and Referrals groups')
    .argument('<path>', 'group/operation, with or without /api/v1/')
    .option('-F, --field <key=value>', 'Typed body field: numbers, true/false, null, JSON, @file (repeatable)', collect)
    .option('-f, --raw-field <key=value>', 'String body field (repeatable)', collect)
    .option('--input <file|->', 'Read the JSON body from a file or stdin')
    .option('--safe', 'The call is read-only: retry it like a read on network errors and 5xx')
    .addHelpText('after', [
      '', 'The organization is added from --org / SVC_ORGANIZATION_ID / the profile when the body has none. Without --safe the call is retried only when it provably never reached the server.',
      'Raw: the answer is shown as it came. Only what cannot be read is refused (exit 7: a status other than 200, not JSON, nested too deeply, a key given twice with two values); "ok": false is exit 5. None of the checks of an operation\'s answer (its counts, its items\' scope; docs/security.md) apply.', '',
      'Examples:',
      '  # Search SCA vulnerabilities (an operation the spec does not show)',
      '  $ svc api sca/vulnerabilities/search -F page=1 -F pageSize=50',
      '  # Any operation with a body from a file',
      '  $ svc api /api/v1/issues/search --input body.json --safe',
    ].join('\n') + '\n')
    .action((path: string, o: ApiOptions) => run((ctx) => callApi(ctx, path, o)));
}

async function callApi(ctx: Context, raw: string, o: ApiOptions): Promise<void> {
  const path = apiPath(raw);
  const needsStdin = o.input === '-' || (o.field ?? []).some((f) => f.endsWith('=@-'));
  const stdin = needsStdin ? await ctx.readStdin('stdin', BODY_LIMIT) : '';
  const body = await escapeHatchBody({ cwd: ctx.cwd, readStdin: () => stdin, input: o.input, fields: o.field, rawFields: o.rawField, signal: ctx.signal });
  const org = ctx.organization().id;
  if (org && body.organizationId === undefined) body.organizationId = org;
  await checkOutput(ctx);
  if (ctx.globals.dryRun) { printDryRun(ctx, path, body); return; }
  const client = await ctx.client();
  const data = await ctx.spin(path, () => client.call(path, body, { safe: o.safe === true }));
  try {
    await renderResponse(ctx, { columns: [] }, data, undefined, `svc api ${path.replace(/^\/api\/v1\//, '')}`);
  } catch (err) {
    // --columns is checked against the answer, which exists only once the call is made: a call that
    // may have changed something must not read as "nothing happened".
    if (err instanceof UsageError && o.safe !== true) throw new UsageError(`${err.message}; the call was sent and answered (its answer is not shown)`, err.hint);
    throw err;
  }
}
