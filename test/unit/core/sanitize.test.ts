import { describe, expect, it } from 'vitest';
import { answerValue, cellText, escapeControls, quoted, stripControls, terminalJson } from '../../../src/core/sanitize.js';
import { render } from '../../../src/output/render.js';
import { rowsTable, recordTable } from '../../../src/output/table.js';

const ESC = '\u001b';
const BEL = '\u0007';
const ST = `${ESC}\\`;
/** Nothing that a terminal would act on may remain. */
// eslint-disable-next-line no-control-regex
const DANGEROUS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('stripControls', () => {
  it.each([
    ['CSI colour', `${ESC}[31mred${ESC}[0m`, 'red'],
    ['CSI clear screen and cursor home', `${ESC}[2J${ESC}[Hx`, 'x'],
    ['CSI with private parameters', `${ESC}[?25l${ESC}[?1049hhidden`, 'hidden'],
    ['CSI cut short at the end', `ok${ESC}[31`, 'ok'],
    ['OSC 8 hyperlink (BEL)', `${ESC}]8;;https://evil.example${BEL}click${ESC}]8;;${BEL}`, 'click'],
    ['OSC 8 hyperlink (ST)', `${ESC}]8;;https://evil.example${ST}click${ESC}]8;;${ST}`, 'click'],
    ['OSC window title', `${ESC}]0;pwned${BEL}title`, 'title'],
    ['OSC 52 clipboard write', `${ESC}]52;c;Y3VybCBldmlsfHNo${BEL}x`, 'x'],
    ['unterminated OSC swallows the rest', `a${ESC}]0;title forever`, 'a'],
    ['DCS', `${ESC}Pq#0;2;0;0;0${ST}after`, 'after'],
    ['APC / PM / SOS', `${ESC}_apc${ST}${ESC}^pm${ST}${ESC}Xsos${ST}ok`, 'ok'],
    ['single escapes (RIS, DECSC, charset)', `${ESC}c${ESC}7${ESC}(0${ESC}8ok`, 'ok'],
    ['8-bit CSI', '\u009b31mred', 'red'],
    ['8-bit OSC with ST', '\u009d0;title\u009cok', 'ok'],
    ['8-bit DCS', '\u0090payload\u009cok', 'ok'],
    ['other C1 controls', 'a\u0085b\u008dc\u0091d', 'abcd'],
    ['8-bit APC swallows up to its terminator', 'a\u009fhidden\u009cb', 'ab'],
    ['BEL', `ding${BEL}${BEL}`, 'ding'],
    ['backspace overwrite trick', 'rm -rf /\b\b\b\b\b\b\bls', 'rm -rf /ls'],
    ['carriage-return overwrite trick', 'evil command\rsafe text', 'evil commandsafe text'],
    ['CRLF keeps the line break', 'a\r\nb', 'a\nb'],
    ['DEL and NUL', 'a\u007fb\u0000c', 'abc'],
    ['vertical tab and form feed', 'a\u000bb\u000cc', 'abc'],
    ['bidi override (Trojan Source)', 'access\u202e level\u202c ok', 'access level ok'],
    ['bidi isolates and marks', '\u2066a\u2069\u2067b\u2069\u2068c\u2069\u200e\u200f\u061c', 'abc'],
    ['line and paragraph separators become newlines', 'a\u2028b\u2029c', 'a\nb\nc'],
    ['nested escape built from what stripping leaves', `${ESC}${ESC}[[31mx`, '31mx'],
    ['escape split by a control', `${ESC}\u0000[31mx`, '[31mx'],
  ])('%s', (_name, input, expected) => {
    const out = stripControls(input);
    expect(out).toBe(expected);
    expect(out).not.toMatch(DANGEROUS);
  });

  it('keeps ordinary text, tabs, newlines and non-ASCII letters', () => {
    const text = 'Title: SQL injection in `db.query()`\n\tline 2 – café 漢字 emoji 🙂 Ω';
    expect(stripControls(text)).toBe(text);
  });

  it('leaves nothing dangerous in random hostile strings', () => {
    const alphabet = ['\u001b', '[', ']', '\\', '\u0007', '\u009b', '\u009c', '\u009d', '\u0090', 'P', '_', '^', 'X', '0', ';', '3', '1', 'm', 'a', '\r', '\b', '\u202e', ' ', '\n', '\u0000', '\u007f'];
    let seed = 42;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let i = 0; i < 2000; i++) {
      let s = '';
      for (let j = 0; j < 1 + Math.floor(rand() * 30); j++) s += alphabet[Math.floor(rand() * alphabet.length)];
      expect(stripControls(s), JSON.stringify(s)).not.toMatch(DANGEROUS);
      expect(cellText(s), JSON.stringify(s)).not.toMatch(/[\n\r\t]/);
    }
  });
});

