/** Flags, positional, -F/-f and --input to one request body, checked against the row's schema. */
import type { Context } from '../context.js';
import type { Operation, Source } from '../operations/types.js';
import { fieldMeta, type Schema } from '../operations/fields.js';
import { UsageError } from '../core/errors.js';
import { BODY_LIMIT } from '../core/input-limit.js';
import { escapeHatchBody, flagValue, readSource, setPath, validateTyped, type Body } from './body.js';
import { argName, fromFileAttribute, type OperationFlags, type OperationOptions } from './flags.js';
import { checkControls } from './values.js';
import { resolveRepositoryFields } from './repository-names.js';

export async function buildRequestBody(ctx: Context, op: Operation, flags: OperationFlags, opts: OperationOptions, positional?: string): Promise<Body> {
  // The flags the command has options for: every one, or none for a command line of global flags only
  // (commands/operation/command.ts), whose row's specs are then made only where an error names one.
  const given = [...flags.attribute];
  const fromFile = given.filter(([s]) => s.fromFile && opts[fromFileAttribute(s)] !== undefined).map(([s, attribute]) => ({ spec: s, attribute }));
  const needsStdin = opts.input === '-' || fromFile.some(({ spec }) => opts[fromFileAttribute(spec)] === '-')
    || [...(opts.field ?? []), ...Object.values(opts)].some((v) => typeof v === 'string' && /(^|=)@-$/.test(v));
  const stdin = needsStdin ? await ctx.readStdin('stdin', BODY_LIMIT) : '';
  const src = { cwd: ctx.cwd, readStdin: () => stdin, input: opts.input, fields: opts.field, rawFields: opts.rawField, signal: ctx.signal };

  const typed: Body = {};
  for (const [spec, attribute] of given) {
    const raw = opts[attribute];
    if (raw === undefined) continue;
    setPath(typed, spec.path, await flagValue(spec, raw, src));
  }
  for (const { spec, attribute } of fromFile) {
    const ref = String(opts[fromFileAttribute(spec)]);
    if (opts[attribute] !== undefined) throw new UsageError(`--${spec.flag} and --${spec.flag}-from are both given`, 'give one of them');
    // The file's text, without the line end an editor or `echo` adds.
    const text = (await readSource(ref, `--${spec.flag}-from`, src)).replace(/\r?\n$/, '');
    checkControls(`--${spec.flag}-from ${ref}`, text, spec.text);
    setPath(typed, spec.path, text);
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
    // A bad value typed as the argument is named as the argument (`svc issues get ""`: ISSUE_ID, not --issue-id).
    if (op.positional && positional !== undefined && String(path[0]) === op.positional) return argName(op.positional);
    const spec = flags.specs.find((s) => s.path.join('.') === path.map(String).join('.')) ?? flags.specs.find((s) => s.path[0] === path[0]);
    return spec ? `--${spec.flag}` : path.join('.');
  };
  validateTyped(op.request, typed, flagOf);

  const own = await escapeHatchBody(src);
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
    // Worked out by the row's step before the call (commands/operation/run.ts).
    if (op.infer?.field === key) continue;
    const spec = flags.specs.find((s) => s.path[0] === key);
    if (foreign.length > 0 && fieldSource(op, key) !== 'spec') {
      ctx.warn(`${key}${spec ? ` (--${spec.flag})` : ''} was not given: svc inferred that field name (the spec does not show it), so the body is sent as you gave it (with ${foreign.join(', ')})`);
      continue;
    }
    const how = [op.positional === key ? argName(key) : '', spec ? `--${spec.flag}` : '', `-F ${key}=...`].filter(Boolean).join(', or ');
    throw new UsageError(`missing ${key}: give ${how}`, `see 'svc ${op.group} ${op.name} --help'`);
  }
  // Repository names, owner/name and URLs to ids (one `repositories/list` for the run).
  await resolveRepositoryFields(ctx, body, (field) => {
    const spec = flags.specs.find((s) => s.path[0] === field);
    return op.positional === field ? `${argName(field)}/--${spec?.flag ?? field}` : spec ? `--${spec.flag}` : field;
  });
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
