/**
 * Charts for the stats commands, drawn as text: a series of periods as one stacked bar a period (by
 * level), and counts as bars. Each level has its own glyph, so a chart reads without colour (in a
 * pipe, with NO_COLOR); on a terminal the glyphs are also coloured. Everything fits `width` columns
 * (the detail view passes 80 when not on a terminal). Loaded only when a detail view has a chart or bars section (the stats
 * commands' views), through render.ts.
 */
import type { ChalkInstance } from 'chalk';
import { LEVELS, type Level } from '../operations/levels.js';
import { levelPaint, statusPaint } from './cells.js';
import { getPath, scalarText } from './field-paths.js';
import { cellText } from '../core/sanitize.js';
import { clip, displayWidth, pad, wrap } from './text-width.js';

interface ChartOptions {
  /** Columns to fill; 80 when undefined (not a terminal). */
  width?: number;
  chalk: ChalkInstance;
}

const GLYPH: Record<Level, string> = { critical: '█', high: '▓', medium: '▒', low: '░', info: '·' };
const PLAIN = '█';
/** The part of a period's own total (`total`, else `open`) its levels do not account for. */
const REST = '-';
const MISSING = '?';
/** A JSON number's text. */
const NUMBER_TEXT = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;
/** More periods than this (a year of weeks is 53) get a line saying how to draw fewer. */
const LONG_SERIES = 60;
/** The narrowest bar drawn, however narrow the terminal. */
const BAR_MIN = 8;

type Paint = (s: string) => string;
interface Part { n: number; glyph: string; paint: Paint }
/** `text`: the value as the service wrote it, where a double does not hold it (`12345678901234567890`, `1e400`). */
interface Bar { label: string; parts: Part[]; value: number; missing: boolean; text?: string }

const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** A level's count in one record: `critical`, or `criticalIssues` as in repositoryRiskScores. */
function levelCount(record: unknown, level: Level): number | undefined {
  return num(getPath(record, level)) ?? num(getPath(record, `${level}Issues`));
}

const hasLevels = (record: unknown) => LEVELS.some((l) => levelCount(record, l) !== undefined);

function levelParts(record: unknown, chalk: ChalkInstance): Part[] {
  return LEVELS.flatMap((l) => {
    const n = levelCount(record, l);
    return n === undefined ? [] : [{ n: Math.max(0, n), glyph: GLYPH[l], paint: levelPaint(chalk, l) }];
  });
}

/** `falsePositive` -> `false positive`. */
const words = (key: string) => key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

/** The period's name: its date, else the first text field, else its position. */
function periodLabel(point: unknown, index: number): string {
  for (const key of ['date', 'period', 'startDate', 'bucket', 'start']) {
    const v = getPath(point, key);
    if (typeof v === 'string' || typeof v === 'number') return cellText(scalarText(v)).slice(0, 10);
  }
  return `#${index + 1}`;
}

/** Bars, one a line: label, the bar (stacked parts, scaled to the longest), the value. */
function drawBars(bars: Bar[], o: ChartOptions): string[] {
  const width = o.width ?? 80;
  const anyMissing = bars.some((b) => b.missing);
  const values = bars.map((b) => `${b.text ?? b.value}${b.missing ? ` ${MISSING}` : anyMissing ? '  ' : ''}`);
  const valueWidth = Math.max(...values.map((v) => v.length));
  const labelWidth = Math.min(Math.max(...bars.map((b) => displayWidth(b.label))), Math.max(8, Math.floor(width * 0.4)));
  const barWidth = Math.max(BAR_MIN, width - labelWidth - valueWidth - 3);
  const longest = Math.max(0, ...bars.map((b) => b.parts.reduce((s, p) => s + p.n, 0)));
  const scale = longest > 0 ? barWidth / longest : 0;
  return bars.map((b, i) => {
    const cells = partCells(b.parts, scale);
    const text = b.parts.map((p, k) => (cells[k] ? p.paint(p.glyph.repeat(cells[k])) : '')).join('');
    const drawn = cells.reduce((s, c) => s + c, 0);
    return `${pad(clip(b.label, labelWidth), labelWidth)}  ${text}${' '.repeat(Math.max(0, barWidth - drawn))} ${values[i].padStart(valueWidth)}`.trimEnd();
  });
}

/**
 * Cells of each part of a stacked bar: the bar's length rounded as a whole, split at the rounded
 * running sums. A part with a count that rounds to no cell still gets one (taken from the part with
 * the most), so no level with issues vanishes from its bar on a narrow terminal; a count too small
 * for the scale still shows as one cell.
 */