describe('answerValue', () => {
  it('shows an answer\'s value as JSON, and a number too large for a double (1e400, read as Infinity) as such, never null', () => {
    expect([answerValue(95), answerValue('95'), answerValue(null), answerValue([1, 'a']), answerValue(undefined)]).toEqual(['95', '"95"', 'null', '[1,"a"]', 'undefined']);
    expect(answerValue(JSON.parse('1e400'))).toBe('a number too large to read');
    expect(answerValue(JSON.parse('-1e400'))).toBe('a negative number too large to read');
    expect(answerValue(JSON.parse('{"open":1e400,"archived":0}'))).toBe('{"open":(a number too large to read),"archived":0}');
  });
});

describe('cellText', () => {
  it('makes one line', () => {
    expect(cellText('a\n  b\r\n\tc')).toBe('a b c');
    expect(cellText(`${ESC}[31mred${ESC}[0m\ntitle`)).toBe('red title');
  });
});

describe('hostile text in rendered output', () => {
  const hostile = { id: 'i1', generatedTitle: `${ESC}]0;owned${BEL}${ESC}[2JSQL \u202einjection${ESC}]8;;https://evil${BEL}link${ESC}]8;;${BEL}\rX\b`, [`col${ESC}[31m`]: `v${BEL}` };
  const capture = async (format: 'table' | 'csv' | 'json' | 'ndjson', pretty: boolean, data: unknown = { issues: [hostile] }) => {
    let out = '';
    let note = '';
    await render(data, { format, columns: [], rowsPath: 'issues', pretty, color: false, width: 200 }, { out: (t) => { out += t; }, note: (t) => { note += t; } });
    return { out, note };
  };

  it('tables: cells and column names are clean', async () => {
    const { out } = await capture('table', false);
    expect(out).toContain('SQL injectionlinkX');
    expect(out).toContain('COL');
    expect(out).not.toMatch(DANGEROUS);
  });

  it('a record table is clean, keys too', () => {
    const out = recordTable(hostile, [], { color: false, width: 200 });
    expect(out).not.toMatch(DANGEROUS);
    expect(rowsTable([hostile], ['generatedTitle', `col${ESC}[31m`], { color: false })).not.toMatch(DANGEROUS);
  });

  it('a scalar answer shown as a table is clean', async () => {
    const { out } = await capture('table', false, `x${ESC}]0;t${BEL}y`);
    expect(out).toBe('xy\n');
  });

  it('CSV is clean on a terminal and in a pipe alike (a spreadsheet is a reader too); lines end with LF', async () => {
    for (const tty of [true, false]) {
      const { out } = await capture('csv', tty);
      expect(out).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/);
      expect(out.endsWith('\n') && !out.includes('\r')).toBe(true);
    }
  });

  it('JSON and NDJSON keep their values: byte-exact in pipes, C1/bidi/DEL as \\u escapes on a terminal', async () => {
    for (const pretty of [false, true]) {
      const { out } = await capture('json', pretty);
      const sent = JSON.stringify({ issues: [hostile] }, null, pretty ? 2 : undefined);
      expect(out).toBe((pretty ? terminalJson(sent) : sent) + '\n');
      expect(JSON.parse(out).issues[0].generatedTitle).toBe(hostile.generatedTitle);
      expect(out).not.toContain(ESC);
      if (pretty) expect(out).not.toMatch(/[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
    }
    const nd = await capture('ndjson', false);
    expect(nd.out).toBe(JSON.stringify(hostile) + '\n');
  });
});

describe('escapeControls and quoted: a value put into a message', () => {
  it('writes every control, bidi and invisible character as a visible escape, backslashes doubled', () => {
    expect(escapeControls('archived\u009d')).toBe('archived\\u009d');
    expect(escapeControls('open\u009b')).toBe('open\\u009b');
    expect(escapeControls('open\u200b\u202e\ufeff\u2028\u00ad')).toBe('open\\u200b\\u202e\\ufeff\\u2028\\u00ad');
    expect(escapeControls('a\r\n\u001b[2J\u007f\\')).toBe('a\\r\\n\\x1b[2J\\x7f\\\\');
    expect(escapeControls('plain é ü 😀')).toBe('plain é ü 😀');
  });

  it('quotes and cuts', () => {
    expect(quoted('open\u200b')).toBe("'open\\u200b'");
    expect(quoted('x'.repeat(100), 10)).toBe(`'${'x'.repeat(10)}…'`);
  });

  it('a message holding an escaped value keeps its end through the line sanitizer', () => {
    const line = `status ${quoted('archived\u009d')}, outside the status asked for`;
    expect(stripControls(line)).toBe(line);
  });

  it('answerValue escapes the same characters inside JSON strings (still JSON)', () => {
    expect(answerValue('open\u009b\u200b')).toBe('"open\\u009b\\u200b"');
    expect(JSON.parse(answerValue({ s: 'a\u009db' }))).toEqual({ s: 'a\u009db' });
  });
});
