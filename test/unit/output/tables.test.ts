/** Tables for people: whole keys, human unique headers, display widths, relative times, colour on a terminal only. */
import { describe, expect, it } from 'vitest';
import { clip, clipPath, displayWidth } from '../../../src/output/text-width.js';
import { columnsOf, kindOf, nameOf, resolveColumns } from '../../../src/output/columns.js';
import { relativeTime } from '../../../src/output/cells.js';
import { SCREENFUL, TableStream, rowsTable } from '../../../src/output/table.js';
import { TableLayout } from '../../../src/output/layout.js';
import { render } from '../../../src/output/render.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const ESC = '\u001b';

const issues = Array.from({ length: 5 }, (_, i) => ({
  id: `iss_58c0d1e${i}`,
  score: [97, 75, 50, 20, 5][i],
  status: ['open', 'patched', 'open', 'archived', 'open'][i],
  vulnClass: 'Insecure Deserialization',
  repositoryName: 'notification-worker',
  affectedFile: 'src/handlers/upload/very/deep/path/file.ts',
  startLine: 120 + i,
  generatedTitle: 'SQL injection in getUserById through the id parameter of the admin console',
  createdAt: '2026-05-29T12:00:00Z',
}));
const COLUMNS = ['id', 'score', 'status', 'vulnClass', 'repositoryName', 'affectedFile', 'startLine', 'generatedTitle'];

