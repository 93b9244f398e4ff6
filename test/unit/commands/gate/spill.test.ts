/**
 * The gate's kept issues in a temporary file (src/commands/gate/spill.ts): the same issues, in the
 * same order, the breaking ones in the same severity order, and every report and -o json byte for
 * byte what the in-memory store gives; nothing left in the temporary folder; no file where none
 * can be made.
 */
import { ftruncateSync, mkdirSync, readFileSync, readdirSync, readlinkSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { CliError } from '../../../../src/core/errors.js';
import { EXIT } from '../../../../src/core/exit-codes.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTally, type GateIssue, type IssueInput, type IssueList } from '../../../../src/gate/tally.js';
import { spillStore } from '../../../../src/commands/gate/spill.js';
import { mostSevereMask } from '../../../../src/gate/caps.js';
import { REPORT_KEYS, kindOf, type ReportInputs } from '../../../../src/gate/reports/registry.js';
import type { GateVerdict } from '../../../../src/gate/verdict.js';
import { useSandbox } from '../../../helpers/sandbox.js';
import { testHost } from '../../../helpers/host.js';
import { tempDir } from '../../../helpers/temp.js';
import { createContext } from '../../../../src/runtime.js';
import { runGate } from '../../../../src/commands/gate/run.js';
import { parseGateOptions, type GateCommandOptions } from '../../../../src/commands/gate/options.js';
import { scopeSpecs } from '../../../../src/commands/gate/scope-flags.js';
import type { GlobalOptions } from '../../../../src/core/global-options.js';
import { writeReports } from '../../../../src/commands/gate/write-reports.js';
import { type Thresholds } from '../../../../src/gate/policy.js';

/** Issues with what JSON can make hard: escapes, non-ASCII, lone surrogates, equal and missing scores, odd numbers, nesting. */
function issues(n: number): IssueInput[] {
  const titles = ['SQL "injection"\n', 'ünïcode ✅ 𝄞', 'lone \ud800 surrogate', '<xml> & \\ back', '\u0000\u001f controls'];
  return Array.from({ length: n }, (_, i) => ({
    id: i % 17 === 0 ? (i as unknown as string) : `iss_${i}`,
    score: (i % 9 === 0 ? undefined : i % 7 === 0 ? '85' : (i * 37) % 101) as number | undefined,
    status: i % 10 === 9 ? 'archived' : 'open',
    generatedTitle: `${titles[i % 5]} ${i}`,
    generatedDescription: i % 2 ? `Line one\nline two ${'x'.repeat(i % 50)}` : undefined,
    vulnClass: ['SQL Injection', 'xss', undefined][i % 3],
    cwes: i % 4 ? [`CWE-${79 + (i % 4)}`] : [],
    affectedFile: i % 11 ? `src/dir ${i % 7}/file-${i}.ts` : undefined,
    startLine: i % 13 ? i : undefined,
    big: i % 5 === 0 ? 1e21 : 0.1 + 0.2,
    codeScan: { id: `scan_${i % 3}`, nested: [null, true, { deep: 'ö' }] },
    sastCodeSegment: 'dropped',
    createdAt: '2026-01-01T00:00:00Z',
  }));
}

function tallied(input: IssueInput[], options: Thresholds, store?: ReturnType<typeof spillStore>) {
  // As the gate keeps them: heavy fields out (undefined), in place.
  const slim = (i: IssueInput) => { if (i.sastCodeSegment !== undefined) i.sastCodeSegment = undefined; if (typeof i.id !== 'string') i.id = String(i.id); return i; };
  const tally = store ? createTally({ ...options, keep: 'all', slim, store }) : createTally({ ...options, keep: 'all', slim });
  for (const issue of structuredClone(input)) tally.add(issue);
  return tally.result();
}

const json = (list: Iterable<GateIssue>) => JSON.stringify([...list]);

describe('the spill store', () => {
  it('gives back the same issues, in order, and the breaking ones most severe first, as the in-memory store', () => {
    const input = issues(400);
    for (const options of [{ failOn: 'high' as const }, { max: { total: 10 } }, { failOn: 'info' as const }, {}]) {
      const memory = tallied(input, options);
      // Batches of 4 KB (1 MB in use): the file's ~140 KB are written and read ahead across many (~35) of their boundaries.
      const store = spillStore({ after: 100, batch: 4096 });
      try {
        const spilled = tallied(input, options, store);
        expect(store.spilled).toBe(true);
        expect(spilled.issues.length).toBe(memory.issues.length);
        expect(spilled.breaking.length).toBe(memory.breaking.length);
        expect(json(spilled.issues)).toBe(json(memory.issues));
        expect(json(spilled.breaking)).toBe(json(memory.breaking));
        // Read again (each report reads the list anew), and partly (the summary's first 50).
        expect(json(spilled.issues)).toBe(json(memory.issues));
        let n = 0;
        for (const _ of spilled.breaking) if (++n === 50) break;
        expect(json(spilled.breaking)).toBe(json(memory.breaking));
        // Some places only (the SARIF cap's choice), read without the others.
        const keep = Uint8Array.from({ length: memory.issues.length + 7 }, (_, i) => (i * 7919) % 3 === 0 ? 1 : 0);
        const picked = (spilled.issues as IssueList).pick!(keep, 7);
        const wanted = (memory.issues as GateIssue[]).filter((_, at) => keep[7 + at] === 1);
        expect(picked.length).toBe(wanted.length);
        expect(json(picked)).toBe(json(wanted));
        // The SARIF cap's choice from the levels and scores kept in memory: the one made by reading every issue.
        expect((spilled.issues as IssueList).severities?.()).toBeDefined();
        for (const max of [0, 7, 1000]) expect(mostSevereMask([spilled.issues, wanted], max)).toEqual(mostSevereMask([memory.issues, wanted], max));
      } finally {
        store.close();
      }
    }
  });

  it('every report is byte for byte what the in-memory store gives', () => {
    // 400 issues: the kept list (400) and the breaking one (278) both longer than the streamed writers' pieces (256 items).
    const input = issues(400);
    const inputs: ReportInputs = { version: '1.2.3', startedAt: 0, endedAt: 60_000, issueUrl: (id) => `https://example.test/i/${id}` };
    const verdict = (result: GateVerdict['result']): GateVerdict => ({ result, scope: { types: ['open'] }, verified: { unverifiedFilters: [] }, fetched: 400, totalCount: 400 });
    const memory = verdict(tallied(input, { failOn: 'high', max: { medium: 3 } }));
    // Lists longer than the streamed writers' pieces (256 items), read back in batches of 4 KB.
    const store = spillStore({ after: 0, batch: 4096 });
    try {
      const spilled = verdict(tallied(input, { failOn: 'high', max: { medium: 3 } }, store));
      expect(store.spilled).toBe(true);
      expect([spilled.result.issues.length, spilled.result.breaking.length]).toEqual([400, 278]);
      for (const key of REPORT_KEYS) {
        const kind = kindOf(key);
        const whole = kind.text(memory, inputs);
        expect(kind.text(spilled, inputs), key).toBe(whole);
        if (kind.chunks) expect([...kind.chunks(spilled, inputs)].join(''), key).toBe(whole);
      }
    } finally {
      store.close();
    }
  });

  it('leaves nothing in the temporary folder, while open or after', () => {
    const dir = tempDir('svc-spill-');
    const store = spillStore({ after: 0, dir });
    const r = tallied(issues(50), {}, store);
    expect(store.spilled).toBe(true);
    // Removed while open (POSIX): readable through its descriptor only.
    if (process.platform !== 'win32') expect(readdirSync(dir)).toEqual([]);
    // Every issue given is counted (the gate counts one of another status fail closed).
    expect([...r.issues]).toHaveLength(50);
    store.close();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a temporary file that fails when read back ends the report with exit 9, and no report file is left', async () => {
    // The file has no name once open; on Linux /proc reaches it through its descriptor, to cut it short.
    if (process.platform !== 'linux') return;
    const dir = tempDir('svc-spill-');
    const store = spillStore({ after: 0, dir });
    try {
      const result = tallied(issues(400), { failOn: 'high' }, store);
      // Only this store's file: another test file's gate may hold one of its own in this process (worker threads).
      const ours = (target: string) => target.startsWith(join(dir, 'svc-gate-')) && /kept\.ndjson \(deleted\)$/.test(target);
      const fds = readdirSync('/proc/self/fd').filter((fd) => { try { return ours(readlinkSync(`/proc/self/fd/${fd}`)); } catch { return false; } });
      expect(fds).toHaveLength(1);
      ftruncateSync(Number(fds[0]), 1000);
      const out = join(dir, 'out');
      mkdirSync(out);
      const v: GateVerdict = { result, scope: {}, verified: { unverifiedFilters: [] }, fetched: 400, totalCount: 400 };
      const error = await writeReports({ junit: join(out, 'r.xml') }, v, { version: '1', startedAt: 0, endedAt: 0, stdout: new PassThrough(), note: () => {} }).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(CliError);
      expect((error as CliError).exitCode).toBe(EXIT.OUTPUT);
      expect((error as Error).message).toMatch(/cannot read its temporary file of kept issues/);
      expect(readdirSync(out)).toEqual([]);
    } finally {
      store.close();
    }
  });

  it('keeps the issues in memory where no temporary file can be made', () => {
    const store = spillStore({ after: 0, dir: join(tempDir('svc-spill-'), 'missing') });
    const input = issues(300);
    const r = tallied(input, { failOn: 'high' }, store);
    expect(store.spilled).toBe(false);
    expect(Array.isArray(r.issues)).toBe(true);
    expect(json(r.issues)).toBe(json(tallied(input, { failOn: 'high' }).issues));
    store.close();
  });
});

describe('svc gate with the kept issues in a file', () => {
  // More kept issues than the streamed writers' pieces (256), read back from the file.
  const sb = useSandbox({ issues: 500, repos: 2 });

  async function gate(raw: GateCommandOptions, globals: GlobalOptions, spill: { after: number }, interruptAfter?: string) {
    const host = testHost({ env: sb.env });
    const ctx = createContext(host, globals);
    await ctx.config.prepare();
    if (interruptAfter !== undefined) {
      // Ctrl-C as soon as this line is said (a report written): the next report is being written.
      const note = ctx.note;
      ctx.note = (line) => { note(line); if (line.startsWith(interruptAfter)) host.abort('SIGINT'); };
    }
    let error: unknown;
    try {
      await runGate(ctx, { ...parseGateOptions(raw, { specs: scopeSpecs(), attribute: new Map() }), spill });
    } catch (err) {
      error = err;
    } finally {
      await ctx.close();
    }
    return { error, stdout: host.stdout, stderr: host.stderr };
  }

  it('writes all six reports and -o json with the same bytes as with the issues in memory', async () => {
    const root = tempDir('svc-spill-gate-');
    const run = async (name: string, after: number) => {
      const dir = join(root, name);
      mkdirSync(dir);
      const reports = { sarif: 'r.sarif', junit: 'r.xml', markdown: 'r.md', jsonReport: 'r.json', sast: 'h.json', codeQuality: 'c.json' };
      const raw = Object.fromEntries([...Object.entries(reports).map(([k, f]) => [k, join(dir, f)]), ['failOn', 'high']]) as GateCommandOptions;
      const r = await gate(raw, { output: 'json' }, { after });
      const files = Object.fromEntries(Object.values(reports).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));
      // host B's report says when the gate ran, to the second.
      files['h.json'] = files['h.json'].replace(/"(start|end)_time":"[^"]+"/g, '"$1_time":""');
      return { ...r, files };
    };
    const memory = await run('memory', Number.MAX_SAFE_INTEGER);
    const spilled = await run('spilled', 0);
    expect((spilled.error as { exitCode?: number }).exitCode).toBe(1);
    expect(spilled.stdout).toBe(memory.stdout);
    expect(JSON.parse(spilled.stdout).issues.length).toBeGreaterThan(256);
    for (const f of Object.keys(memory.files)) expect(spilled.files[f], f).toBe(memory.files[f]);
    expect(readdirSync(tmpdir()).filter((e) => e.startsWith('svc-gate-'))).toEqual([]);
  }, 60_000);

  it('Ctrl-C while the reports are written: exit 130, no partial report, no temporary file left', async () => {
    const dir = tempDir('svc-spill-int-');
    const raw = { failOn: 'high', sarif: join(dir, 'r.sarif'), jsonReport: join(dir, 'r.json'), junit: join(dir, 'r.xml') } as GateCommandOptions;
    const r = await gate(raw, {}, { after: 0 }, 'wrote the SARIF report');
    expect((r.error as { exitCode?: number }).exitCode, r.stderr).toBe(130);
    // The SARIF was whole before the interrupt, but the run has no verdict: it is removed (uploaded,
    // it would read as this run's); the JUnit and JSON reports, not written by then, say that the
    // run has no verdict (as after an interrupt while counting), never a part of one.
    expect(r.stderr).toMatch(/wrote the SARIF report [^\n]*\([1-9]\d{2,} results\)/);
    expect(readdirSync(dir).sort()).toEqual(['r.json', 'r.xml']);
    expect(JSON.parse(readFileSync(join(dir, 'r.json'), 'utf8'))).toMatchObject({ decided: false, exitCode: 130 });
    expect(readFileSync(join(dir, 'r.xml'), 'utf8')).toContain('errors="1"');
    expect(readdirSync(tmpdir()).filter((e) => e.startsWith('svc-gate-'))).toEqual([]);
  }, 60_000);
});
