/**
 * The sandbox's records. Repositories, scans and schedules are kept in the shape the API returns
 * (plus a few private fields, prefixed with `_`, that are never sent). Issues are kept compact:
 * the fields that filters, sorts and state changes need; the long texts are derived on demand
 * from the seed (see data/issue-text.ts), so 100,000 issues stay small.
 */

export type Source = 'hosta' | 'hostb' | 'hostc' | 'generic' | 'standalone';
export const SOURCES: readonly Source[] = ['hosta', 'hostb', 'hostc', 'generic', 'standalone'];

export type IssueStatus = 'open' | 'patched' | 'falsePositive' | 'archived' | 'processing' | 'silenced' | 'closed' | 'notExploitable';
export const CATEGORY_KEYS = ['open', 'patched', 'falsePositive', 'archived', 'processing', 'silenced', 'closed'] as const;
export const REPO_COUNT_KEYS = ['open', 'patched', 'falsePositive', 'archived', 'processing'] as const;

type ScanType = 'FullScan' | 'PrScan';
/** 'queued' is never set by the sandbox itself; tests set it to serve a scan that waits to run. */
type ScanStatus = 'queued' | 'running' | 'completed' | 'failed';

export interface OrgRec {
  id: string;
  name: string;
  role: string;
  createdAt: string;
  invitations: Array<{ id: string; email: string; role: string; createdAt: string }>;
}

export interface RepoRec {
  id: string;
  projectId: string;
  name: string;
  url: string;
  repositoryUrl: string | null;
  defaultScanTargetBranch: string;
  isAutoEnablePatchGenerationFullScan: boolean;
  isPrScanningEnabled: boolean;
  isPrScanSummaryEnabled: boolean;
  isPrScanCleanSummaryEnabled: boolean;
  prBranchFormat: string | null;
  prCommitMessageFormat: string | null;
  prTitleTemplate: string | null;
  prDescriptionTemplate: string | null;
  isVulnInfoInPRComment: boolean;
  isAutoGeneratePrForPrScan: boolean;
  showCheckStatus: boolean;
  maxPrTimeoutMinutes: number;
  patchScoreThreshold: number;
  validationThreshold: number;
  validationThresholdName: 'Critical' | 'High' | 'Medium' | 'Low' | 'Info';
  prGenerationFullScanThreshold: number;
  patchFullScanThreshold: number;
  prStatusThreshold: number;
  prScanIssuePrPatchGenerationThreshold: number;
  prScanIssuePrGenerationThreshold: number;
  enabledSourceTypes: string[];
  cweWhitelist: string[];
  hostARepository: { id: string; externalHostARepositoryId: string; hostAAppInstallationId: string } | null;
  hostBRepository: { id: string; hostBInstallationId: string } | null;
  hostC: { repositoryUrl: string; linkActive: boolean } | null;
  genericGit: { repositoryUrl: string; linkActive: boolean } | null;
  source: Source;
  organizationId: string;
  createdAt: string;
  updatedAt: string;
  /** Branches (`repos branches`); the first is the default. */
  _branches: string[];
  _installationId?: string;
}

export interface InstallationRepoRec {
  id: string;
  name: string;
  fullName: string;
  url: string;
  defaultBranch: string;
  private: boolean;
}

export interface InstallationRec {
  id: string;
  organizationId: string;
  provider: Source;
  kind: string;
  appId: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  settings: Record<string, unknown>;
  repositories: InstallationRepoRec[];
}

export interface ScanRec {
  scanId: string;
  id: string;
  repositoryId: string;
  organizationId: string;
  status: ScanStatus;
  codeScanType: ScanType;
  scanTargetBranch: string;
  prTargetBranch: string | null;
  finished: boolean;
  codeScanFinished: boolean;
  errorMessage: string | null;
  commitSha: string;
  prAuthor: string | null;
  createdAt: string;
  updatedAt: string;
  /** When a running scan completes (ms since epoch). */
  _finishAt?: number;
  /** How many issues the scan adds when it completes. */
  _newIssues?: number;
  /** What the issues it adds when it completes are (a pull request's scan given its findings): each overrides a generated issue's fields. */
  _findings?: FindingSpec[];
}

/** A finding a test gives a pull request's scan: the fields it sets on a generated issue. */
export interface FindingSpec {
  score?: number;
  affectedFile?: string;
  startLine?: number;
  /** The span's last line; with startLine alone, startLine (a one-line finding, not a generated span). */
  endLine?: number;
  startColumn?: number;
  endColumn?: number;
  generatedTitle?: string;
}

export interface ScheduleRec {
  id: string;
  repoId: string;
  executionCriteriaCrontab: string;
  timezone: string;
  isEnabled: boolean;
  createdAt: string;
  updatedAt: string;
  codeScans: string[];
  stagedCodeScans: string[];
}

export interface PatchRec {
  id: string;
  prLink: string | null;
  prTitle: string;
  prDescription: string;
  gitDiff: string;
  pullRequestStatus: string;
  validated: string;
  createdAt: string;
  updatedAt: string;
}

/** The stored part of an issue. `n` seeds the derived texts. Times are ms since epoch. */
export interface IssueRec {
  id: string;
  n: number;
  repositoryId: string;
  scanId: string;
  codeScanType: ScanType;
  status: IssueStatus;
  severity: number;
  score: number;
  confidence: number;
  language: string;
  vulnClass: string;
  vulnCategory: string;
  cwes: string[];
  affectedFile: string;
  generatedTitle: string;
  startLine: number;
  endLine: number;
  startColumn: number;
  endColumn: number;
  isPrBlocked: boolean;
  unpatchable: boolean;
  triagePhase: string;
  validated: string;
  prAuthor: string;
  ruleId: string | null;
  createdAt: number;
  updatedAt: number;
  archivedAt: number | null;
  noLongerDetectedAt: number | null;
  stateChangeAuthor: string | null;
  falsePositiveReason: string | null;
  patch: PatchRec | null;
  /** Set while a patch is being generated: when it is ready, and the status to return to. */
  _patchReadyAt?: number;
}
