/** Response records of the spec (and of the field notes), lenient: unknown fields are kept. */
import { z } from 'zod';
import { record } from './fields.js';

const str = z.string();
const optStr = z.string().nullish();
const optNum = z.number().nullish();
const optBool = z.boolean().nullish();
const optInt = z.number().int().nullish();

export const ISSUE_STATUSES = ['open', 'patched', 'falsePositive', 'archived', 'processing', 'silenced', 'closed'] as const;
/** Status values seen in public clients beyond the spec's list. */
export const ISSUE_STATUSES_SEEN = [...ISSUE_STATUSES, 'notExploitable'] as const;

export const issueCounts = record({
  open: optInt, patched: optInt, falsePositive: optInt, archived: optInt, processing: optInt,
});

export const organization = record({ id: str, name: optStr, role: optStr });

export const repository = record({
  id: str,
  projectId: str,
  name: str,
  url: str,
  repositoryUrl: optStr,
  defaultScanTargetBranch: str,
  isAutoEnablePatchGenerationFullScan: optBool,
  isPrScanningEnabled: z.boolean(),
  isPrScanSummaryEnabled: z.boolean(),
  prBranchFormat: optStr,
  prCommitMessageFormat: optStr,
  prTitleTemplate: optStr,
  prDescriptionTemplate: optStr,
  isVulnInfoInPRComment: z.boolean(),
  isAutoGeneratePrForPrScan: optBool,
  showCheckStatus: z.boolean(),
  patchScoreThreshold: optNum,
  validationThreshold: z.number(),
  validationThresholdName: z.enum(['Critical', 'High', 'Medium', 'Low', 'Info']),
  prGenerationFullScanThreshold: optNum,
  patchFullScanThreshold: optNum,
  prStatusThreshold: optNum,
  prScanIssuePrPatchGenerationThreshold: optNum,
  prScanIssuePrGenerationThreshold: optNum,
  enabledSourceTypes: z.array(str).nullish(),
  cweWhitelist: z.array(str).nullish(),
  issueCounts: issueCounts.nullish(),
  hostARepository: record({ id: optStr, externalHostARepositoryId: optStr, hostAAppInstallationId: optStr }).nullish(),
  hostBRepository: record({ id: optStr, hostBInstallationId: optStr }).nullish(),
  hostC: record({ repositoryUrl: optStr, linkActive: optBool }).nullish(),
  genericGit: record({ repositoryUrl: optStr, linkActive: optBool }).nullish(),
});

export const patch = record({
  id: optStr, prLink: optStr, prTitle: optStr, prDescription: optStr, gitDiff: optStr,
  pullRequestStatus: optStr, validated: optStr, createdAt: optStr, updatedAt: optStr,
});

export const issue = record({
  id: str,
  repositoryId: optStr,
  repositoryName: optStr,
  status: optStr,
  generatedTitle: optStr,
  generatedDescription: optStr,
  businessLogicScenario: optStr,
  language: optStr,
  vulnClass: optStr,
  cwes: z.array(str).nullish(),
  vulnCategory: optStr,
  severity: optNum,
  confidence: optNum,
  score: optNum,
  affectedFile: optStr,
  sastCodeSegment: optStr,
  startLine: optInt, endLine: optInt, startColumn: optInt, endColumn: optInt,
  isPrBlocked: optBool,
  triagePhase: optStr,
  validated: optStr,
  validationSecurityAssessment: optStr,
  unpatchable: optBool,
  unpatchableReason: optStr,
  archivedAt: optStr,
  noLongerDetectedAt: optStr,
  noLongerDetectedReason: optStr,
  createdAt: optStr,
  updatedAt: optStr,
  naturalLanguageRuleEvaluationId: optStr,
  naturalLanguageRuleViolationId: optStr,
  naturalLanguageRuleViolation: record({
    id: optStr, ruleId: optStr, title: optStr, description: optStr, confidence: optNum,
    rule: record({ id: optStr, name: optStr }).nullish(),
  }).nullish(),
  codeScan: record({ id: optStr, scanTargetBranchCommitSha: optStr }).nullish(),
  stateChangeAuthor: optStr,
  falsePositiveReason: optStr,
  patch: patch.nullish(),
});

export const categoryCounts = record({
  open: optInt, patched: optInt, falsePositive: optInt, archived: optInt, processing: optInt, silenced: optInt, closed: optInt,
});

export const scanSchedule = record({
  id: optStr,
  repoId: optStr,
  executionCriteriaCrontab: optStr,
  isEnabled: optBool,
  createdAt: optStr,
  updatedAt: optStr,
  codeScans: z.array(str).nullish(),
  stagedCodeScans: z.array(str).nullish(),
});

/** A scan item of `scans list` (field notes). */
export const codeScan = record({
  scanId: optStr,
  id: optStr,
  repositoryId: optStr,
  status: optStr,
  codeScanType: optStr,
  scanTargetBranch: optStr,
  prTargetBranch: optStr,
  finished: optBool,
  codeScanFinished: optBool,
  issueCounts: issueCounts.nullish(),
  errorMessage: optStr,
  createdAt: optStr,
  updatedAt: optStr,
});

export const severityCounts = record({ critical: optNum, high: optNum, medium: optNum, low: optNum, info: optNum });