function partCells(parts: readonly Part[], scale: number): number[] {
  const cells: number[] = [];
  let sum = 0;
  let drawn = 0;
  for (const p of parts) {
    sum += p.n;
    const end = Math.round(sum * scale);
    cells.push(Math.max(0, end - drawn));
    drawn = Math.max(drawn, end);
  }
  parts.forEach((p, k) => {
    if (p.n <= 0 || cells[k] > 0) return;
    const most = cells.indexOf(Math.max(...cells));
    if (cells[most] > 1) cells[most]--;
    cells[k] = 1;
  });
  return cells;
}

/** `█ critical  ▓ high ...` for the levels drawn, wrapped to the width between items. */
function legend(levels: Level[], o: ChartOptions, missing: boolean, rest?: string): string[] {
  const items = levels.map((l) => `${levelPaint(o.chalk, l)(GLYPH[l])} ${l}`);
  const widths = levels.map((l) => 2 + l.length);
  if (missing) { items.push(`${MISSING} a level missing`); widths.push(17); }
  if (rest) { const item = `${REST} ${rest} beyond the levels`; items.push(item); widths.push(item.length); }
  const lines: string[] = [];
  let line = '';
  let used = 0;
  items.forEach((item, i) => {
    if (used > 0 && used + 2 + widths[i] > (o.width ?? 80)) { lines.push(line); line = ''; used = 0; }
    line += (used > 0 ? '  ' : '') + item;
    used += (used > 0 ? 2 : 0) + widths[i];
  });
  if (line) lines.push(line);
  return lines;
}

const MINUS = '\u2212';

/** `12 → 7, −42%`: the change from the first value to the last. */
function change(from: number, to: number): string {
  if (from === to) return `${from} → ${to}, no change`;
  if (from === 0) return `${from} → ${to}, up from none`;
  const pct = Math.round(((to - from) / from) * 100);
  return `${from} → ${to}, ${pct < 0 ? `${MINUS}${-pct}` : `+${pct}`}%`;
}

/**
 * The field that holds a period's own total of open issues, where the periods give one: `total`,
 * else `open` (inference: the periods of "open issues over time" name their count of open issues
 * `open`, as issueCounts does in the field notes; said in the total's line).
 */
function ownTotalField(points: unknown[]): 'total' | 'open' | undefined {
  return (['total', 'open'] as const).find((f) => points.some((p) => num(getPath(p, f)) !== undefined));
}

/**
 * A series of periods (each a record with a date and counts by level) as stacked bars, a legend,
 * and the change over the range for each level and the total: "open critical 12 → 7, −42% since
 * 2026-11-01". A period without some level is marked `?` and left out of that level's change.
 * The total is the period's own (`total`, else `open`: which is said), its open issues beyond the
 * levels given drawn as the rest of its bar; without one it is the sum of the levels, called the
 * total only when all five are given (else "sum of the levels shown").
 */
