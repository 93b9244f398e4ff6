/**
 * Width of text on a terminal, in columns: CJK and most emoji take two, combining marks none. Plain
 * ASCII (nearly every cell) is counted by its length; anything else by `string-width`, the library
 * cli-table3 measures with, so both layouts agree. Text given here holds no escape sequences (cells
 * are cleaned first); colour is added after a cell is clipped and padded.
 */
import stringWidth from 'string-width';
import { shellWords } from './fit-text.js';

// Printable ASCII only: one column a character.
// eslint-disable-next-line no-control-regex
const NARROW = /^[\u0020-\u007e]*$/;

export function displayWidth(text: string): number {
  return NARROW.test(text) ? text.length : stringWidth(text);
}

/** Text cut to at most `max` columns, ending in `…` when cut; wide characters are never split. */
export function clip(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  if (max <= 0) return '';
  if (NARROW.test(text)) return `${text.slice(0, max - 1)}…`;
  let out = '';
  let used = 0;
  for (const ch of graphemes(text)) {
    const w = stringWidth(ch);
    if (used + w > max - 1) break;
    out += ch;
    used += w;
  }
  return `${out}…`;
}

/**
 * A file path cut to at most `max` columns from the left, keeping its end as gh and ls do:
 * `app/handlers/import.js` -> `…/import.js` (whole directories go first), or `…ort.js` when the
 * name alone is too long.
 */
export function clipPath(text: string, max: number): string {
  if (displayWidth(text) <= max) return text;
  if (max <= 0) return '';
  // Printable ASCII: every character is a grapheme of one column (no segmenter: a table of 10,000 rows cuts a path in each).
  const chars = NARROW.test(text) ? text.split('') : [...graphemes(text)];
  let tail = '';
  let used = 0;
  let atSlash = '';
  for (let i = chars.length - 1; i >= 0; i--) {
    const w = displayWidth(chars[i]);
    if (used + w > max - 1) break;
    tail = chars[i] + tail;
    used += w;
    if (chars[i] === '/') atSlash = tail;
  }
  return `…${atSlash || tail}`;
}

/** Text padded with spaces to `width` columns (left-aligned, or right-aligned). */
export function pad(text: string, width: number, right = false): string {
  const gap = width - displayWidth(text);
  if (gap <= 0) return text;
  return right ? ' '.repeat(gap) + text : text + ' '.repeat(gap);
}

let segmenter: Intl.Segmenter | undefined;
function graphemes(text: string): Iterable<string> {
  // An emoji sequence (flags, skin tones, families) is one grapheme: cut between graphemes only.
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  return Array.from(segmenter.segment(text), (s) => s.segment);
}

/** Words wrapped to `width` columns; existing line breaks kept. */
export function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    let line = '';
    let used = 0;
    for (const word of para.split(/ +/).flatMap((w) => split(w, width))) {
      const w = displayWidth(word);
      if (used > 0 && used + 1 + w > width) { out.push(line); line = ''; used = 0; }
      line += (used > 0 ? ' ' : '') + word;
      used += (used > 0 ? 1 : 0) + w;
    }
    out.push(line);
  }
  return out;
}

/** A word wider than the line, in pieces that fit: after a comma where it has one, else anywhere. */
function split(word: string, width: number): string[] {
  if (width < 2 || displayWidth(word) <= width) return [word];
  const pieces: string[] = [];
  let rest = word;
  while (displayWidth(rest) > width) {
    const head = Array.from(rest).slice(0, width).join('');
    const comma = head.lastIndexOf(',');
    const cut = comma > 0 ? comma + 1 : head.length;
    pieces.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return [...pieces, rest];
}

/**
 * A command as lines of at most `width` columns (`$ ` first, unless `prompt` is ''), broken between
 * shell words and continued with ` \` on lines indented by 2: it pastes into a shell as the same
 * command. A word wider than the line stays whole.
 */
export function commandLines(command: string, width: number, prompt = '$'): string[] {
  const out: string[] = [];
  let cur: string | undefined;
  for (const word of shellWords(command)) {
    if (cur === undefined) cur = prompt ? `${prompt} ${word}` : word;
    else if (displayWidth(cur) + 1 + displayWidth(word) > width - 2) {
      out.push(`${cur} \\`);
      cur = `  ${word}`;
    } else cur = `${cur} ${word}`;
  }
  out.push(cur ?? prompt);
  return out;
}
