/**
 * Text from the service is untrusted: before it reaches a terminal or a table, escape sequences and
 * control characters are removed so a hostile title cannot move the cursor, retitle the window or
 * hide text. JSON output is never touched.
 */
// ESC [ ... final | ESC ] ... (BEL | ESC \) | ESC P/X/^/_ ... ESC \ | ESC single | 8-bit CSI/OSC
// eslint-disable-next-line no-control-regex
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[PX^_][^\u001b]*(?:\u001b\\)?|\u001b[@-Z\\-_]?|\u009b[0-?]*[ -/]*[@-~]|\u009d[^\u0007\u009c]*[\u0007\u009c]?/g;
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Remove escape sequences and control characters; keep newlines and tabs. */
export function stripControls(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS, '');
}

/** One line for a table cell: controls removed, line breaks shown as spaces. */
export function cellText(text: string): string {
  return stripControls(text).replace(/\s*[\r\n\t]+\s*/g, ' ');
}
