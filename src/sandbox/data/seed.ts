/**
 * Seeded generation of the sandbox's world: organizations, installations, repositories of every
 * source, scans, schedules and issues. Same parameters -> same world, byte for byte.
 * Issues are generated from (seed, index) alone, so 100,000 of them take well under a second.
 */
import { chance, hex, int, mix, mulberry32, pick, weighted, type Rng } from '../prng.js';
import type { InstallationRec, InstallationRepoRec, IssueRec, IssueStatus, OrgRec, RepoRec, ScanRec, ScheduleRec, Source } from '../model.js';
import { SOURCES } from '../model.js';
import { makeId, type IdKind } from './ids.js';
import { ANCHOR_MS, DAY_MS, SPAN_DAYS, iso } from './time.js';
import { AUTHORS, BRANCHES, LANGUAGE_WEIGHTS, ORG_NAMES, REPO_NAMES, TIMEZONES } from './vocab.js';
import { makeIssue } from './issue.js';

export interface SeedParams {
  seed: number;
  repos: number;
  issues: number;
}

export interface World {
  params: SeedParams;
  orgs: OrgRec[];
  repos: RepoRec[];
  installations: InstallationRec[];
  scans: ScanRec[];
  schedules: ScheduleRec[];
  issues: IssueRec[];
  /** Next number of each id kind (ids of records created later continue from here). */
  counters: Record<IdKind, number>;
}

const ORG_COUNT = 3;
const THRESHOLD_NAMES = [['Critical', 90], ['High', 70], ['Medium', 40], ['Low', 10]] as const;

export function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

export function repoUrl(source: Source, owner: string, name: string): string {
  switch (source) {
    case 'hosta': return `https://hosta.example/${owner}/${name}`;
    case 'hostb': return `https://hostb.example/${owner}/${name}`;
    case 'hostc': return `https://hostc.example/${owner}/${name}`;
    case 'generic': return `https://git.example.com/${owner}/${name}.git`;
    case 'standalone': return `https://sandbox.example/standalone/${owner}/${name}`;
  }
}

/** Default scanner settings (field notes: patch 80, PR 80, PR check failure 75, on the score scale). */
export function defaultScannerSettings(): Pick<RepoRec, 'patchScoreThreshold' | 'validationThreshold' | 'validationThresholdName' | 'prGenerationFullScanThreshold'
  | 'patchFullScanThreshold' | 'prStatusThreshold' | 'prScanIssuePrPatchGenerationThreshold' | 'prScanIssuePrGenerationThreshold' | 'enabledSourceTypes'
  | 'cweWhitelist' | 'isAutoEnablePatchGenerationFullScan' | 'isAutoGeneratePrForPrScan'> {
  return {
    patchScoreThreshold: 80,
    validationThreshold: 70,
    validationThresholdName: 'High',
    prGenerationFullScanThreshold: 80,
    patchFullScanThreshold: 80,
    prStatusThreshold: 75,
    prScanIssuePrPatchGenerationThreshold: 80,
    prScanIssuePrGenerationThreshold: 80,
    enabledSourceTypes: ['SAST', 'SCA', 'SECRETS', 'IAC'],
    cweWhitelist: [],
    isAutoEnablePatchGenerationFullScan: false,
    isAutoGeneratePrForPrScan: false,
  };
}

/** A new repository record with default settings (used by seeding and by the add-* operations). */
export function newRepo(o: { id: string; projectId: string; organizationId: string; name: string; source: Source; url: string; branch: string; now: string; installationId?: string; providerId?: string; externalId?: string }): RepoRec {
  const git = o.source === 'standalone' ? null : o.url;
  return {
    id: o.id,
    projectId: o.projectId,
    name: o.name,
    url: o.url,
    repositoryUrl: git,
    defaultScanTargetBranch: o.branch,
    isPrScanningEnabled: o.source !== 'standalone',
    isPrScanSummaryEnabled: true,
    isPrScanCleanSummaryEnabled: false,
    prBranchFormat: null,
    prCommitMessageFormat: null,
    prTitleTemplate: null,
    prDescriptionTemplate: null,
    isVulnInfoInPRComment: true,
    showCheckStatus: true,
    maxPrTimeoutMinutes: 30,
    ...defaultScannerSettings(),
    hostARepository: o.source === 'hosta' ? { id: o.providerId ?? '', externalHostARepositoryId: o.externalId ?? '', hostAAppInstallationId: o.installationId ?? '' } : null,
    hostBRepository: o.source === 'hostb' ? { id: o.providerId ?? '', hostBInstallationId: o.installationId ?? '' } : null,
    hostC: o.source === 'hostc' ? { repositoryUrl: o.url, linkActive: true } : null,
    genericGit: o.source === 'generic' ? { repositoryUrl: o.url, linkActive: true } : null,
    source: o.source,
    organizationId: o.organizationId,
    createdAt: o.now,
    updatedAt: o.now,
    _branches: [o.branch, ...BRANCHES.filter((b) => b !== o.branch)],
    ...(o.installationId ? { _installationId: o.installationId } : {}),
  };
}

