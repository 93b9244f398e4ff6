import { afterAll } from 'vitest';
import { runCli, type CliResult } from './host.js';
/**
 * A scripted service on the fake server (fake-server.ts) for the gate, scan-wait and --all tests:
 * issues/search with paging and totalCount, scans/start and scans/list with a scan that finishes
 * after a number of polls, orgs/list (org-1) and repositories/list (the repositories the issues
 * name) for the gate's scope check, and switches for the failures svc must fail closed on.
 */
import { startFakeServer, type FakeRequest, type FakeServer, type Reply } from './fake-server.js';

export const TOKEN_ID = 'tok-id-0001';
export const TOKEN_SECRET = 'tok-secret-very-secret-0001';

export type Issue = Record<string, unknown> & { id: string };

export interface Faults {
  /** Every request answers this status (e.g. 401, 500). */
  status?: number;
  /** Only requests to this path answer `status` (default: all). */
  statusPath?: string;
  /** Requests for these pages of issues/search answer 500 once, then succeed. */
  failPageOnce?: number[];
  /** totalCount is reported this much larger than what is served (truncated pagination). */
  extraTotal?: number;
  /** From this page on, totalCount is one more (the listing changed mid-read). */
  totalChangesAtPage?: number;
  /** This page is served one item short. */
  shortPage?: number;
  /** No totalCount in search responses. */
  noTotal?: boolean;
  /** No totalCountAllCategories nor categoryCounts, even when getCounts asks for them. */
  noCounts?: boolean;
  /** Page N repeats the first item of page N-1 instead of its own first (order shifted). */
  shiftAtPage?: number;
  /** Pages larger than this are cut to it, and the response says pageSize: cap. */
  pageSizeCap?: number;
  /** The text of a page of issues/search as sent: its JSON text in, what to send out (raw bytes). */
  pageText?: (page: number, text: string) => string;
}

export interface ScanPlan {
  /** Polls of scans/list that see the scan running before it is done (default 2). */
  pollsUntilDone?: number;
  outcome?: 'completed' | 'finished' | 'failed' | 'never';
  /** Answer scans/start with `{ id }` instead of `{ scanId }`. */
  startIdField?: 'scanId' | 'id';
  /** scans/list polls answering 503 before the answers above (each after svc's retries). */
  failingPolls?: number;
}

export interface FakeService {
  url: string;
  env: Record<string, string>;
  /** With `{ mock: true }`: the MockAgent answering in-process (pass it to runCli as `dispatcher`). */
  dispatcher?: FakeServer['dispatcher'];
  requests: FakeRequest[];
  faults: Faults;
  scan: ScanPlan;
  /** Replace the issues served. */
  setIssues(list: Issue[]): void;
  /** Serve `n` generated issues (made on demand, never stored). */
  generate(n: number, make?: (i: number) => Issue): void;
  searches(): FakeRequest[];
  close(): Promise<void>;
}

/** A plausible issue record of about 1 KB, with a score spread over every level. */
export function makeIssue(i: number): Issue {
  const score = (i * 37) % 100;
  return {
    id: `iss-${String(i).padStart(7, '0')}`,
    repositoryId: `repo-${i % 7}`,
    repositoryName: `acme/service-${i % 7}`,
    status: 'open',
    generatedTitle: `Possible injection in handler ${i}`,
    generatedDescription: 'User-controlled input flows into a sensitive call without validation. '.repeat(3),
    language: 'typescript',
    vulnClass: ['SQL Injection', 'XSS', 'Path Traversal', 'SSRF'][i % 4],
    cwes: [['CWE-89', 'CWE-79', 'CWE-22', 'CWE-918'][i % 4]],
    vulnCategory: 'SAST',
    severity: Math.round(score / 10),
    confidence: 80,
    score,
    affectedFile: `src/handlers/h${i % 50}.ts`,
    sastCodeSegment: 'const q = `SELECT * FROM t WHERE id = ${req.query.id}`;\n'.repeat(4),
    startLine: (i % 300) + 1, endLine: (i % 300) + 3, startColumn: 5, endColumn: 40,
    createdAt: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
    updatedAt: new Date(Date.UTC(2024, 0, 2) + i * 1000).toISOString(),
    codeScan: { id: `scan-${i % 3}`, scanTargetBranchCommitSha: 'abc123' },
  };
}

