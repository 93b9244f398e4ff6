/**
 * A reader that goes away (issue 10 "exit codes survive the pipe", issue 13 "a spinner line stays on
 * screen after | head"), with the real binary under bash: `set -o pipefail; svc gate ... | head`
 * exits with the verdict's code (it used to exit 0: the closed pipe replaced the code), and a
 * spinner on the terminal is erased when a listing's reader leaves.
 */
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, runProgram } from '../helpers/run-svc.js';
import { useSandbox } from '../helpers/sandbox.js';
import { ptyAvailable, runOnPty } from '../helpers/pty.js';

// Enough issues that the output is larger than a pipe holds (64 KiB; the smallest, the gate's CSV
// of every open issue, is ~115 KB here): the reader is gone while svc still writes.
const sb = useSandbox({ issues: 1500, repos: 4 });

// Asynchronously: the sandbox answers from this process.
const bash = (script: string, env: Record<string, string>) => runProgram('bash', ['-c', script], { env: cleanEnv({ ...env, SVC: `${process.execPath} ${BIN}` }) });

describe('set -o pipefail; svc gate ... | head: the verdict\'s exit code survives the closed pipe', () => {
  it.each([
    { name: 'a failed gate, summary and annotations, | head -3', cmd: 'gate --fail-on high --annotations | head -3', code: 1, first: /^svc gate: FAILED/ },
    { name: 'a failed gate as JSON, | head -c 20', cmd: 'gate --fail-on info -o json | head -c 20', code: 1, first: /^\{"passed":false/ },
    { name: 'a failed gate as CSV (every breaking issue), | head -1', cmd: 'gate --fail-on info -o csv | head -1', code: 1, first: /^level,score,id/ },
    { name: 'a passing gate as JSON, | head -c 20', cmd: 'gate --max-total 1000000 -o json | head -c 20', code: 0, first: /^\{"passed":true/ },
    // --all in a pipe writes the pages' own bytes (listing/stream-out.ts): a reader that leaves is still a clean exit 0.
    { name: 'every issue as a JSON array (the bytes copied), | head -c 20', cmd: 'issues search --all -o json | head -c 20', code: 0, first: /^\[\n\{"id":"/ },
    { name: 'every issue as NDJSON (the bytes copied), | head -1', cmd: 'issues search --all -o ndjson | head -1', code: 0, first: /^\{"id":"[^\n]*\}\n$/ },
  ])('$name: exit $code', async ({ cmd, code, first }) => {
    const r = await bash(`set -o pipefail; $SVC ${cmd}`, sb.env);
    expect(r.stdout).toMatch(first);
    expect(r.code, r.stderr).toBe(code);
    expect(r.stderr).not.toMatch(/internal error|EPIPE/);
  });
});

/** The screen a terminal shows after `output`: enough of VT100 for ora and readline's cursor moves. */
export function screen(output: string): string[] {
  const lines: string[][] = [[]];
  let row = 0;
  let col = 0;
  const line = () => (lines[row] ??= []);
  for (let i = 0; i < output.length; i++) {
    const ch = output[i];
    if (ch === '\x1b') {
      const m = /^\x1b\[([?\d;]*)([A-Za-z])/.exec(output.slice(i));
      if (!m) continue;
      i += m[0].length - 1;
      const n = Number(m[1].replace('?', '')) || 0;
      switch (m[2]) {
        case 'G': col = Math.max(0, (n || 1) - 1); break;
        case 'A': row = Math.max(0, row - (n || 1)); break;
        case 'B': row += n || 1; break;
        case 'C': col += n || 1; break;
        case 'D': col = Math.max(0, col - (n || 1)); break;
        case 'K': {
          const l = line();
          if (n === 0) l.length = Math.min(l.length, col);
          else if (n === 1) for (let k = 0; k <= col && k < l.length; k++) l[k] = ' ';
          else l.length = 0;
          break;
        }
        default: break; // colours, cursor show/hide
      }
      continue;
    }
    if (ch === '\r') { col = 0; continue; }
    if (ch === '\n') { row++; col = 0; line(); continue; }
    const l = line();
    while (l.length < col) l.push(' ');
    l[col++] = ch;
  }
  return lines.map((l) => (l ?? []).join('').trimEnd()).filter((l, k, all) => l !== '' || k < all.length - 1);
}

/** Runs a bash script on a pseudo-terminal (100 x 24) and returns all it showed. */
async function onPty(script: string): Promise<string> {
  const r = await runOnPty([], [], { command: ['/bin/bash', '-c', script], env: { ...sb.env, SVC: `${process.execPath} ${BIN}` }, timeoutMs: 30_000 });
  expect(r.code).toBe(0);
  return r.output;
}

const SPINNER = /fetch|[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;

describe.skipIf(!ptyAvailable())('the spinner and | head on one terminal', () => {
  it('stdout piped to a reader that shares the terminal: no spinner line is left (it used to stay in front of head\'s line)', async () => {
    const shown = screen(await onPty(`set -o pipefail; $SVC issues search --all --page-size 25 -o ndjson | head -1 | cut -c1-24; echo "exit=$?"`));
    expect(shown.join('\n')).not.toMatch(SPINNER);
    expect(shown).toEqual(['{"id":"iss_' + shown[0].slice(11), 'exit=0']);
  });

  it('stdout to a file: the spinner is drawn while the listing runs, and erased at the end', async () => {
    const raw = await onPty(`$SVC issues search --all --page-size 25 -o ndjson > /dev/null; echo "exit=$?"`);
    expect(raw).toMatch(/issues search --all: fetch/);
    expect(screen(raw)).toEqual(['exit=0']);
  });
});