export function seedWorld(params: SeedParams): World {
  const { seed } = params;
  const counters = Object.fromEntries(['org', 'repo', 'project', 'installation', 'instrepo', 'scan', 'schedule', 'issue', 'patch', 'invitation', 'provider'].map((k) => [k, 0])) as Record<IdKind, number>;
  const id = (kind: IdKind) => makeId(kind, seed, counters[kind]++);
  const rng = mulberry32(mix(seed, 1));
  const start = ANCHOR_MS - SPAN_DAYS * DAY_MS;

  const orgs: OrgRec[] = ORG_NAMES.slice(0, ORG_COUNT).map((name, i) => ({
    id: id('org'), name, role: ['owner', 'admin', 'member'][i], createdAt: iso(start - (30 - i) * DAY_MS), invitations: [],
  }));

  // Installations: one per provider for each of the first two organizations.
  const installations: InstallationRec[] = [];
  for (const [oi, org] of orgs.slice(0, 2).entries()) {
    for (const provider of ['hosta', 'hostb', 'hostc'] as const) {
      const created = iso(start - (20 - oi) * DAY_MS);
      installations.push({
        id: id('installation'), organizationId: org.id, provider,
        kind: provider === 'hosta' ? 'app' : provider === 'hostb' ? 'workspace' : 'token',
        appId: provider === 'hosta' ? String(4711 + oi) : String(int(rng, 10000, 99999)),
        name: `${slug(org.name)} on ${provider}`, createdAt: created, updatedAt: created, settings: {}, repositories: [],
      });
    }
  }
  const installationOf = (orgId: string, provider: Source) => installations.find((x) => x.organizationId === orgId && x.provider === provider);

  const repos: RepoRec[] = [];
  const repoLanguage: number[] = [];
  for (let i = 0; i < params.repos; i++) {
    const org = params.repos > 1 && i % 5 === 4 ? orgs[1] : orgs[0];
    const source = SOURCES[i % SOURCES.length];
    const base = REPO_NAMES[i % REPO_NAMES.length];
    const name = i < REPO_NAMES.length ? base : `${base}-${Math.floor(i / REPO_NAMES.length) + 1}`;
    const owner = slug(org.name);
    const inst = installationOf(org.id, source);
    const created = start + int(rng, 0, 60) * DAY_MS;
    const repo = newRepo({
      id: id('repo'), projectId: makeId('project', seed, Math.floor(i / 3)), organizationId: org.id, name, source,
      url: repoUrl(source, owner, name), branch: weighted(rng, [['main', 8], ['master', 2], ['develop', 1]] as const),
      now: iso(created), installationId: inst?.id, providerId: source === 'hosta' || source === 'hostb' ? id('provider') : undefined,
      externalId: source === 'hosta' ? String(int(rng, 100000000, 999999999)) : undefined,
    });
    // Vary the settings so that listings and filters have something to show.
    repo.isPrScanningEnabled = source !== 'standalone' && chance(rng, 0.75);
    repo.isPrScanSummaryEnabled = chance(rng, 0.7);
    repo.isPrScanCleanSummaryEnabled = chance(rng, 0.3);
    repo.isAutoEnablePatchGenerationFullScan = chance(rng, 0.4);
    repo.isAutoGeneratePrForPrScan = chance(rng, 0.3);
    repo.isVulnInfoInPRComment = chance(rng, 0.8);
    repo.showCheckStatus = chance(rng, 0.85);
    repo.maxPrTimeoutMinutes = pick(rng, [15, 30, 30, 45, 60]);
    if (chance(rng, 0.3)) {
      const [tn, tv] = pick(rng, THRESHOLD_NAMES);
      repo.validationThresholdName = tn;
      repo.validationThreshold = tv;
      repo.patchScoreThreshold = pick(rng, [70, 75, 85, 90]);
    }
    if (chance(rng, 0.25)) repo.prBranchFormat = 'svc/fix-{issueId}';
    if (chance(rng, 0.2)) repo.prCommitMessageFormat = 'fix(security): {title}';
    if (chance(rng, 0.2)) repo.prTitleTemplate = 'Security fix: {title}';
    if (chance(rng, 0.1)) repo.prDescriptionTemplate = 'This pull request fixes {vulnClass} found by the scanner.\n\n{description}';
    if (chance(rng, 0.2)) repo.cweWhitelist = ['CWE-117'];
    if (source === 'standalone') repo.enabledSourceTypes = ['SAST', 'SECRETS'];
    repos.push(repo);
    repoLanguage.push(weighted(rng, LANGUAGE_WEIGHTS.map((w, li) => [li, w] as const)));
    if (inst) inst.repositories.push(instRepo(repo.name, owner, repo.url, repo.defaultScanTargetBranch, id('instrepo'), rng));
  }
  // Each installation also sees repositories nobody linked yet.
  for (const inst of installations) {
    const owner = slug(orgs.find((o) => o.id === inst.organizationId)!.name);
    for (let k = 0; k < 2; k++) {
      const name = `${inst.provider}-sandbox-${k + 1}`;
      inst.repositories.push(instRepo(name, owner, repoUrl(inst.provider, owner, name), 'main', id('instrepo'), rng));
    }
  }

  // Scans: a few full scans and PR scans per repository, all finished.
  const scans: ScanRec[] = [];
  const finishedScans: ScanRec[][] = repos.map(() => []);
  for (const [ri, repo] of repos.entries()) {
    const created = Date.parse(repo.createdAt);
    const full = int(rng, 2, 4);
    const pr = repo.source === 'standalone' ? 0 : int(rng, 1, 4);
    for (let k = 0; k < full + pr; k++) {
      const isPr = k >= full;
      const at = created + Math.floor(((k + 1) / (full + pr + 1)) * (ANCHOR_MS - created)) + int(rng, 0, 3_600_000);
      const failed = chance(rng, 0.08);
      const scan = newScan({
        id: id('scan'), repo, type: isPr ? 'PrScan' : 'FullScan', at, sha: hex(rng, 40),
        prAuthor: isPr ? pick(rng, AUTHORS) : null, prBranch: isPr ? pick(rng, BRANCHES) : null,
      });
      scan.status = failed ? 'failed' : 'completed';
      scan.finished = scan.codeScanFinished = true;
      scan.updatedAt = iso(at + int(rng, 60_000, 900_000));
      if (failed) scan.errorMessage = pick(rng, ['Clone failed: repository not reachable', 'Scan timed out after 60 minutes', 'Build configuration could not be detected']);
      scans.push(scan);
      if (!failed) finishedScans[ri].push(scan);
    }
  }

  // Schedules for two repositories of three.
  const schedules: ScheduleRec[] = [];
  for (const [ri, repo] of repos.entries()) {
    if (ri % 3 === 2) continue;
    const created = iso(Date.parse(repo.createdAt) + DAY_MS);
    schedules.push({
      id: id('schedule'), repoId: repo.id,
      executionCriteriaCrontab: pick(rng, ['0 3 * * 1', '0 2 * * *', '30 1 * * 1-5', '0 4 1 * *']),
      timezone: pick(rng, TIMEZONES), isEnabled: chance(rng, 0.8), createdAt: created, updatedAt: created,
      codeScans: scans.filter((s) => s.repositoryId === repo.id && s.codeScanType === 'FullScan').map((s) => s.scanId),
      stagedCodeScans: [],
    });
  }

  // Issues, spread over the repositories that have a finished scan (bigger repositories get more).
  const issues: IssueRec[] = [];
  const eligible = repos.map((_, ri) => ri).filter((ri) => finishedScans[ri].length > 0);
  const cumulative: number[] = [];
  let total = 0;
  for (const ri of eligible) { total += 1 + (mix(seed, 3, ri) % 6); cumulative.push(total); }
  const count = eligible.length ? params.issues : 0;
  for (let n = 0; n < count; n++) {
    const r = mulberry32(mix(seed, 5, n));
    const ri = eligible[bisect(cumulative, r() * total)];
    const scan = pick(r, finishedScans[ri]);
    issues.push(makeIssue({ seed, n, repo: repos[ri], scan, primaryLanguage: repoLanguage[ri], status: seededStatus(r) }));
  }
  counters.issue = count;
  return { params, orgs, repos, installations, scans, schedules, issues, counters };
}