/**
 * `mock: true`: no socket, the same service answered by an undici MockAgent (`dispatcher`); for
 * tests where a server adds nothing (no hang, reset or slow body: `pageText` still works).
 */
export async function startFakeService(o: { mock?: boolean } = {}): Promise<FakeService> {
  let list: Issue[] = [];
  let generated: { n: number; make: (i: number) => Issue } | undefined;
  const faults: Faults = {};
  const scan: ScanPlan = {};
  const failedOnce = new Set<number>();
  let scanCounter = 0;
  const polls = new Map<string, number>();
  let failingPollsLeft: number | undefined;

  function search(body: Record<string, unknown>): Reply {
    const page = Number(body.page ?? 1);
    const size = Number(body.pageSize ?? 10);
    if (faults.failPageOnce?.includes(page) && !failedOnce.has(page)) {
      failedOnce.add(page);
      return { status: 500, json: { error: `page ${page} failed once` } };
    }
    let total: number;
    let slice: Issue[];
    const served = faults.pageSizeCap !== undefined ? Math.min(size, faults.pageSizeCap) : size;
    const from = (page - 1) * served;
    if (generated) {
      total = generated.n;
      slice = [];
      for (let i = from; i < Math.min(total, from + served); i++) slice.push(generated.make(i));
    } else {
      let items = list;
      const types = body.types as string[] | undefined;
      if (types?.length) items = items.filter((x) => types.includes(String(x.status ?? 'open')));
      if (typeof body.scanId === 'string') items = items.filter((x) => (x.codeScan as { id?: string } | undefined)?.id === body.scanId);
      const repos = body.repositoryIds as string[] | undefined;
      if (repos?.length) items = items.filter((x) => repos.includes(String(x.repositoryId)));
      if (body.sortBy === 'createdAt') {
        items = [...items].sort((a, b) => String(a.createdAt).localeCompare(String(b.createdAt)) * (body.sortOrder === 'desc' ? -1 : 1));
      }
      total = items.length;
      slice = items.slice(from, from + served);
    }
    if (faults.shortPage === page) slice = slice.slice(0, -1);
    if (faults.shiftAtPage === page && page > 1) {
      const prev = generated ? generated.make(from - 1) : list[from - 1];
      slice = [prev, ...slice.slice(1)];
    }
    let reported = total + (faults.extraTotal ?? 0);
    if (faults.totalChangesAtPage !== undefined && page >= faults.totalChangesAtPage) reported += 1;
    const json: Record<string, unknown> = { issues: slice, currentPage: page, pageSize: served };
    if (!faults.noTotal) json.totalCount = reported;
    // Asked for (the gate asks): the counts of the listing, every issue open, as reported.
    if (body.getCounts === true && !faults.noCounts) {
      const zero = { open: 0, patched: 0, falsePositive: 0, archived: 0, processing: 0, silenced: 0, closed: 0 };
      json.totalCountAllCategories = reported;
      json.categoryCounts = { ...zero, open: reported };
    }
    if (faults.pageText) return { status: 200, text: faults.pageText(page, JSON.stringify(json)), type: 'application/json' };
    return { status: 200, json };
  }

  /** The repositories the issues name (repo-1 always), all in project proj-1: what the gate's scope check lists. */
  function repositories(): Array<Record<string, unknown>> {
    const ids = new Set<string>(['repo-1']);
    if (generated) for (let i = 0; i < 7; i++) ids.add(`repo-${i}`);
    for (const i of list) if (typeof i.repositoryId === 'string') ids.add(i.repositoryId);
    return [...ids].map((id) => ({ id, projectId: 'proj-1', name: id, url: `https://git.example/${id}` }));
  }

  function scansList(body: Record<string, unknown>): { status: number; json: unknown } {
    failingPollsLeft ??= scan.failingPolls ?? 0;
    if (failingPollsLeft > 0) {
      failingPollsLeft--;
      return { status: 503, json: { error: 'busy' } };
    }
    const id = String(body.scanId ?? '');
    const n = (polls.get(id) ?? 0) + 1;
    polls.set(id, n);
    const until = scan.pollsUntilDone ?? 2;
    const outcome = scan.outcome ?? 'completed';
    const item: Record<string, unknown> = {
      scanId: id, repositoryId: 'repo-1', codeScanType: 'FullScan', scanTargetBranch: 'main',
      createdAt: '2024-01-01T00:00:00Z', updatedAt: new Date().toISOString(),
    };
    if (n <= until || outcome === 'never') {
      item.status = n === 1 ? 'queued' : 'running';
      item.finished = false;
    } else if (outcome === 'failed') {
      item.status = 'failed';
      item.errorMessage = 'clone failed: repository not reachable';
    } else {
      item.status = outcome;
      item.finished = true;
      item.issueCounts = { open: 3, patched: 0, falsePositive: 0, archived: 0, processing: 0 };
    }
    return { status: 200, json: { codeScans: [item], totalCount: 1 } };
  }

  const server = await startFakeServer({
    token: { id: TOKEN_ID, secret: TOKEN_SECRET },
    fallback: (req) => ({ status: 404, json: { error: `no route ${req.path}` } }),
    mock: o.mock,
  });
  // Each route answers the switched-on failure first, then its own logic.
  const route = (path: string, logic: (body: Record<string, unknown>) => Reply): void => {
    server.stub(path, (req): Reply => {
      if (faults.status !== undefined && (faults.statusPath === undefined || faults.statusPath === path)) {
        return { status: faults.status, json: { error: `fake failure ${faults.status}` } };
      }
      return logic(req.body && typeof req.body === 'object' ? req.body : {});
    }, { optional: true });
  };
  route('/api/v1/issues/search', search);
  route('/api/v1/scans/start', () => {
    scanCounter++;
    return { status: 200, json: { [scan.startIdField ?? 'scanId']: `scan-new-${scanCounter}` } };
  });
  route('/api/v1/scans/list', scansList);
  route('/api/v1/orgs/list', () => ({ status: 200, json: [{ id: 'org-1', name: 'Acme', role: 'owner' }] }));
  route('/api/v1/repositories/list', () => ({ status: 200, json: repositories() }));
  return {
    url: server.url,
    env: { ...server.env, SVC_ORGANIZATION_ID: 'org-1' },
    ...(server.dispatcher ? { dispatcher: server.dispatcher } : {}),
    requests: server.requests,
    faults,
    scan,
    setIssues(next) { list = next; generated = undefined; },
    generate(n, make = makeIssue) { generated = { n, make }; list = []; },
    searches: () => server.to('/api/v1/issues/search'),
    close: () => server.close(),
  };
}

