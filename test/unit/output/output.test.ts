import { describe, expect, it } from 'vitest';
import { recordTable, rowsTable } from '../../../src/output/table.js';
import { fitWidths } from '../../../src/output/layout.js';
import { render } from '../../../src/output/render.js';
import { csvRow, csvHeader } from '../../../src/output/csv.js';
import { chooseFormat, useColor } from '../../../src/output/formats.js';

const rows = [
  { id: 'iss_1', score: 91, issueCounts: { open: 3 }, title: 'SQL injection in the login handler of the admin console' },
  { id: 'iss_2', score: 12, issueCounts: { open: 0 }, title: 'x\u001b]0;pwned\u0007y' },
];

function capture() {
  const out: string[] = [];
  const notes: string[] = [];
  return { out, notes, sink: { out: (t: string) => out.push(t), note: (t: string) => notes.push(t) } };
}

describe('tables', () => {
  it('fits widths to the terminal by shrinking the widest column', () => {
    expect(fitWidths([5, 40, 10], 80)).toEqual([5, 40, 10]);
    expect(fitWidths([5, 40, 10], 40)).toEqual([5, 21, 10]);
    expect(fitWidths([30, 30], 20)).toEqual([9, 9]);
    // Titles give way first; keys (ids) never.
    const cols = [{ kind: 'key', header: 'ID' }, { kind: 'text', header: 'CLASS' }, { kind: 'title', header: 'TITLE' }] as const;
    expect(fitWidths([14, 20, 60], 80, cols)).toEqual([14, 20, 42]);
    expect(fitWidths([14, 20, 60], 40, cols)).toEqual([14, 6, 16]);
    expect(fitWidths([30, 20, 60], 20, cols)).toEqual([30, 6, 6]);
  });

  it('draws rows with dot-path columns, clipped, without control sequences', () => {
    const text = rowsTable(rows, ['id', 'issueCounts.open', 'title'], { color: false, width: 50 });
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+OPEN\s+TITLE$/);
    expect(lines[1]).toMatch(/^iss_1\s+3\s+SQL injection.*…$/);
    expect(lines.every((l) => l.length <= 50)).toBe(true);
    expect(text).not.toContain('\u001b');
    expect(text).toContain('xy');
  });

  it('draws a record as aligned key/value lines', () => {
    expect(recordTable({ scans: { fullScans: 3 }, total: 7 }, [], { color: false })).toBe('scans.fullScans  3\ntotal            7\n');
  });
});

describe('render', () => {
  it('json is the exact response; ndjson one row a line; csv quoted', async () => {
    const data = { issues: rows, totalCount: 9 };
    const j = capture();
    await render(data, { format: 'json', columns: [], rowsPath: 'issues', pretty: false, color: false }, j.sink);
    expect(JSON.parse(j.out.join(''))).toEqual(data);
    const n = capture();
    await render(data, { format: 'ndjson', columns: [], rowsPath: 'issues', pretty: false, color: false }, n.sink);
    expect(n.out.join('').trimEnd().split('\n').map((l) => JSON.parse(l))).toEqual(rows);
    expect(csvHeader(['id', 'title'])).toBe('id,title\n');
    expect(csvRow({ id: 'a', title: 'say "hi", twice' }, ['id', 'title'])).toBe('a,"say ""hi"", twice"\n');
  });

  it('tables note the total and an empty list on stderr', async () => {
    const t = capture();
    await render({ issues: rows, totalCount: 9, currentPage: 1 }, { format: 'table', columns: ['id'], rowsPath: 'issues', pretty: false, color: false }, t.sink);
    expect(t.notes).toEqual(['Showing 2 of 9 (page 1); use --page, --page-size or --all for more.']);
    const e = capture();
    await render([], { format: 'table', columns: ['id'], pretty: false, color: false }, e.sink);
    expect([e.out, e.notes]).toEqual([[], ['No results.']]);
  });
});

describe('format and colour choice', () => {
  it('follows -o, --json, SVC_OUTPUT, the profile, then the terminal', () => {
    expect(chooseFormat({ stdoutIsTTY: true })).toBe('table');
    expect(chooseFormat({ stdoutIsTTY: false })).toBe('json');
    expect(chooseFormat({ profile: 'csv', stdoutIsTTY: true })).toBe('csv');
    expect(chooseFormat({ env: 'ndjson', profile: 'csv', stdoutIsTTY: true })).toBe('ndjson');
    expect(chooseFormat({ json: true, env: 'csv', stdoutIsTTY: true })).toBe('json');
    expect(chooseFormat({ output: 'table', json: true, stdoutIsTTY: false })).toBe('table');
    expect(() => chooseFormat({ env: 'xml', stdoutIsTTY: true })).toThrow(/SVC_OUTPUT/);
  });

  it('colours only terminals, honouring NO_COLOR, FORCE_COLOR and --no-color', () => {
    expect(useColor({ env: {}, isTTY: true })).toBe(true);
    expect(useColor({ env: {}, isTTY: false })).toBe(false);
    expect(useColor({ env: { NO_COLOR: '1' }, isTTY: true })).toBe(false);
    expect(useColor({ env: { FORCE_COLOR: '1' }, isTTY: false })).toBe(true);
    expect(useColor({ env: { FORCE_COLOR: '0' }, isTTY: true })).toBe(false);
    expect(useColor({ flag: false, env: { FORCE_COLOR: '1' }, isTTY: true })).toBe(false);
  });
});

describe('rows of shapes the spec does not show', () => {
  it('shows the one list of records inside a record as the rows', async () => {
    const { rowsOf } = await import('../../../src/output/render.js');
    expect(rowsOf({ repositories: [{ id: 'a' }, { id: 'b' }], total: 2 }, undefined, true)).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(rowsOf({ a: [{ id: 1 }], b: [{ id: 2 }] }, undefined, true)).toBeUndefined();
    expect(rowsOf({ tags: ['x', 'y'], total: 2 }, undefined, true)).toBeUndefined();
    // A declared record (an issue with an extra list of records) is the record, not that list.
    expect(rowsOf({ id: 'iss_1', comments: [{ text: 'x' }] })).toBeUndefined();
    expect(rowsOf({ issues: [] , other: [{ id: 1 }] }, 'issues')).toEqual([]);
  });
});
