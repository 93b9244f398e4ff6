/**
 * Numbers as typed: a JSON number is a double, so a value a double cannot hold (1e400, 9007199254740993,
 * a 30-digit id, 1e-400) would be sent as something else (null, a neighbour, 0). svc refuses those
 * rather than change them.
 */

/** A decimal number literal as JSON writes it (no hex, no leading +, no bare dot). */
export const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/** Digits without leading/trailing zeros and the power of ten of the last digit: "1.50e2" -> ["15", 1]. */
function canonical(text: string): [string, number] {
  const m = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text.replace(/^-/, ''))!;
  let digits = m[1] + (m[2] ?? '');
  let exp = Number(m[3] ?? 0) - (m[2]?.length ?? 0);
  digits = digits.replace(/^0+/, '');
  if (digits === '') return ['0', 0];
  const trailing = digits.length - digits.replace(/0+$/, '').length;
  return [digits.slice(0, digits.length - trailing), exp + trailing];
}

/** The number a decimal literal denotes, when a double holds exactly that value; else undefined. */
export function exactNumber(text: string): number | undefined {
  if (!DECIMAL.test(text)) return undefined;
  const n = Number(text);
  if (!Number.isFinite(n)) return undefined;
  const [d1, e1] = canonical(text);
  // String(n) is the shortest text that reads back as n: it denotes the same value only if the literal did.
  const [d2, e2] = canonical(String(Math.abs(n)));
  if (d1 !== d2 || (d1 !== '0' && e1 !== e2)) return undefined;
  return Object.is(n, -0) ? 0 : n;
}

/** Why a decimal literal cannot be sent as a number, for an error message. */
export function inexactReason(text: string): string {
  const n = Number(text);
  if (!Number.isFinite(n)) return 'it is too large for a JSON number (it would be sent as null)';
  return `a JSON number (a double) cannot hold it exactly: it would be sent as ${String(n)}`;
}

/** Number literals of a JSON text (outside strings) that a double cannot hold exactly. */
export function inexactNumbers(json: string): string[] {
  const found: string[] = [];
  // Strings as one unrolled loop: an alternation repeated per character overflows the regex stack on
  // a long string (a 10 MB value was "nested too deeply").
  const re = /"[^"\\]*(?:\\.[^"\\]*)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  for (const m of json.matchAll(re)) {
    if (m[0].startsWith('"')) continue;
    if (exactNumber(m[0]) === undefined) found.push(m[0]);
  }
  return found;
}