/**
 * For a test file: `fake(issues)` starts a fake service holding those issues; every one it started is
 * closed after the file's tests.
 */
export function useFakeServices(o: { mock?: boolean } = {}): (issues: Issue[]) => Promise<FakeService> {
  const services: FakeService[] = [];
  afterAll(async () => { await Promise.all(services.splice(0).map((s) => s.close())); });
  return async (issues) => {
    const s = await startFakeService(o);
    s.setIssues(issues);
    services.push(s);
    return s;
  };
}

/**
 * A scripted service serving `n` generated open issues of one repository (scores spread over every
 * level), without the long text fields the gate drops anyway (they only cost parsing time).
 */
export async function servingGenerated(services: (issues: Issue[]) => Promise<FakeService>, n: number): Promise<FakeService> {
  const s = await services([]);
  s.generate(n, (i) => ({ ...makeIssue(i), repositoryId: 'repo-1', repositoryName: 'acme/app', generatedDescription: `Input reaches a sensitive call (${i}).`, sastCodeSegment: undefined }));
  return s;
}

/** svc in-process against the service `s` (its URL, token and, in mock mode, its dispatcher). */
export function runAgainst(s: FakeService, argv: string[], o: { env: Record<string, string>; cwd: string }): Promise<CliResult> {
  return runCli(argv, { env: { ...s.env, ...o.env }, cwd: o.cwd, dispatcher: s.dispatcher });
}
