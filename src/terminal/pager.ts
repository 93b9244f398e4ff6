/**
 * A long text read on a terminal a screen at a time (`o` in `svc issues triage`): the user's pager
 * (SVC_PAGER, else PAGER; `less` when neither is set and it is on PATH), else svc's own, drawn by the
 * caller that owns the terminal (pagerScreen, pagerMove: pure). An empty SVC_PAGER or PAGER, or
 * `cat` (which pages nothing), picks svc's own.
 */
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { Env } from '../core/host.js';
import { clip, displayWidth } from '../output/text-width.js';

type PagerChoice = { kind: 'command'; command: string; from: string } | { kind: 'builtin' };

export function choosePager(env: Env, platform: NodeJS.Platform): PagerChoice {
  const [from, own] = env.SVC_PAGER !== undefined ? ['SVC_PAGER', env.SVC_PAGER] : ['PAGER', env.PAGER];
  if (own !== undefined) {
    const command = own.trim();
    return command === '' || command === 'cat' ? { kind: 'builtin' } : { kind: 'command', command, from };
  }
  return onPath(platform === 'win32' ? 'less.exe' : 'less', env.PATH) ? { kind: 'command', command: 'less', from: 'less on PATH' } : { kind: 'builtin' };
}

function onPath(name: string, path: string | undefined): boolean {
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch { /* not here */ }
  }
  return false;
}

/**
 * less keeps colour (-R) and stays open for a text shorter than the screen (-+F: a LESS of
 * `FRX`, as git sets, would quit at once and the text would flash by).
 */
function pagerEnv(env: Env): Env {
  return { ...env, LESS: `${env.LESS ?? ''} -R -+F`.trim() };
}

/**
 * Runs the pager command (through the shell, as git and gh do: `PAGER="less -S"`) with `text` on its
 * stdin and the terminal as its stdout, and resolves when it ends: undefined when it went well,
 * else why not (the caller then shows the text itself). The caller gives the terminal up first
 * (raw mode off, its own reading paused) and takes it back after; it waits for the pager also
 * after a Ctrl-C, which the pager gets too (the same process group) and may use itself.
 */
export function runPager(command: string, text: string, env: Env, stop?: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    let child;
    try {
      // `stop` (SIGTERM to svc, or a second signal) ends the pager: a Ctrl-C reaches it on its own.
      child = spawn(command, { shell: true, stdio: ['pipe', 'inherit', 'inherit'], env: pagerEnv(env), ...(stop ? { signal: stop, killSignal: 'SIGTERM' as const } : {}) });
    } catch (err) {
      resolve((err as Error).message);
      return;
    }
    if (stop) child.on('error', (err) => { if (err.name === 'AbortError') resolve(undefined); });
    child.on('error', (err) => resolve(err.message));
    // A pager that quits before reading it all closes the pipe: nothing to report.
    child.stdin!.on('error', () => {});
    // 127: the shell found no such command; other codes: the pager's own failure.
    child.on('close', (code) => resolve(code === 0 || code === null ? undefined : code === 127 ? 'command not found' : `exit ${code}`));
    child.stdin!.end(text);
  });
}

// SGR (colour) sequences: no width; everything else of the text is printable (the detail view cleans it).
// eslint-disable-next-line no-control-regex
const SGR = /\u001b\[([0-9;]*)m/y;

/** Which attribute an SGR parameter sets, and the code that ends it. */
function sgrClass(params: string): string | undefined {
  const first = Number(params.split(';')[0] || '0');
  if (first === 0) return 'reset';
  if ((first >= 30 && first <= 39) || (first >= 90 && first <= 97)) return first === 39 ? 'end:fg' : 'fg';
  if ((first >= 40 && first <= 49) || (first >= 100 && first <= 107)) return first === 49 ? 'end:bg' : 'bg';
  if (first === 1 || first === 2) return 'weight';
  if (first === 22) return 'end:weight';
  if (first === 3 || first === 4 || first === 7) return String(first);
  if (first === 23 || first === 24 || first === 27) return `end:${first - 20}`;
  return undefined;
}

/**
 * The text's lines for a screen `width` columns wide: a longer line continues on the next (code keeps
 * every character), colours carried over the break, nothing wider than the width.
 */
export function pageLines(text: string, width: number): string[] {
  const w = Math.max(10, width);
  const out: string[] = [];
  for (const line of text.replace(/\n$/, '').split('\n')) {
    // The colour sequences in force, by attribute: closed at a break and opened again after it.
    const open = new Map<string, string>();
    let cur = '';
    let used = 0;
    let i = 0;
    const chars = line;
    while (i < chars.length) {
      SGR.lastIndex = i;
      const m = SGR.exec(chars);
      if (m) {
        cur += m[0];
        const cls = sgrClass(m[1]);
        if (cls === 'reset') open.clear();
        else if (cls?.startsWith('end:')) open.delete(cls.slice(4));
        else if (cls) open.set(cls, m[0]);
        i += m[0].length;
        continue;
      }
      const cp = chars.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      const cw = displayWidth(ch);
      if (used + cw > w) {
        out.push(open.size ? `${cur}\u001b[0m` : cur);
        cur = [...open.values()].join('');
        used = 0;
      }
      cur += ch;
      used += cw;
      i += ch.length;
    }
    out.push(cur);
  }
  return out;
}

const HELP = 'space/b page, j/k line, g/G top/end, q back';

/** One screen of svc's pager: the lines from `top`, then a status line (where, the keys). */
export function pagerScreen(lines: string[], top: number, width: number, height: number): string[] {
  const rows = Math.max(1, height - 1);
  const shown = lines.slice(top, top + rows);
  const last = Math.min(lines.length, top + rows);
  const where = lines.length <= rows ? `all ${lines.length} lines` : `lines ${top + 1}-${last} of ${lines.length}${last >= lines.length ? ' (end)' : ''}`;
  const status = clip(`${where}  ${HELP}`, Math.max(1, width));
  return [...shown, ...Array<string>(rows - shown.length).fill(''), `\u001b[7m${status}\u001b[27m`];
}

/** Where a key moves the first line shown: a new top, 'back' to leave, undefined for a key it does not know. */
export function pagerMove(key: string, top: number, total: number, height: number): number | 'back' | undefined {
  const rows = Math.max(1, height - 1);
  const end = Math.max(0, total - rows);
  const to = (n: number) => Math.max(0, Math.min(end, n));
  switch (key) {
    case 'j': case '\r': case '\n': case '\u001b[B': case '\u001bOB': return to(top + 1);
    case 'k': case '\u001b[A': case '\u001bOA': return to(top - 1);
    case ' ': case 'f': case '\u001b[6~': return to(top + rows);
    case 'b': case '\u001b[5~': return to(top - rows);
    case 'd': return to(top + Math.ceil(rows / 2));
    case 'u': return to(top - Math.ceil(rows / 2));
    case 'g': case '<': case '\u001b[H': case '\u001b[1~': case '\u001bOH': return 0;
    case 'G': case '>': case '\u001b[F': case '\u001b[4~': case '\u001bOF': return end;
    case 'q': case 'Q': case 'o': case '\u001b': return 'back';
    default: return undefined;
  }
}
