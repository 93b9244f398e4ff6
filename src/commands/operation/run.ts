/** The run step of every generated operation command: build and check the body, send it, render. */
import type { Context } from '../../context.js';
import type { FollowUp, Operation, Source } from '../../operations/types.js';
import { fieldMeta, type Schema } from '../../operations/fields.js';
import { UsageError } from '../../errors.js';
import { escapeHatchBody, flagValue, setPath, validateTyped, type Body } from './body.js';
import type { FollowUpStep } from './follow-up.js';
import { argName, type OperationFlags, type OperationOptions } from './flags.js';
import { checkControls } from './values.js';
import { checkOutput, renderResponse } from './respond.js';
import { printDryRun } from '../../http/dry-run.js';
import { confirmDestructive } from '../../terminal/confirm.js';

/** The code of each follow-up step a row can name, loaded only when one of its flags is given. */
const FOLLOW_UPS: Record<FollowUp['step'], () => Promise<FollowUpStep>> = {
  'scan-wait': () => import('./scan-wait.js').then((m) => m.scanWait),
};

export async function runOperation(ctx: Context, op: Operation, flags: OperationFlags, opts: OperationOptions, positional?: string): Promise<void> {
  const wanted = op.followUp && flags.followUp?.some((a) => opts[a] !== undefined);
  const followUp = wanted ? await FOLLOW_UPS[op.followUp!.step]() : undefined;
  const settings = followUp?.prepare(opts);
  const body = await buildRequestBody(ctx, op, flags, opts, positional);
  await checkOutput(ctx, op, opts.all === true && op.pagination !== undefined);
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

export async function buildRequestBody(ctx: Context, op: Operation, flags: OperationFlags, opts: OperationOptions, positional?: string): Promise<Body> {
  const needsStdin = opts.input === '-' || [...(opts.field ?? []), ...Object.values(opts)].some((v) => typeof v === 'string' && /(^|=)@-$/.test(v));
  const stdin = needsStdin ? await ctx.readStdin() : '';
  const src = { cwd: ctx.cwd, readStdin: () => stdin, input: opts.input, fields: opts.field, rawFields: opts.rawField };

  const typed: Body = {};
  for (const spec of flags.specs) {
    const raw = opts[flags.attribute.get(spec)!];
    if (raw === undefined) continue;
    setPath(typed, spec.path, flagValue(spec, raw, src));
  }
  if (op.positional && positional !== undefined) {
    checkControls(argName(op.positional), positional, flags.specs.find((s) => s.path.join('.') === op.positional)?.text);
    const given = typed[op.positional];
    if (given !== undefined && given !== positional) {
      throw new UsageError(`${op.positional} is given twice: '${positional}' and '${String(given)}'`, `pass either ${argName(op.positional)} or its flag`);
    }
    typed[op.positional] = positional;
  }
  const flagOf = (path: PropertyKey[]) => {
    const spec = flags.specs.find((s) => s.path.join('.') === path.map(String).join('.')) ?? flags.specs.find((s) => s.path[0] === path[0]);
    return spec ? `--${spec.flag}` : path.join('.');
  };
  validateTyped(op.request, typed, flagOf);

  const own = escapeHatchBody(src);
  const body = deepMerge(own, typed);
  if ('organizationId' in op.request.shape && body.organizationId === undefined) {
    // A destructive command never picks an organization the user did not name on its command line.
    const org = op.destructive ? (ctx.globals.org ? { id: ctx.globals.org } : {}) : ctx.organization();
    if (org.id) body.organizationId = org.id;
  }
  // A field the spec does not show is never required: when the user's own body (-F/-f/--input) names
  // fields svc has no flag for, it is their reading of the API, sent as given.
  const foreign = Object.keys(own).filter((k) => !(k in op.request.shape));
  for (const key of op.required ?? []) {
    if (body[key] !== undefined && body[key] !== '') continue;
    const spec = flags.specs.find((s) => s.path[0] === key);
    if (foreign.length > 0 && fieldSource(op, key) !== 'spec') {
      ctx.warn(`${key}${spec ? ` (--${spec.flag})` : ''} was not given: svc inferred that field name (the spec does not show it), so the body is sent as you gave it (with ${foreign.join(', ')})`);
      continue;
    }
    const how = [op.positional === key ? argName(key) : '', spec ? `--${spec.flag}` : '', `-F ${key}=...`].filter(Boolean).join(', or ');
    throw new UsageError(`missing ${key}: give ${how}`, `see 'svc ${op.group} ${op.name} --help'`);
  }
  return body;
}

/** Where a request field's name comes from: the spec, the field notes, or svc's inference. */
function fieldSource(op: Operation, key: string): Source {
  const schema = op.request.shape[key];
  return schema ? fieldMeta(schema as Schema).source ?? 'spec' : 'inferred';
}

function deepMerge(base: Body, over: Body): Body {
  const out: Body = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isPlain(b) && isPlain(v) ? deepMerge(b, v) : v;
  }
  return out;
}

function isPlain(v: unknown): v is Body {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
