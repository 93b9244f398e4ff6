/**
 * Values typed on the command line, checked before anything is sent (exit 2 naming the flag):
 *
 * - An id-like value (`--scan-id`, `--repository-ids`, a positional id, `--org`...) holds no control
 *   character at all: a `\r` from CRLF output (`$(svc ... -o csv | sed -n 2p)` on old versions, a
 *   file edited on another system) would be sent and answered 404 for an id that exists, or worse.
 * - Free text (a search query, a template) may hold tabs and line breaks (LF, CR LF), never ESC or
 *   any other C0 control, DEL or C1 control.
 * - A list flag holds no empty element: `--repository-ids ""` (an empty CI variable), `a,,b` and a
 *   lone `,` would otherwise send a shorter list, or none, and silently widen what a command reads.
 *
 * The offending character is shown escaped (`\r`, `\x1b`, `\u0085`), never as itself.
 */
import { UsageError } from '../core/errors.js';
import { escapeControls } from '../core/sanitize.js';

const NAMES: Record<string, string> = {
  '\0': '(NUL)', '\b': '(backspace)', '\t': '(tab)', '\n': '(line feed)', '\v': '(vertical tab)',
  '\f': '(form feed)', '\r': '(carriage return)', '\u001b': '(ESC)', '\u007f': '(DEL)',
};

export { escapeControls };

// eslint-disable-next-line no-control-regex
const ANY_CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// Free text: tab, LF and CR LF pass; any other C0, DEL or C1 does not.
// eslint-disable-next-line no-control-regex
const TEXT_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/;

/** The first character the value may not hold, if any. */
function forbiddenControl(value: string, text: boolean): string | undefined {
  return (text ? TEXT_CONTROL : ANY_CONTROL).exec(value)?.[0];
}

/** Refuses (exit 2) a value holding a control character it may not hold; `what` names the flag or argument. */
export function checkControls(what: string, value: string, text = false): void {
  const ch = forbiddenControl(value, text);
  if (ch === undefined) return;
  const name = NAMES[ch] ? `${escapeControls(ch)} ${NAMES[ch]}` : escapeControls(ch);
  const kind = text ? 'text here may hold tabs and line breaks, no other control character' : 'an id holds no control character';
  const hint = ch === '\r' ? 'a value taken from CRLF output (Windows line ends) ends with \\r: strip it, e.g. with `tr -d \'\\r\'`' : 'check where the value comes from';
  // The value as far as its first such character (and a little after): a file's whole text (a binary
  // given to --reason-from) was echoed into the one line, kilobytes of it.
  const at = value.indexOf(ch);
  const shown = value.length <= 80 ? escapeControls(value) : `${at > 40 ? '...' : ''}${escapeControls(value.slice(Math.max(0, at - 40), at + 20))}...`;
  throw new UsageError(`${what}: '${shown}' holds the control character ${name}${value.length > 80 ? ` (at character ${at + 1} of ${value.length})` : ''}; ${kind}`, hint);
}

/**
 * The argument parser of a list flag: each use may hold a comma-separated list; items are trimmed;
 * an empty item, or a value that is empty or only commas, is refused.
 */
export function listParser(flag: string, text = false): (value: string, previous: string[] | undefined) => string[] {
  return (value, previous) => {
    // Controls first: trimming would quietly drop a trailing \r or \n.
    const raw = value.split(',');
    for (const item of raw) checkControls(flag, item, text);
    const items = raw.map((v) => v.trim());
    if (items.some((v) => v === '')) {
      const what = value.trim() === '' ? 'an empty value' : `an empty element in '${escapeControls(value)}'`;
      throw new UsageError(`${flag} got ${what}`, `give at least one value, separated by commas without empty ones (an unset CI variable expands to ""): e.g. ${flag} a,b`);
    }
    return [...(previous ?? []), ...items];
  };
}

/** The argument parser of a string flag: refuses control characters it may not hold. */
export function stringParser(flag: string, text = false): (value: string) => string {
  return (value) => {
    checkControls(flag, value, text);
    return value;
  };
}
