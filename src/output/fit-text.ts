/**
 * The one fitter of what people read: help screens, topics, errors, and notes and warnings on a
 * terminal. It is fed paragraphs: each line of the text is one paragraph, one row or one example,
 * never wrapped by hand (a text wrapped by hand and fitted again breaks into ragged, run-on lines).
 */

/**
 * A line wider than `width` is broken between words, never inside one. Continuation lines hang
 * under the description when the line is a `term  description` row (a term too wide for that puts
 * its description on the next line, 4 columns in), else under the line's own indent; a `# comment`
 * continues as a comment, so that a block of examples still pastes into a shell; a `$ command`
 * continues with ` \` (a word longer than the width stays whole on its own line). Lines that fit are
 * left as they are.
 */
export function fitText(text: string, width: number): string {
  return text.split('\n').map((line) => (line.length <= width ? line : fitLine(line, width))).join('\n');
}

function fitLine(line: string, width: number): string {
  const lead = /^ */.exec(line)![0];
  const row = /^( *\S(?:\S| (?! ))*? {2,})(?=\S)/.exec(line);
  // A term so wide that its description would have under 24 columns: the description goes below it.
  if (row && row[1].length > width - 24 && !/^ *[#$] /.test(line)) {
    const below = ' '.repeat(lead.length + 4) + line.slice(row[1].length);
    return `${row[1].trimEnd()}\n${below.length <= width ? below : fitLine(below, width)}`;
  }
  // A `# comment` goes on as comment lines (`  # ...` under it), never as a line a shell would run.
  const comment = /^ *# /.test(line);
  // A `term  description` row hangs under its description; `Label: text` and `$ command` lines by 2.
  const hang = comment ? lead.length + 2 : row && row[1].length <= width - 24 ? row[1].length : lead.length + (/^ *(?:\$ |[A-Za-z][\w -]{0,24}: )/.test(line) ? 2 : 0);
  const head = comment ? `${lead}# ` : row && row[1].length === hang ? row[1] : lead;
  // An example command is continued with ` \` so that it still pastes into a shell as one command.
  const shell = /^ *\$ /.test(line);
  const room = shell ? width - 2 : width;
  const out: string[] = [];
  let cur = head;
  let fresh = true;
  // A command breaks only between its shell words: a ` \` inside quotes would change the value
  // pasted ("Security \<newline>    fix" is "Security     fix" to the shell).
  const words = shell ? shellWords(line.slice(head.length)) : commandsWhole(line.slice(head.length).split(/ +/).filter(Boolean), width - hang);
  for (const word of words) {
    if (!fresh && cur.length + 1 + word.length > room) {
      out.push(shell ? `${cur} \\` : cur);
      cur = (comment ? `${lead}# ` : ' '.repeat(hang)) + word;
    } else cur = fresh ? cur + word : `${cur} ${word}`;
    fresh = false;
  }
  out.push(cur);
  return out.join('\n');
}

/**
 * Prose words with each command it names (`svc scans list --scan-id X`, up to a word that ends with
 * `;` `,` `)` or a quote, within COMMAND_WORDS words) made one unit when it fits `room`: a command
 * broken over two lines by a hard wrap is copied as two commands. A longer run is prose that starts
 * with svc (`svc gate leaves the issue out of ...`), broken as prose.
 */
const COMMAND_WORDS = 8;

function commandsWhole(words: string[], room: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    if (!/^[('`"]?svc$/.test(words[i])) { out.push(words[i]); continue; }
    let end = i;
    while (end + 1 < words.length && !/[;,)'`"][.:;,)]?$/.test(words[end])) end++;
    const unit = words.slice(i, end + 1).join(' ');
    if (unit.length <= room && end - i < COMMAND_WORDS) { out.push(unit); i = end; } else out.push(words[i]);
  }
  return out;
}

/**
 * A command line's shell words, quotes kept (`--reason "a b"` is two words, the second `"a b"`):
 * where a long command may be broken with ` \` so that it still pastes as the same command.
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let cur = '';
  let quote: string | undefined;
  for (let i = 0; i < command.length; i++) {
    const ch = command[i];
    if (quote) {
      cur += ch;
      if (ch === '\\' && quote === '"' && i + 1 < command.length) cur += command[++i];
      else if (ch === quote) quote = undefined;
    } else if (ch === ' ') {
      if (cur) words.push(cur);
      cur = '';
    } else {
      cur += ch;
      if (ch === '"' || ch === "'") quote = ch;
      else if (ch === '\\' && i + 1 < command.length) cur += command[++i];
    }
  }
  if (cur) words.push(cur);
  return words;
}
