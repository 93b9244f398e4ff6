/**
 * `svc issues triage`: the open issues of a scope in score order, one screen each, single keys
 * that act at once (each action is the row's own call), undo of an archive (`issues/unarchive`,
 * field notes), a summary at the end. On a terminal only. The terminal is put back as it was on
 * every way out: q, the end, Ctrl-C (raw mode delivers it as a key: exit 130), a signal, an error.
 */
import { terminalWidth, UNKNOWN_TERMINAL_WIDTH } from '../../core/host.js';
import type { Context } from '../../context.js';
import { CliError, InterruptedError, UsageError } from '../../core/errors.js';
import { EXIT } from '../../core/exit-codes.js';
import { detailScreen, issueScreen, type TriageIssue } from './screen.js';
import { checkDone } from '../../output/respond.js';
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

/** What was done to an issue, for undo and the summary. */
interface Done {
  id: string;
  action: 'false positive' | 'true positive' | 'archived' | 'patch requested' | 'skipped' | 'failed' | 'unarchived';
}

/** The rows triage's keys call. */
type TriageAction = 'archive' | 'unarchive' | 'mark-false-positive' | 'mark-true-positive' | 'generate-patch';

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

  // Each key's action is its row's call (issues archive, mark-false-positive...).
  const call = (name: TriageAction, extra: Record<string, unknown> = {}) => async (id: string) =>
    callRow(client, await rowOf('issues', name), { issueId: id, ...(org ? { organizationId: org } : {}), ...extra })
      // `ok: false` is the service saying it did not do it: a failure of this issue (exit 5), never "done".
      .then((answer) => { checkDone(answer, `issues ${name}`); return answer; });
  const done: Done[] = [];
  const failures: string[] = [];
  let worst: number = EXIT.OK;
  let index = 0;
  let status = skipped.length > 0 ? `ready (${skipped.length} issue${skipped.length === 1 ? '' : 's'} the search answered outside its filter skipped: listed at the end)` : 'ready';
  let mode: 'issue' | 'detail' | 'reason' = 'issue';
  let reason = '';
  let pendingReason: 'f' | 'a' | undefined;
  let busy = false;
  let ended = false;
  let undone = 0;

  const size = () => ({ w: terminalWidth(ctx) ?? UNKNOWN_TERMINAL_WIDTH, h: stdout.rows || 24 });
  const draw = () => {
    const { w, h } = size();
    let lines: string[];
    if (mode === 'detail') lines = detailScreen(issues[index], w, h);
    else {
      const shown = mode === 'reason' ? `Reason (${pendingReason === 'f' ? 'false positive' : 'archive'}), Enter to send, Esc to cancel: ${reason}` : status;
      lines = issueScreen(issues[index], { index, total: issues.length }, w, h, shown);
    }
    stdout.write(`\x1b[H\x1b[2J${lines.join('\r\n')}`);
  };

  const act = async (label: Done['action'], send: (id: string) => Promise<unknown>, advance = true) => {
    const id = issues[index].id;
    busy = true;
    status = `${id}: sending...`;
    draw();
    try {
      await send(id);
      done.push({ id, action: label });
      status = `${id}: ${label} (done)`;
      if (advance) index++;
    } catch (err) {
      const code = err instanceof CliError ? err.exitCode : EXIT.INTERNAL;
      if (code === EXIT.INTERRUPTED || code === EXIT.TERMINATED) throw err;
      worst = Math.max(worst, code);
      failures.push(`${id} (${label}: ${err instanceof Error ? err.message : String(err)})`);
      status = `${id}: ${label} FAILED: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      busy = false;
    }
  };

  const undo = async () => {
    const last = done[done.length - 1];
    if (!last) { status = 'nothing to undo'; return; }
    if (last.action !== 'archived') { status = `${last.id}: '${last.action}' cannot be undone through the API (only an archive: issues/unarchive)`; return; }
    const at = issues.findIndex((i) => i.id === last.id);
    if (at >= 0) index = at;
    await act('unarchived', call('unarchive'), false);
    // Undone: neither the archive nor its undo is an outcome of the walk.
    if (done[done.length - 1]?.action === 'unarchived') { done.splice(done.length - 2, 2); undone++; }
  };

  stdin.setRawMode(true);
  stdin.resume();
  stdout.write(ENTER_ALT);
  const onResize = () => draw();
  stdout.on('resize', onResize);
  let finish!: (err?: unknown) => void;
  const finished = new Promise<void>((resolve, reject) => { finish = (err) => { ended = true; if (err) reject(err); else resolve(); }; });
  const onAbort = () => finish(new InterruptedError(ctx.signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT'));
  ctx.signal.addEventListener('abort', onAbort, { once: true });
  const onKey = (data: Buffer) => {
    const key = data.toString('utf8');
    if (key === '\x03') return finish(new InterruptedError('SIGINT'));
    if (busy || ended) return;
    void handle(key).then(() => {
      if (ended) return;
      if (index >= issues.length) return finish();
      draw();
    }, finish);
  };
  const handle = async (key: string) => {
    if (mode === 'detail') { mode = 'issue'; return; }
    if (mode === 'reason') {
      // Typed (or pasted) a character at a time: Enter sends, Esc cancels, Backspace erases.
      for (const ch of key) {
        if (ch === '\r' || ch === '\n') {
          mode = 'issue';
          const text = reason.trim();
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
      case 'f': case 'a': mode = 'reason'; reason = ''; pendingReason = key; return;
      case 't': return act('true positive', call('mark-true-positive'));
      case 'p': return act('patch requested', call('generate-patch'));
      case 's': done.push({ id: issues[index].id, action: 'skipped' }); status = `${issues[index].id}: skipped`; index++; return;
      case 'o': mode = 'detail'; return;
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
    ctx.note(summary(done, failures, undone, issues.length - index));
  }
  if (failures.length) throw new CliError(`${failures.length} action${failures.length === 1 ? '' : 's'} failed: ${failures.slice(0, 5).join(', ')}${skippedLine ? `; ${skippedLine}` : ''}`, worst as never);
  if (skippedLine) throw new CliError(`triage: ${skippedLine}`, EXIT.PARTIAL, 'the service may ignore the types or repositoryIds filter');
}

function summary(done: Done[], failures: string[], undone: number, left: number): string {
  const counts = new Map<string, number>();
  for (const d of done) counts.set(d.action, (counts.get(d.action) ?? 0) + 1);
  const parts = [...counts].map(([a, n]) => `${n} ${a}`);
  if (failures.length) parts.push(`${failures.length} failed`);
  if (undone) parts.push(`${undone} archive${undone === 1 ? '' : 's'} undone`);
  parts.push(`${left} not reached`);
  return `triage: ${parts.join(', ')}`;
}
