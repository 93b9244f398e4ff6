/**
 * The sandbox's in-memory store: the records, indexes by id, and aggregates cached until the next
 * change. Every change goes through `changed()`, which bumps the version (dropping the caches) and
 * tells the persistence layer. Time-based transitions (scans finishing, patches appearing) happen
 * lazily in `tick()`, which the server calls before each request: no timers to clean up.
 */
import type { InstallationRec, IssueRec, OrgRec, RepoRec, ScanRec, ScheduleRec } from './model.js';
import { REPO_COUNT_KEYS } from './model.js';
import type { SeedParams, World } from './data/seed.js';
import { makeId, type IdKind } from './data/ids.js';
import { makeIssue, makePatch } from './data/issue.js';
import { iso } from './data/time.js';
import { hex, mix, mulberry32 } from './prng.js';
import { LANGUAGES } from './data/vocab.js';
import type { Dialect } from './dialects.js';

type Counts = Record<(typeof REPO_COUNT_KEYS)[number], number>;

export function zeroCounts(): Counts {
  return { open: 0, patched: 0, falsePositive: 0, archived: 0, processing: 0 };
}

export class Store {
  readonly params: SeedParams;
  orgs: OrgRec[];
  repos: RepoRec[];
  installations: InstallationRec[];
  scans: ScanRec[];
  schedules: ScheduleRec[];
  issues: IssueRec[];
  counters: Record<IdKind, number>;
  /** How the answers are told (dialects.ts): a setting of the run, not data (never persisted). */
  dialects: ReadonlySet<Dialect> = new Set();
  /** Bumped on every change; caches keyed on it. */
  version = 0;
  /** Bumped when issues are added or removed or a sort key changes (severity, score). */
  orderVersion = 0;
  /** Ids of issues that differ from what the seed generates (persisted). */
  readonly touched = new Set<string>();
  private readonly issueIndex = new Map<string, IssueRec>();
  private readonly pendingPatches = new Set<IssueRec>();
  private listeners: Array<() => void> = [];
  private cache = new Map<string, { version: number; value: unknown }>();

  constructor(world: World, readonly clock: () => number = Date.now) {
    this.params = world.params;
    this.orgs = world.orgs;
    this.repos = world.repos;
    this.installations = world.installations;
    this.scans = world.scans;
    this.schedules = world.schedules;
    this.issues = world.issues;
    this.counters = world.counters;
    for (const i of this.issues) {
      this.issueIndex.set(i.id, i);
      if (i._patchReadyAt !== undefined) this.pendingPatches.add(i);
    }
  }

  get seed(): number {
    return this.params.seed;
  }

  now(): number {
    return this.clock();
  }

  nowIso(): string {
    return iso(this.clock());
  }

  nextId(kind: IdKind): string {
    return makeId(kind, this.params.seed, this.counters[kind]++);
  }

  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  /** Record a change. `issue` marks an issue for persistence; `reorder` when sort keys or membership changed. */
  changed(opts: { issue?: IssueRec; reorder?: boolean } = {}): void {
    this.version++;
    if (opts.reorder) this.orderVersion++;
    if (opts.issue) this.touched.add(opts.issue.id);
    for (const fn of this.listeners) fn();
  }

  /** A value computed from the current data, kept until the next change. */
  cached<T>(key: string, compute: () => T, version = this.version): T {
    const hit = this.cache.get(key);
    if (hit && hit.version === version) return hit.value as T;
    const value = compute();
    this.cache.set(key, { version, value });
    return value;
  }

  /** The repositories of an organization, by id (the same Map until the next change: searches cache by it). */
  orgRepos(orgId: string): Map<string, RepoRec> {
    return this.cached(`orgRepos:${orgId}`, () => new Map(this.repos.filter((r) => r.organizationId === orgId).map((r) => [r.id, r])));
  }

  org(id: string): OrgRec | undefined {
    return this.orgs.find((o) => o.id === id);
  }

  repo(id: string): RepoRec | undefined {
    return this.repoMap().get(id);
  }

  repoMap(): Map<string, RepoRec> {
    return this.cached('repoMap', () => new Map(this.repos.map((r) => [r.id, r])));
  }

  scan(id: string): ScanRec | undefined {
    return this.cached('scanMap', () => new Map(this.scans.map((s) => [s.scanId, s]))).get(id);
  }

  issue(id: string): IssueRec | undefined {
    return this.issueIndex.get(id);
  }

  schedule(repoId: string): ScheduleRec | undefined {
    return this.schedules.find((s) => s.repoId === repoId);
  }

  addIssue(issue: IssueRec): void {
    this.issues.push(issue);
    this.issueIndex.set(issue.id, issue);
    this.changed({ issue, reorder: true });
  }

