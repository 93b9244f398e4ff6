/**
 * Text from the service is untrusted: before it reaches a terminal or a table, escape sequences and
 * control characters are removed so a hostile title cannot move the cursor, retitle the window,
 * plant a hyperlink, ring the bell, overwrite what was printed (CR, backspace) or reorder what is
 * shown (bidi overrides). JSON output keeps its values: on a terminal, the characters a terminal
 * could act on are written as \u escapes inside its strings (terminalJson); in pipes it is untouched.
 *
 * After stripControls() the text holds no C0 control but tab and newline, no DEL, no C1 control and
 * no bidi control: with no ESC and no 8-bit introducer left, no escape sequence can survive.
 */
// Whole sequences first, so that their parameters do not stay behind as text:
// 7-bit CSI (ESC [ ... final), OSC (ESC ] ... BEL | ESC \ | ST), DCS/SOS/PM/APC (ESC P|X|^|_ ... ESC \ | ST),
// any other escape (ESC, intermediates 0x20-0x2F, final 0x30-0x7E), and their 8-bit (C1) forms.
// A string sequence (OSC, DCS...) never runs past the end of its line: one stray introducer (an 8-bit
// byte in a header) must not swallow the lines after it (the rest of a --verbose block).
// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]?|\u001b\][^\u0007\u001b\u009c\n]*(?:\u0007|\u001b\\|\u009c)?|\u001b[PX^_][^\u001b\u009c\n]*(?:\u001b\\|\u009c)?|\u001b[ -/]*[0-~]?|\u009b[0-?]*[ -/]*[@-~]?|\u009d[^\u0007\u001b\u009c\n]*(?:\u0007|\u001b\\|\u009c)?|[\u0090\u0098\u009e\u009f][^\u001b\u009c\n]*(?:\u001b\\|\u009c)?/g;
// C0 but tab and newline, DEL, C1, and the bidi controls (marks, embeddings, overrides, isolates).
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const LINE_SEPARATORS = /[\u2028\u2029]/g;

/** Remove escape sequences and control characters; keep newlines and tabs. */
export function stripControls(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS, '').replace(LINE_SEPARATORS, '\n');
}

// In JSON text these can only be inside strings (its own syntax is ASCII), and JSON.stringify
// already escapes C0: DEL, C1 (which terminals act on, UTF-8-encoded, as on 8-bit bytes), the bidi
// controls and the line separators.
const TERMINAL_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/** JSON text for a terminal: the same JSON values, with the characters above as \u escapes. */
export function terminalJson(json: string): string {
  return json.replace(TERMINAL_UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** One line for a table cell: controls removed, line breaks shown as spaces. */
export function cellText(text: string): string {
  return stripControls(text).replace(/\s*[\r\n\t]+\s*/g, ' ');
}

// Characters a message must never carry as themselves: C0 (tab and line breaks too: a message is one
// line), DEL, C1 (a lone 8-bit CSI or OSC introducer makes the line's sanitizer drop the rest of the
// line), the bidi controls, the invisible format characters (zero-width space, joiners, word joiner,
// BOM, soft hyphen, ...) that make two values that differ look the same, and the line separators.
// eslint-disable-next-line no-control-regex
const MESSAGE_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;
const NAMED: Record<string, string> = { '\0': '\\0', '\b': '\\b', '\t': '\\t', '\n': '\\n', '\v': '\\v', '\f': '\\f', '\r': '\\r' };

/** `\r`, `\x1b`, `\u009d`, `\u200b`: one unsafe character as a visible escape. */
function visibleEscape(ch: string): string {
  const code = ch.charCodeAt(0);
  return NAMED[ch] ?? (code < 0x80 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
}

/**
 * THE way a value (from the service, a file or the command line) is put into a message: every
 * character above written as a visible escape, backslashes doubled, so the message says exactly what
 * was sent, two different values never look the same, and nothing in the value can act on the
 * terminal or on the rest of the line. Clean the value with this BEFORE inserting it: the sanitizer
 * that runs on the whole line afterwards would remove an unterminated sequence together with the
 * message text after it.
 */
export function escapeControls(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(MESSAGE_UNSAFE, visibleEscape);
}

/** A string value as a message quotes it: `'value'`, escaped (escapeControls), cut at `max` characters. */
export function quoted(value: string, max = 80): string {
  return `'${escapeControls(value.length > max ? `${value.slice(0, max)}…` : value)}'`;
}

// JSON.stringify escapes C0 (its \u escapes keep the JSON valid); the rest of the unsafe characters as \u escapes too.
// eslint-disable-next-line no-control-regex
const JSON_UNSAFE = /[\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;
const jsonEscape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

const TOO_LARGE = '<svc:number-too-large>';
const tooLarge = (n: number): string => `${n < 0 ? 'a negative' : 'a'} number too large to read`;

/**
 * A value of an answer as a message shows it: its JSON (strings in it escaped as escapeControls
 * would, with JSON's \u escapes), except that a number JSON.parse read as
 * ±Infinity (one beyond ±1.8e308 in the text, such as 1e400), which JSON.stringify shows as `null`,
 * is said to be a number too large to read: the message says what the service sent.
 */
export function answerValue(v: unknown): string {
  if (typeof v === 'number' && !Number.isFinite(v)) return tooLarge(v);
  const text = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'number' && !Number.isFinite(x) ? `${TOO_LARGE}${x < 0 ? '-' : '+'}` : x));
  if (text === undefined) return String(v);
  return (text.includes(TOO_LARGE) ? text.replace(/"<svc:number-too-large>([-+])"/g, (_m, s: string) => `(${tooLarge(s === '-' ? -1 : 1)})`) : text).replace(JSON_UNSAFE, jsonEscape);
}

/**
 * Text with no CI runner command in it: the `[` of `##[` and `##vso[` (any case) written as `\u005b`,
 * the second `:` of a `::` that starts a line (after blanks) as `\u003a`. For service text inside
 * svc's own commands (an annotation's message); everything else svc writes on such a CI passes the
 * stream guard (ci/log-guard.ts), which does the same across writes.
 */
export function escapeLogCommands(text: string): string {
  return text.replace(/##(?:vso)?\[/gi, (m) => `${m.slice(0, -1)}\\u005b`).replace(/(^|[\r\n])([\t\v\f \u0080-\uffff]*:):/g, '$1$2\\u003a');
}