export function seriesChart(points: unknown[], o: ChartOptions): string[] {
  if (points.length === 0) return ['No periods in this range: nothing to chart.'];
  const withLevels = points.filter(hasLevels);
  if (withLevels.length === 0) return ['The periods carry no counts by level: nothing to chart (-o json shows them).'];
  const drawn = LEVELS.filter((l) => points.some((p) => levelCount(p, l) !== undefined));
  const own = ownTotalField(points);
  const ownTotal = (p: unknown) => (own ? num(getPath(p, own)) : undefined);
  const bars: Bar[] = points.map((p, i) => {
    const parts = levelParts(p, o.chalk);
    const sum = parts.reduce((s, x) => s + x.n, 0);
    const total = ownTotal(p);
    if (total !== undefined && total > sum) parts.push({ n: total - sum, glyph: REST, paint: (x) => x });
    return { label: periodLabel(p, i), parts, value: total ?? sum, missing: drawn.some((l) => levelCount(p, l) === undefined) };
  });
  const rest = bars.some((b) => b.parts.some((x) => x.glyph === REST));
  const lines = [...drawBars(bars, o), ...legend(drawn, o, bars.some((b) => b.missing), rest ? own : undefined)];
  // Day buckets over years scroll for hundreds of lines: say how to read the trend in fewer.
  if (points.length > LONG_SERIES) lines.push(...wrap(`${points.length} periods: a coarser --time-granularity (week or month) draws fewer bars.`, o.width ?? 80));
  lines.push('');
  if (points.length === 1) {
    lines.push(...wrap(`One period (${bars[0].label}): no change to show.`, o.width ?? 80));
    return lines;
  }
  const ends = (pick: (p: unknown) => number | undefined) => {
    const at = points.map((p, i) => ({ n: pick(p), i })).filter((x): x is { n: number; i: number } => x.n !== undefined);
    return at.length >= 2 ? { first: at[0], last: at[at.length - 1] } : undefined;
  };
  const said: Array<{ name: string; paint: Paint; text: string; since: string; until: string }> = [];
  const say = (name: string, paint: Paint, pick: (p: unknown) => number | undefined) => {
    const e = ends(pick);
    if (!e) return;
    const until = e.last.i === points.length - 1 ? '' : ` (last seen ${bars[e.last.i].label})`;
    said.push({ name, paint, text: change(e.first.n, e.last.n), since: bars[e.first.i].label, until });
  };
  for (const l of drawn) {
    // A level that is zero all along says nothing.
    if (points.every((p) => !levelCount(p, l))) continue;
    say(l, levelPaint(o.chalk, l), (p) => levelCount(p, l));
  }
  const levelSum = (p: unknown) => (hasLevels(p) && !drawn.some((l) => levelCount(p, l) === undefined) ? drawn.reduce((s, l) => s + levelCount(p, l)!, 0) : undefined);
  // The service's own total where it gives one (its field named unless it is `total`); else the
  // levels' sum, a total only when every level is given. One level's sum is that level's own line.
  if (own) say('total', (s) => o.chalk.bold(s), ownTotal);
  else if (drawn.length === LEVELS.length) say('total', (s) => o.chalk.bold(s), levelSum);
  else if (drawn.length > 1) say('sum of the levels shown', (s) => o.chalk.bold(s), levelSum);
  const width = o.width ?? 80;
  const from = (x: { name: string }) => (x.name === 'total' && own === 'open' ? " (the service's `open`, inferred)" : '');
  const full = said.map((x) => `open ${x.name} ${x.text} since ${x.since}${x.until}${from(x)}`);
  if (full.every((l) => displayWidth(l) <= width)) {
    said.forEach((x, i) => lines.push(full[i].replace(`open ${x.name}`, `open ${x.paint(x.name)}`)));
  } else {
    // Narrow: the date once above, each change on its own line.
    const since = [...new Set(said.map((x) => x.since))];
    if (since.length === 1) lines.push(`Since ${since[0]}:`);
    for (const x of said) {
      const [head, ...rest] = wrap(`open ${x.name} ${x.text}${since.length === 1 ? '' : ` since ${x.since}`}${x.until}${from(x)}`, width);
      lines.push(head.replace(`open ${x.name}`, `open ${x.paint(x.name)}`), ...rest);
    }
  }
  return lines;
}

/**
 * Counts as bars: an object of counts (`{ critical: 3, high: 5 }`, `{ open: 9, patched: 2 }`), one
 * bar a key; or a list of records, one stacked bar a record (by level where it has levels, else its
 * `total`), named by the first of `keys` it has.
 */
export function countBars(value: unknown, o: ChartOptions, keys: string[] = []): string[] {
  let bars: Bar[];
  if (Array.isArray(value)) {
    bars = value.map((r, i) => {
      const name = keys.map((k) => getPath(r, k)).find((v) => typeof v === 'string' || typeof v === 'number');
      const label = name === undefined ? `#${i + 1}` : cellText(scalarText(name));
      const parts = hasLevels(r) ? levelParts(r, o.chalk) : [{ n: Math.max(0, num(getPath(r, 'total')) ?? 0), glyph: PLAIN, paint: (s: string) => s }];
      return { label, parts, value: num(getPath(r, 'total')) ?? parts.reduce((s, p) => s + p.n, 0), missing: false };
    });
    if (bars.length === 0) return ['Nothing to count.'];
    const drawn = LEVELS.filter((l) => value.some((r) => levelCount(r, l) !== undefined));
    return [...drawBars(bars, o), ...(drawn.length ? legend(drawn, o, false) : [])];
  }
  if (value === null || typeof value !== 'object') return [];
  // A count the service wrote beyond a double (a table gets its text: exact-json.ts withServiceText)
  // is shown as written: `12345678901234567890`, not `12345678901234567000`; `1e400` is not dropped.
  const entries = Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => {
    const n = num(v);
    const text = typeof v === 'string' && NUMBER_TEXT.test(v.trim()) ? v.trim() : undefined;
    return n === undefined && text === undefined ? [] : [[k, n, text] as const];
  });
  if (entries.length === 0) return [];
  bars = entries.map(([k, n, text]) => {
    const paint = (LEVELS as readonly string[]).includes(k) ? levelPaint(o.chalk, k as Level) : statusPaint(o.chalk, k) ?? ((s: string) => s);
    const glyph = (LEVELS as readonly string[]).includes(k) ? GLYPH[k as Level] : PLAIN;
    // Beyond a double's range (`1e400`): no bar (Infinity would stretch the scale to nothing), its text shown.
    const finite = n ?? 0;
    return { label: words(k), parts: [{ n: Math.max(0, finite), glyph, paint }], value: finite, missing: false, ...(text !== undefined && text !== String(n) ? { text } : {}) };
  });
  return drawBars(bars, o);
}
