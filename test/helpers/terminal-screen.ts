// What a terminal shows after a program's output is drawn on it (tests that look at a pty's screen).

/**
 * The lines a terminal shows after `raw` is drawn: text overwrites in place; \r and ESC[nG move to a
 * column, ESC[nA/B up/down, ESC[K/0K/2K erase, \n moves down; other sequences change nothing visible.
 */
export function terminalScreen(raw: string): string[] {
  const lines: string[][] = [[]];
  let row = 0;
  let col = 0;
  // eslint-disable-next-line no-control-regex
  const token = /\u001b\[([?\d;]*)([A-Za-z])|\u001b[^[]|\r|\n|[^\u001b\r\n]/gu;
  for (const m of raw.matchAll(token)) {
    const t = m[0];
    if (t === '\r') col = 0;
    else if (t === '\n') { row++; col = 0; lines[row] ??= []; }
    else if (m[2] !== undefined) {
      const n = Number(m[1] || '1');
      if (m[2] === 'G') col = Math.max(0, n - 1);
      else if (m[2] === 'A') row = Math.max(0, row - n);
      else if (m[2] === 'B') { row += n; lines[row] ??= []; }
      else if (m[2] === 'K') {
        if (m[1] === '2') lines[row] = [];
        else lines[row].length = Math.min(lines[row].length, col);
      }
    } else if (t.startsWith('\u001b')) continue;
    else {
      const line = (lines[row] ??= []);
      while (line.length < col) line.push(' ');
      line[col++] = t;
    }
  }
  return lines.map((l) => (l ?? []).join('').trimEnd());
}
