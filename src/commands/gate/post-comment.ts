/**
 * `svc gate --comment`: after the verdict (or the failure to reach one), post the gate's summary as
 * one sticky comment on the pull request the CI builds (src/ci/sticky-comment.ts). Never changes the
 * gate's exit code: every problem (not a pull request, no token, 401/403/404, network) is one line
 * on stderr. The token is made a secret of the run, so no line can print it.
 */
import { readFile } from 'node:fs/promises';
import type { Context } from '../../context.js';
import { eventFileOf, pullRequestOf } from '../../ci/pull-request.js';
import { detectCi, type CiInfo } from '../../ci/detect.js';
import { CommentError, postStickyComment } from '../../ci/sticky-comment.js';
import { scrub } from '../../http/redact.js';

/** The event file's JSON, or undefined (host A's pull request number when the ref does not say it). */
async function readEvent(ci: CiInfo | undefined): Promise<unknown> {
  const path = eventFileOf(ci);
  if (path === undefined) return undefined;
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return undefined;
  }
}

export async function postComment(ctx: Context, text: string): Promise<void> {
  const ci = detectCi(ctx.env, { disabled: ctx.globals.ci === false });
  const pr = pullRequestOf(ci, ctx.env, await readEvent(ci));
  if (!pr) {
    ctx.note('svc gate: --comment: not a pull request build of a CI svc knows: no comment posted');
    return;
  }
  if ('missing' in pr.comments) {
    ctx.note(`svc gate: --comment: ${pr.comments.missing}: no comment posted`);
    return;
  }
  const target = pr.comments;
  if (target.token) ctx.addSecret?.(target.token);
  const where = `${pr.name}'s pull request ${target.repository}#${target.number}`;
  try {
    const r = await postStickyComment(target, text, { env: ctx.env, userAgent: `svc/${ctx.version}`, signal: ctx.signal });
    const passed = r.skipped > 0 ? ` (passed over ${r.skipped} marked comment${r.skipped === 1 ? '' : 's'} that ${r.skipped === 1 ? 'is' : 'are'} not the token's own)` : '';
    ctx.note(`svc gate: ${r.action} the comment${r.id ? ` ${r.id}` : ''} on ${where}${passed}`);
  } catch (err) {
    const why = err instanceof CommentError ? err.message : err instanceof Error ? err.message : String(err);
    ctx.warn(scrub(`--comment: could not post the comment on ${where}: ${why} (the verdict stands)`, [target.token, ...ctx.secrets()]));
  }
}