function seededStatus(r: Rng): IssueStatus {
  return weighted<IssueStatus>(r, [
    ['open', 55], ['patched', 13], ['falsePositive', 8], ['archived', 8], ['closed', 8], ['silenced', 3], ['processing', 2], ['notExploitable', 1],
  ]);
}

function bisect(cumulative: number[], x: number): number {
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cumulative[mid] > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function instRepo(name: string, owner: string, url: string, branch: string, id: string, rng: Rng): InstallationRepoRec {
  return { id, name, fullName: `${owner}/${name}`, url, defaultBranch: branch, private: chance(rng, 0.7) };
}

export function newScan(o: { id: string; repo: RepoRec; type: 'FullScan' | 'PrScan'; at: number; sha: string; prAuthor: string | null; prBranch: string | null }): ScanRec {
  return {
    scanId: o.id, id: o.id, repositoryId: o.repo.id, organizationId: o.repo.organizationId, status: 'running', codeScanType: o.type,
    scanTargetBranch: o.prBranch ?? o.repo.defaultScanTargetBranch, prTargetBranch: o.prBranch ? o.repo.defaultScanTargetBranch : null,
    finished: false, codeScanFinished: false, errorMessage: null, commitSha: o.sha, prAuthor: o.prAuthor,
    createdAt: iso(o.at), updatedAt: iso(o.at),
  };
}