  /** Remove repositories and everything that hangs off them (scans, schedules, issues). */
  removeRepos(ids: Set<string>): void {
    if (ids.size === 0) return;
    this.repos = this.repos.filter((r) => !ids.has(r.id));
    this.scans = this.scans.filter((s) => !ids.has(s.repositoryId));
    this.schedules = this.schedules.filter((s) => !ids.has(s.repoId));
    const kept: IssueRec[] = [];
    for (const i of this.issues) {
      if (ids.has(i.repositoryId)) {
        this.issueIndex.delete(i.id);
        this.touched.delete(i.id);
        this.pendingPatches.delete(i);
      } else kept.push(i);
    }
    this.issues = kept;
    this.changed({ reorder: true });
  }

  /** Issue counts per repository (the `issueCounts` of `repos list`). */
  repoCounts(): Map<string, Counts> {
    return this.cached('repoCounts', () => countBy(this.issues, (i) => i.repositoryId));
  }

  /** Issue counts per scan (the `issueCounts` of `scans list`). */
  scanCounts(): Map<string, Counts> {
    return this.cached('scanCounts', () => countBy(this.issues, (i) => i.scanId));
  }

  /** Mark an issue as waiting for its patch (see `tick`). */
  awaitPatch(issue: IssueRec, readyAt: number): void {
    issue._patchReadyAt = readyAt;
    this.pendingPatches.add(issue);
  }

  /** Apply the transitions that are due: finished scans add their issues, generated patches appear. */
  tick(): void {
    const now = this.clock();
    for (const scan of this.scans) {
      if ((scan.status === 'running' || scan.status === 'queued') && scan._finishAt !== undefined && scan._finishAt <= now) this.finishScan(scan, scan._finishAt);
    }
    for (const issue of [...this.pendingPatches]) {
      if (issue._patchReadyAt! > now) continue;
      const at = issue._patchReadyAt!;
      this.pendingPatches.delete(issue);
      delete issue._patchReadyAt;
      const repo = this.repo(issue.repositoryId);
      if (!repo) continue;
      issue.patch = makePatch(issue, this.nextId('patch'), repo, 'DRAFT', at, hex(mulberry32(mix(this.seed, 13, issue.n)), 4));
      issue.status = 'patched';
      issue.updatedAt = at;
      this.changed({ issue });
    }
  }

  private finishScan(scan: ScanRec, at: number): void {
    const repo = this.repo(scan.repositoryId);
    scan.status = 'completed';
    scan.finished = scan.codeScanFinished = true;
    scan.updatedAt = iso(at);
    delete scan._finishAt;
    const findings = scan._findings;
    const count = findings?.length ?? scan._newIssues ?? 0;
    delete scan._newIssues;
    delete scan._findings;
    const schedule = this.schedule(scan.repositoryId);
    if (schedule && scan.codeScanType === 'FullScan') schedule.codeScans.push(scan.scanId);
    if (repo) {
      const primary = mix(this.seed, 17, this.repos.indexOf(repo)) % LANGUAGES.length;
      for (let k = 0; k < count; k++) {
        const n = this.counters.issue++;
        const issue = makeIssue({ seed: this.seed, n, repo, scan, primaryLanguage: primary, at, status: 'open' });
        const f = findings?.[k];
        if (f) {
          if (f.score !== undefined) { issue.score = f.score; issue.severity = Math.round(Math.min(10, f.score / 10) * 10) / 10; }
          if (f.affectedFile !== undefined) issue.affectedFile = f.affectedFile;
          // A line given is the whole span (the generated one ran on past a short file, and --diff
          // counted the finding on lines the change did not touch).
          if (f.startLine !== undefined) { issue.startLine = f.startLine; issue.endLine = f.endLine ?? f.startLine; }
          if (f.startColumn !== undefined) issue.startColumn = f.startColumn;
          if (f.endColumn !== undefined) issue.endColumn = f.endColumn;
          // One column given on a one-line span: the generated other one must not cross it.
          if (issue.startLine === issue.endLine && issue.endColumn < issue.startColumn) {
            if (f.endColumn === undefined) issue.endColumn = issue.startColumn;
            else issue.startColumn = issue.endColumn;
          }
          if (f.generatedTitle !== undefined) issue.generatedTitle = f.generatedTitle;
        }
        this.addIssue(issue);
      }
    }
    this.changed();
  }
}

function countBy(issues: IssueRec[], key: (i: IssueRec) => string): Map<string, Counts> {
  const out = new Map<string, Counts>();
  for (const i of issues) {
    const k = key(i);
    let c = out.get(k);
    if (!c) out.set(k, (c = zeroCounts()));
    if (i.status in c) c[i.status as keyof Counts]++;
  }
  return out;
}