const lines = (text: string) => text.trimEnd().split('\n');
const plain = (text: string) => text.replace(/\u001b\[[0-9;]*m/g, '');

describe('display width', () => {
  it('counts CJK and emoji as two columns, ASCII as one', () => {
    expect(displayWidth('abc')).toBe(3);
    expect(displayWidth('漢字')).toBe(4);
    expect(displayWidth('🙂')).toBe(2);
    expect(displayWidth('e\u0301')).toBe(1);
  });

  it('cuts at a width without splitting a wide character or an emoji sequence', () => {
    expect(clip('漢字漢字', 5)).toBe('漢字…');
    expect(displayWidth(clip('漢字漢字', 5))).toBe(5);
    expect(clip('👍🏽👍🏽👍🏽', 5)).toBe('👍🏽👍🏽…');
    expect(clip('abcdef', 4)).toBe('abc…');
    expect(clip('abc', 3)).toBe('abc');
  });
});

describe('file paths', () => {
  it('are cut from the left, keeping the file\'s name (whole directories go first), as gh and ls do', () => {
    expect(clipPath('app/handlers/import.js', 22)).toBe('app/handlers/import.js');
    expect(clipPath('app/handlers/import.js', 21)).toBe('…/handlers/import.js');
    expect(clipPath('app/handlers/import.js', 19)).toBe('…/import.js');
    expect(clipPath('app/handlers/import.js', 11)).toBe('…/import.js');
    expect(clipPath('app/handlers/import.js', 8)).toBe('…port.js');
    expect(clipPath('src/漢字/ファイル.ts', 13)).toBe('…/ファイル.ts');
    expect(clipPath('src/漢字/ファイル.ts', 12)).toBe('…ファイル.ts');
    expect(displayWidth(clipPath('src/漢字/ファイル.ts', 10))).toBeLessThanOrEqual(10);
    expect(kindOf('affectedFile')).toBe('path');
  });
});

describe('headers', () => {
  it('are human and unique', () => {
    expect(columnsOf(['id', 'name', 'defaultScanTargetBranch', 'isPrScanningEnabled', 'issueCounts.open', 'issueCounts.patched']).map((c) => c.header))
      .toEqual(['ID', 'NAME', 'BRANCH', 'PR SCANS', 'OPEN', 'PATCHED']);
    expect(columnsOf(['issueCounts.open', 'categoryCounts.open']).map((c) => c.header)).toEqual(['ISSUE COUNTS OPEN', 'CATEGORY COUNTS OPEN']);
    expect(columnsOf(['scanId', 'id']).map((c) => c.header)).toEqual(['SCAN', 'ID']);
    // A nested id or name says whose it is, alone too (it read "ID", as if it were the row's own id).
    expect(columnsOf(['hostARepository.id']).map((c) => c.header)).toEqual(['HOST A REPOSITORY ID']);
    expect(columnsOf(['name', 'hostARepository.id', 'owner.name']).map((c) => c.header)).toEqual(['NAME', 'HOST A REPOSITORY ID', 'OWNER NAME']);
    // The header shown is one a person can type back; `id` still means the row's own id.
    const valid = ['id', 'name', 'hostARepository.id'];
    expect(resolveColumns(['host a repository id', 'id'], valid, 'repos list')).toEqual(['hostARepository.id', 'id']);
    expect(nameOf('hostARepository.id', valid)).toBe('hostARepository.id');
    expect(columnsOf(['someNewField', 'someNewField']).map((c) => c.header)).toEqual(['SOME NEW FIELD', 'SOME NEW FIELD (2)']);
  });

  it('know keys, titles and times', () => {
    expect(['id', 'repositoryId', 'name', 'scanId'].map(kindOf)).toEqual(['key', 'key', 'key', 'key']);
    expect(kindOf('generatedTitle')).toBe('title');
    expect(kindOf('createdAt')).toBe('time');
  });
});

describe('tables at 80 columns', () => {
  const o = { color: false, pretty: true, width: 80, now: NOW, mayHide: true };

  it('the columns to see them by name the rows too: a table whose first column is no id keeps it', () => {
    // stats issues-by-vuln-class at 50 columns said --columns low,info,total: rows without their class.
    const classes = [
      { vulnClass: 'Cross-Site Scripting', cwes: ['CWE-79'], critical: 0, high: 6, medium: 16, low: 0, info: 0, total: 22 },
      { vulnClass: 'Path Traversal', cwes: ['CWE-22'], critical: 4, high: 5, medium: 11, low: 0, info: 0, total: 20 },
    ];
    const notes: string[] = [];
    rowsTable(classes, ['vulnClass', 'cwes', 'critical', 'high', 'medium', 'low', 'info', 'total'], { ...o, width: 50, note: (l) => notes.push(l) });
    expect(notes[0]).toMatch(/^Not shown at 50 columns: .*TOTAL\.$/);
    expect(notes[1]).toMatch(/^To see them: --columns class,/);
  });

  it('keep ids and names whole; titles give way first; nothing wider than the terminal', () => {
    const notes: string[] = [];
    const text = rowsTable(issues, COLUMNS, { ...o, note: (l) => notes.push(l) });
    for (const issue of issues) expect(text).toContain(issue.id);
    expect(text).toContain('notification-worker');
    expect(text).toMatch(/SQL injection.*…/);
    expect(lines(text).every((l) => displayWidth(l) <= 80)).toBe(true);
    // Default columns are left out from the right, and said so, before the title is cut below its share.
    expect(notes).toEqual(['Not shown at 80 columns: STATUS, CLASS, FILE, LINE.', 'To see them: --columns id,status,class,repository,file,line,title']);
    expect(lines(text)[0].split(/\s{2,}/)).toEqual(['ID', 'SCORE', 'REPOSITORY', 'TITLE']);
  });

  it('a title keeps its share of the width (32 at 80, 48 at 120, whole at 200): other columns give way first', () => {
    const titleAt = (text: string) => lines(text)[0].indexOf('TITLE');
    for (const [width, least] of [[80, 32], [100, 40], [120, 48], [200, 74]] as const) {
      const text = rowsTable(issues, COLUMNS, { ...o, width });
      expect(Math.max(...lines(text).map((l) => displayWidth(l) - titleAt(text))), `at ${width}`).toBeGreaterThanOrEqual(least);
      expect(Math.max(...lines(text).map(displayWidth)), `at ${width}`).toBeLessThanOrEqual(width);
    }
    // Chosen columns are never left out: they shrink (to at least 10, their header) before the title goes below its share.
    const chosen = rowsTable(issues, COLUMNS, { ...o, mayHide: false });
    expect(lines(chosen)[0].split(/\s{2,}/)).toHaveLength(8);
    expect(lines(chosen).every((l) => displayWidth(l) <= 80)).toBe(true);
  });

  it('a default column the same on every row is left out and said once; never keys, titles, level or score, nor with one row', () => {
    const notes: string[] = [];
    const open = issues.map((i) => ({ ...i, status: 'open', level: 'critical', score: 97 }));
    const text = rowsTable(open, ['id', 'level', 'score', 'status', 'vulnClass', 'repositoryName', 'generatedTitle'], { ...o, width: 200, dropUniform: true, note: (l) => notes.push(l) });
    expect(lines(text)[0].split(/\s{2,}/)).toEqual(['ID', 'LEVEL', 'SCORE', 'REPOSITORY', 'TITLE']);
    expect(notes).toEqual(['Same on every row, not shown: STATUS open, CLASS Insecure Deserialization.']);
    // One row: nothing is "the same on every row".
    const one = rowsTable(open.slice(0, 1), ['id', 'status', 'generatedTitle'], { ...o, dropUniform: true });
    expect(lines(one)[0].split(/\s{2,}/)).toEqual(['ID', 'STATUS', 'TITLE']);
    // Not asked for (--columns, a detail view's section): every column stays.
    expect(lines(rowsTable(open, ['id', 'status'], { ...o }))[0].split(/\s{2,}/)).toEqual(['ID', 'STATUS']);
    // Empty on every row: said as such.
    const said: string[] = [];
    rowsTable(issues.map((i) => ({ ...i, affectedFile: '' })), ['id', 'affectedFile', 'generatedTitle'], { ...o, dropUniform: true, note: (l) => said.push(l) });
    expect(said).toEqual(['Same on every row, not shown: FILE (empty).']);
  });

  it('never leave out chosen columns', () => {
    const text = rowsTable(issues, COLUMNS, { ...o, mayHide: false });
    expect(lines(text)[0].split(/\s{2,}/)).toHaveLength(8);
    for (const issue of issues) expect(text).toContain(issue.id);
  });

  it('a key longer than the terminal is still whole', () => {
    const long = `repo_${'x'.repeat(100)}`;
    expect(rowsTable([{ id: long, name: 'a' }], ['id', 'name'], o)).toContain(long);
  });

  it('align CJK text by its display width', () => {
    const rows = [{ id: 'a', title: '漢字のタイトルです', n: 1 }, { id: 'bb', title: 'latin title', n: 22 }];
    const text = rowsTable(rows, ['id', 'title', 'n'], { ...o, width: 30 });
    const starts = lines(text).map((l) => displayWidth(l.slice(0, l.lastIndexOf(' ') + 1)));
    expect(new Set(starts).size).toBe(1);
    expect(lines(text).every((l) => displayWidth(l) <= 30)).toBe(true);
  });

  it('show times relative on a terminal, exact elsewhere', () => {
    expect(rowsTable(issues.slice(0, 1), ['id', 'createdAt'], o)).toContain('3 days ago');
    expect(rowsTable(issues.slice(0, 1), ['id', 'createdAt'], { ...o, pretty: false })).toContain('2026-05-29T12:00:00Z');
    expect(relativeTime('2026-06-01T11:59:40Z', NOW)).toBe('just now');
    expect(relativeTime('2026-06-01T09:00:00Z', NOW)).toBe('3 hours ago');
    expect(relativeTime('2025-05-01T09:00:00Z', NOW)).toBe('1 year ago');
    expect(relativeTime('2026-06-03T12:00:00Z', NOW)).toBe('in 2 days');
  });

  it('colour levels and statuses only when colour is on', () => {
    const colored = rowsTable(issues, ['id', 'score', 'status'], { ...o, color: true });
    expect(colored).toContain(`${ESC}[31m${ESC}[1m97`);
    expect(colored).toContain(`${ESC}[33mopen`);
    expect(colored).toContain(`${ESC}[32mpatched`);
    expect(rowsTable(issues, ['id', 'score', 'status'], o)).not.toContain(ESC);
    // Colour does not count towards widths.
    expect(lines(plain(colored))).toEqual(lines(rowsTable(issues, ['id', 'score', 'status'], o)));
  });
});

describe('tables at any width', () => {
  const o = { color: false, pretty: true, now: NOW };
  const widest = (text: string) => Math.max(...lines(text).map(displayWidth));
  // repos list at 40 columns printed rows 42 wide: BRANCH was neither shrunk nor left out.
  const repos = [
    { id: 'repo_58fcafba', name: 'data-pipeline', defaultScanTargetBranch: 'master', isPrScanningEnabled: true, issueCounts: { open: 12, patched: 3 } },
    { id: 'repo_73870c2d', name: 'notification-worker', defaultScanTargetBranch: 'main', isPrScanningEnabled: false, issueCounts: { open: 1, patched: 0 } },
  ];
  const REPO_COLUMNS = ['id', 'name', 'defaultScanTargetBranch', 'isPrScanningEnabled', 'issueCounts.open', 'issueCounts.patched'];

  it('is never wider than the terminal, defaults or chosen columns, whenever the keys fit', () => {
    for (let width = 36; width <= 140; width += 1) {
      // Chosen columns are never left out: from the width where each can have one column beside the keys.
      for (const mayHide of width >= 52 ? [true, false] : [true]) {
        expect(widest(rowsTable(repos, REPO_COLUMNS, { ...o, width, mayHide })), `repos at ${width}, mayHide ${mayHide}`).toBeLessThanOrEqual(width);
        expect(widest(rowsTable(issues, COLUMNS, { ...o, width, mayHide })), `issues at ${width}, mayHide ${mayHide}`).toBeLessThanOrEqual(width);
      }
    }
  });

  it('at 40 columns, repos list leaves BRANCH out (and says so) rather than wrap', () => {
    const notes: string[] = [];
    const text = rowsTable(repos, REPO_COLUMNS, { ...o, width: 40, mayHide: true, note: (l) => notes.push(l) });
    expect(lines(text)[0].split(/\s{2,}/)).toEqual(['ID', 'NAME']);
    expect(text).toContain('repo_58fcafba  data-pipeline');
    expect(notes[0]).toBe('Not shown at 40 columns: BRANCH, PR SCANS, OPEN, PATCHED.');
  });

  it('a file is cut from the left, so its name stays; a line is never offered without its file', () => {
    const notes: string[] = [];
    const text = rowsTable(issues, COLUMNS, { ...o, width: 100, mayHide: false, note: (l) => notes.push(l) });
    const header = lines(text)[0].split(/\s{2,}/);
    expect(header).toContain('FILE');
    expect(text).toMatch(/ …\/file\.ts /);
    expect(text).not.toMatch(/src\/handlers\/up[^ ]*…/);
    for (let width = 40; width <= 140; width += 2) {
      const said: string[] = [];
      rowsTable(issues, COLUMNS, { ...o, width, mayHide: true, note: (l) => said.push(l) });
      const hint = said.find((l) => l.startsWith('To see them:'));
      if (hint?.includes('line')) expect(hint, `at ${width}`).toMatch(/,file,line,/);
    }
    expect(notes.filter((l) => l.startsWith('To see them:') && /\bline\b/.test(l) && !/\bfile\b/.test(l))).toEqual([]);
  });
});

describe('long tables stream', () => {
  const many = (n: number) => Array.from({ length: n }, (_, i) => ({ ...issues[i % 5], id: `iss_${String(i).padStart(6, '0')}` }));

  it('the streaming layout draws what cli-table3 draws', async () => {
    let streamed = '';
    const o = { color: true, pretty: true, width: 80, now: NOW };
    await new TableStream(COLUMNS, o, { write: async (t) => { streamed += t; } }).rows(issues);
    expect(streamed).toBe(rowsTable(issues, COLUMNS, o));
  });

  it('is linear in rows: each row is laid out once, widths from the first page only', async () => {
    let cellsCalls = 0;
    const original = TableLayout.prototype.cells;
    TableLayout.prototype.cells = function (row) { cellsCalls++; return original.call(this, row); };
    try {
      let written = 0;
      // 2,000 rows: four times the 500 the widths are planned from (table.ts's SAMPLE_ROWS), so laying out
      // every row twice (4,000 calls) or planning from all rows is well over the bound.
      await new TableStream(COLUMNS, { color: false, width: 80 }, { write: async (t) => { written += t.split('\n').length - 1; } }).rows(many(2_000));
      expect(written).toBe(2_001);
      expect(cellsCalls).toBeLessThanOrEqual(2_000 + 500);
    } finally {
      TableLayout.prototype.cells = original;
    }
  });

  it('render() streams a table of more than a screenful through the sink, in chunks', async () => {
    const chunks: string[] = [];
    const out: string[] = [];
    await render({ issues: many(SCREENFUL + 1) }, { format: 'table', columns: ['id', 'score'], rowsPath: 'issues', pretty: false, color: false },
      { out: (t) => out.push(t), note: () => {}, write: async (t) => { chunks.push(t); } });
    expect(out).toEqual([]);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('').split('\n').filter(Boolean)).toHaveLength(SCREENFUL + 2);
  });

  it('stops between chunks when interrupted', async () => {
    const controller = new AbortController();
    let rows = 0;
    const stream = new TableStream(['id'], { color: false }, { write: async (t) => { rows += t.split('\n').length - 1; }, signal: controller.signal });
    setImmediate(() => controller.abort('SIGINT'));
    await expect(stream.rows(many(10_000))).rejects.toThrow('interrupted by SIGINT');
    expect(rows).toBeLessThan(1000);
  });
});
