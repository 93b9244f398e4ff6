/**
 * `svc issues triage`: the open issues of a scope in score order, one screen each, single keys
 * that act at once (each action is the row's own call), `u` that undoes the last action of any kind
 * (a stack, as deep as the walk), `o` the issue as `svc issues get` shows it in a pager, a summary at
 * the end. On a terminal only. The terminal is put back as it was on every way out: q, the end,
 * Ctrl-C (raw mode delivers it as a key: exit 130), a signal, an error.
 */
import { terminalWidth, UNKNOWN_TERMINAL_WIDTH, wallClock } from '../../core/host.js';
import type { Context } from '../../context.js';
import { CliError, InterruptedError, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { issueScreen, type TriageIssue } from './screen.js';
import { checkDone } from '../../output/respond.js';
import { loadGroup } from '../../operations/index.js';
import type { Operation } from '../../operations/types.js';
import { tableRenderers } from '../../output/render.js';
import { choosePager, pageLines, pagerMove, pagerScreen, runPager } from '../../terminal/pager.js';
import { undoPlan, type Action } from './undo.js';
import { actionOf } from '../../answers/checks.js';
import { itemScopeCheck } from '../../answers/item-scope.js';
import { checkAnswerCounts } from '../../answers/search-counts.js';
import { quoted } from '../../core/sanitize.js';
import { callRow } from '../../http/row-call.js';
import { rowOf } from '../../operations/index.js';

interface TriageOptions {
  repositoryIds?: string[];
  searchQuery?: string;
}

/** One action of the walk, as the undo stack keeps it: what was done, where, and the issue before. */
interface Step {
  id: string;
  /** The issue's place in the walk. */
  at: number;
  action: Action;
  before: { status?: string; validated?: string };
}

const ENTER_ALT = '\x1b[?1049h\x1b[?25l';
const LEAVE_ALT = '\x1b[?25h\x1b[?1049l';

export async function runTriage(ctx: Context, o: TriageOptions, resolveRepos: (body: Record<string, unknown>) => Promise<void>): Promise<void> {
  const stdin = ctx.io.stdin as NodeJS.ReadStream;
  const stdout = ctx.io.stdout as NodeJS.WriteStream;
  if (!ctx.io.stdinIsTTY || !ctx.io.stdoutIsTTY || typeof stdin.setRawMode !== 'function') {
    throw new UsageError('svc issues triage works on a terminal only', 'in scripts use the bulk commands: svc issues mark-false-positive|archive|mark-true-positive --ids-from FILE|- (or --where FILTER=VALUE --yes)');
  }
  // Acting on data (answers/checks.ts): an issue the search answered outside its filter is never acted on.
  ctx.doubts.use = 'bulk';
  const client = await ctx.client();
  const org = ctx.organization().id;
  const body: Record<string, unknown> = { types: ['open'], sortBy: 'score', sortOrder: 'desc', page: 1, pageSize: 500, ...(org ? { organizationId: org } : {}) };
  if (o.repositoryIds) body.repositoryIds = o.repositoryIds;
  if (o.searchQuery) body.searchQuery = o.searchQuery;
  await resolveRepos(body);
  const search = await rowOf('issues', 'search');
  const answer = await ctx.spin('issues search (open, by score)', () => callRow(client, search, body, { what: 'issues triage' })) as { issues?: TriageIssue[]; totalCount?: number };
  checkAnswerCounts(search.path, answer, body, 'issues triage', ctx.doubts.report);
  const inScope = itemScopeCheck(search.path, body, 'issues triage', ctx.doubts.report);
  // An issue outside the search's filter (another status, another repository) is skipped and listed, never shown to act on.
  const skipped: string[] = [];
  // An issue without an id (or with an empty one) cannot be acted on: it is not shown.
  const listed = Array.isArray(answer.issues) ? answer.issues.filter((i) => i && typeof i.id === 'string' && i.id !== '') : [];
  const issues = listed.filter((i) => {
    const doubted = inScope?.(i, 1) ?? [];
    if (!doubted.some((c) => actionOf(c, 'bulk') === 'skip')) return true;
    skipped.push(`${i.id} (status ${quoted(String(i.status))}${typeof i.repositoryId === 'string' ? `, repository ${quoted(i.repositoryId)}` : ''})`);
    return false;
  });
  const skippedLine = skipped.length > 0 ? `${skipped.length} issue${skipped.length === 1 ? '' : 's'} the search answered outside its filter (open${o.repositoryIds ? ', the repositories asked for' : ''}) skipped, not acted on: ${skipped.slice(0, 10).join(', ')}${skipped.length > 10 ? ` and ${skipped.length - 10} more` : ''}` : undefined;
  if (issues.length === 0) {
    ctx.note('no open issues in this scope: nothing to triage');
    if (skippedLine) throw new CliError(`triage: ${skippedLine}`, EXIT.PARTIAL, 'the service may ignore the types or repositoryIds filter; nothing was changed');
    return;
  }
  if ((answer.totalCount ?? 0) > issues.length) ctx.warn(`triaging the first ${issues.length} of ${answer.totalCount} open issues, highest score first`);
  const rows = await loadGroup('issues');
  const getRow = rows.find((r) => r.name === 'get') as Operation;

  // Each key's action is its row's call (issues archive, mark-false-positive...); an undo is the row
  // its action's row names (undo.ts).
  const call = (name: string, extra: Record<string, unknown> = {}) => async (id: string) =>
    callRow(client, await rowOf('issues', name), { issueId: id, ...(org ? { organizationId: org } : {}), ...extra })
      // `ok: false` is the service saying it did not do it: a failure of this issue (exit 5), never "done".
      .then((answer) => { checkDone(answer, `issues ${name}`); return answer; });
  /** The issue as the service has it now (after an undo, for `o`), kept for the walk; undefined when that fails. */
  const fetch = async (at: number): Promise<TriageIssue | undefined> => {
    try {
      const fresh = await callRow(client, getRow, { issueId: issues[at].id, ...(org ? { organizationId: org } : {}) }, { what: 'issues triage' }) as TriageIssue;
      if (fresh && typeof fresh === 'object' && fresh.id === issues[at].id) return (issues[at] = fresh);
    } catch (err) {
      if (err instanceof InterruptedError) throw err;
    }
    return undefined;
  };

  const stack: Step[] = [];
  /** What the walk did, for the summary: actions still in effect, and those undone. */
  const tally = new Map<Action, number>();
  const undone = new Map<Action, number>();
  const bump = (m: Map<Action, number>, a: Action, n: number) => m.set(a, (m.get(a) ?? 0) + n);
  const failures: string[] = [];
  let worst: number = EXIT.OK;
  let index = 0;
  let furthest = 0;
  let status = skipped.length > 0 ? `ready (${skipped.length} issue${skipped.length === 1 ? '' : 's'} the search answered outside its filter skipped: listed at the end)` : 'ready';
  let mode: 'issue' | 'reason' | 'detail' = 'issue';
  let reason = '';
  /** Enter was pressed on an empty reason of a false positive. */
  let reasonMissing = false;
  let pendingReason: 'f' | 'a' | undefined;
  let page: { lines: string[]; top: number } | undefined;
  let busy = false;
  let ended = false;
  /** Set while the user's pager runs: aborting it ends the pager. */
  let pagerStop: AbortController | undefined;

  const size = () => ({ w: terminalWidth(ctx) ?? UNKNOWN_TERMINAL_WIDTH, h: stdout.rows || 24 });
  const draw = () => {
    const { w, h } = size();
    let lines: string[];
    if (mode === 'detail' && page) lines = pagerScreen(page.lines, page.top, w, h);
    else {
      const shown = mode === 'reason' ? reasonPrompt(pendingReason === 'f', reason, w, reasonMissing) : status;
      lines = issueScreen(issues[index], { index, total: issues.length }, w, h, shown);
    }
    stdout.write(`\x1b[H\x1b[2J${lines.join('\r\n')}`);
  };

  const failed = (id: string, what: string, err: unknown) => {
    const code = err instanceof CliError ? err.exitCode : EXIT.INTERNAL;
    if (code === EXIT.INTERRUPTED || code === EXIT.TERMINATED) throw err;
    worst = Math.max(worst, code);
    const text = err instanceof Error ? err.message : String(err);
    failures.push(`${id} (${what}: ${text})`);
    status = `${id}: ${what} FAILED: ${text}`;
  };

  const act = async (action: Action, send?: (id: string) => Promise<unknown>) => {
    const issue = issues[index];
    busy = true;
    try {
      if (send) {
        status = `${issue.id}: sending...`;
        draw();
        await send(issue.id);
      }
      stack.push({ id: issue.id, at: index, action, before: { status: issue.status, validated: issue.validated as string | undefined } });
      bump(tally, action, 1);
      status = `${issue.id}: ${action}${send ? ' (done)' : ''}`;
      index++;
      furthest = Math.max(furthest, index);
    } catch (err) {
      failed(issue.id, action, err);
    } finally {
      busy = false;
    }
  };

  /** `u`: the last step of the stack undone, by its inverse where the API has one; back at its issue. */
  const undo = async () => {
    const last = stack[stack.length - 1];
    if (!last) { status = 'nothing to undo'; return; }
    const how = undoPlan(last.action, rows, last.before);
    index = last.at;
    if (how.call) {
      busy = true;
      status = `${last.id}: undoing ${last.action} (${how.call})...`;
      draw();
      try {
        await call(how.call)(last.id);
      } catch (err) {
        failed(last.id, `undo ${last.action}`, err);
        return;
      } finally {
        busy = false;
      }
      stack.pop();
      bump(tally, last.action, -1);
      bump(undone, last.action, 1);
      // What the service says now: the spec states no transitions, so svc does not assume them.
      const now = await fetch(last.at);
      status = `${last.id}: ${last.action} undone (${how.call}): ${now ? `now ${now.status ?? 'without a status'}` : 'its status now is unknown (issues get failed)'}`;
      return;
    }
    // Nothing to send: a skip is taken back; what the API cannot take back stays, and is said.
    stack.pop();
    if (last.action === 'skipped') {
      bump(tally, last.action, -1);
      status = `${last.id}: back to it (it was skipped)`;
      return;
    }
    status = `${last.id}: back to it; ${how.stays}`;
  };

  /** `o`: the issue as `svc issues get` shows it, in the user's pager or svc's own. */
  const detail = async () => {
    busy = true;
    const before = status;
    status = `${issues[index].id}: reading it...`;
    draw();
    let text: string;
    try {
      // The walk's copy (the search's record) when the service cannot be asked again.
      const record = (await fetch(index)) ?? issues[index];
      const { detailView } = await tableRenderers();
      text = await detailView(record, getRow.detail!, { width: size().w, color: ctx.color, pretty: true, now: wallClock(ctx) });
    } finally {
      busy = false;
    }
    const pager = choosePager(ctx.env, ctx.platform);
    if (pager.kind === 'command') {
      // The pager owns the terminal until it ends: raw mode off, svc's reading paused, then both back.
      stdin.off('data', onKey);
      stdin.setRawMode(false);
      stdin.pause();
      stdout.write('\x1b[H\x1b[2J\x1b[?25h');
      // A Ctrl-C meanwhile reaches the pager too (less takes it as its own): the walk ends once the
      // pager has, and holds the exit until then; SIGTERM or a second signal ends the pager.
      const held = ctx.hold?.();
      pagerStop = new AbortController();
      const stopPager = () => pagerStop?.abort();
      held?.stop.addEventListener('abort', stopPager, { once: true });
      let why: string | undefined;
      try {
        why = await runPager(pager.command, text, ctx.env, pagerStop.signal);
      } finally {
        held?.stop.removeEventListener('abort', stopPager);
        pagerStop = undefined;
        held?.release();
      }
      stdout.write(ENTER_ALT);
      stdin.setRawMode(true);
      stdin.resume();
      stdin.on('data', onKey);
      if (ctx.signal.aborted) throw new InterruptedError(ctx.signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');
      if (!why) { status = before; return; }
      status = `${pager.from}: '${pager.command}' failed (${why}); svc's pager instead`;
    }
    else status = before;
    page = { lines: pageLines(text, size().w), top: 0 };
    mode = 'detail';
  };

  stdin.setRawMode(true);
  stdin.resume();
  stdout.write(ENTER_ALT);
  const onResize = () => {
    // The detail is laid out for the width: again at the new one, from the same place.
    if (page) page.lines = pageLines(page.lines.join('\n'), size().w);
    draw();
  };
  stdout.on('resize', onResize);
  let finish!: (err?: unknown) => void;
  const finished = new Promise<void>((resolve, reject) => { finish = (err) => { ended = true; if (err) reject(err); else resolve(); }; });
  const onAbort = () => {
    // With a pager running the walk ends when the pager has (detail() throws then); SIGTERM ends it now.
    if (pagerStop) { if (ctx.signal.reason === 'SIGTERM') pagerStop.abort(); return; }
    finish(new InterruptedError(ctx.signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT'));
  };
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  function onKey(data: Buffer) {
    const key = data.toString('utf8');
    if (key === '\x03') return finish(new InterruptedError('SIGINT'));
    if (busy || ended) return;
    void handle(key).then(() => {
      if (ended) return;
      if (index >= issues.length) return finish();
      draw();
    }, finish);
  }
  const handle = async (key: string) => {
    if (mode === 'detail' && page) {
      const { h } = size();
      const to = pagerMove(key, page.top, page.lines.length, h);
      if (to === 'back') { mode = 'issue'; page = undefined; } else if (to !== undefined) page.top = to;
      return;
    }
    if (mode === 'reason') {
      // Typed (or pasted) a character at a time: Enter sends, Esc cancels, Backspace erases.
      for (const ch of key) {
        if (ch === '\r' || ch === '\n') {
          const text = reason.trim();
          // A false positive says why: the reason is what a later reader (and an audit) goes by.
          if (pendingReason === 'f' && !text) { reasonMissing = true; return; }
          mode = 'issue';
          const extra = text ? { falsePositiveReason: text } : {};
          if (pendingReason === 'f') await act('false positive', call('mark-false-positive', extra));
          else await act('archived', call('archive', extra));
          return;
        }
        if (ch === '\x1b') { mode = 'issue'; status = 'cancelled'; return; }
        if (ch === '\x7f' || ch === '\b') reason = reason.slice(0, -1);
        // eslint-disable-next-line no-control-regex
        else if (!/[\u0000-\u001f\u007f]/.test(ch)) reason += ch;
      }
      return;
    }
    switch (key) {
      case 'f': case 'a': mode = 'reason'; reason = ''; reasonMissing = false; pendingReason = key; return;
      case 't': return act('true positive', call('mark-true-positive'));
      case 'p': return act('patch requested', call('generate-patch'));
      case 's': return act('skipped');
      case 'o': return detail();
      case 'u': return undo();
      case 'q': return finish();
      default: status = `unknown key '${key.replace(/[^\x20-\x7e]/g, '?')}'`;
    }
  };
  stdin.on('data', onKey);
  draw();
  try {
    await finished;
  } finally {
    stdin.off('data', onKey);
    stdout.off('resize', onResize);
    ctx.signal.removeEventListener('abort', onAbort);
    stdin.setRawMode(false);
    stdin.pause();
    stdout.write(LEAVE_ALT);
    ctx.note(summary(tally, undone, failures, issues.length - furthest));
  }
  if (failures.length) throw new CliError(`${failures.length} action${failures.length === 1 ? '' : 's'} failed: ${failures.slice(0, 5).join(', ')}${skippedLine ? `; ${skippedLine}` : ''}`, worst as never);
  if (skippedLine) throw new CliError(`triage: ${skippedLine}`, EXIT.PARTIAL, 'the service may ignore the types or repositoryIds filter');
}

/** The reason prompt, its end in view when the reason is longer than the line. */
function reasonPrompt(falsePositive: boolean, reason: string, width: number, missing: boolean): string {
  const prompt = missing
    ? 'A false positive needs a reason (Esc cancels): '
    : `Reason (${falsePositive ? 'false positive, required' : 'archive, optional'}), Enter sends, Esc cancels: `;
  const room = width - prompt.length - 1;
  return reason.length > room && room > 1 ? `${prompt}…${reason.slice(reason.length - room + 1)}` : `${prompt}${reason}`;
}

/** `triage: 2 false positive, 1 skipped; undone: 1 archived; 37 not reached`. */
function summary(tally: Map<Action, number>, undone: Map<Action, number>, failures: string[], left: number): string {
  const parts = [...tally].filter(([, n]) => n > 0).map(([a, n]) => `${n} ${a}`);
  if (failures.length) parts.push(`${failures.length} failed`);
  const back = [...undone].filter(([, n]) => n > 0).map(([a, n]) => `${n} ${a}`);
  return `triage: ${parts.join(', ') || 'nothing done'}${back.length ? `; undone: ${back.join(', ')}` : ''}; ${left} not reached`;
}
