/** Response records of the spec (and of the field notes), lenient: unknown fields are kept. */
import { bool, list, num, oBool, oInt, oNum, oStr, oneOf, optional, record, str } from './fields.js';

export { issue } from './issue-records.js';

const issueCounts = record({ open: oInt(), patched: oInt(), falsePositive: oInt(), archived: oInt(), processing: oInt() });

export const organization = record({ id: str(), name: oStr(), role: oStr() });

export const repository = record({
  id: str(),
  projectId: str(),
  name: str(),
  url: str(),
  repositoryUrl: oStr(),
  defaultScanTargetBranch: str(),
  isAutoEnablePatchGenerationFullScan: oBool(),
  isPrScanningEnabled: bool(),
  isPrScanSummaryEnabled: bool(),
  prBranchFormat: oStr(),
  prCommitMessageFormat: oStr(),
  prTitleTemplate: oStr(),
  prDescriptionTemplate: oStr(),
  isVulnInfoInPRComment: bool(),
  isAutoGeneratePrForPrScan: oBool(),
  showCheckStatus: bool(),
  patchScoreThreshold: oNum(),
  validationThreshold: num(),
  validationThresholdName: oneOf(['Critical', 'High', 'Medium', 'Low', 'Info']),
  prGenerationFullScanThreshold: oNum(),
  patchFullScanThreshold: oNum(),
  prStatusThreshold: oNum(),
  prScanIssuePrPatchGenerationThreshold: oNum(),
  prScanIssuePrGenerationThreshold: oNum(),
  enabledSourceTypes: optional(list(str())),
  cweWhitelist: optional(list(str())),
  issueCounts: optional(issueCounts),
  hostARepository: optional(record({ id: oStr(), externalHostARepositoryId: oStr(), hostAAppInstallationId: oStr() })),
  hostBRepository: optional(record({ id: oStr(), hostBInstallationId: oStr() })),
  hostC: optional(record({ repositoryUrl: oStr(), linkActive: oBool() })),
  genericGit: optional(record({ repositoryUrl: oStr(), linkActive: oBool() })),
});

export const scanSchedule = record({
  id: oStr(),
  repoId: oStr(),
  executionCriteriaCrontab: oStr(),
  /** The zone the crontab is read in (seen in answers; upsert-schedule's `timezone`). */
  timezone: oStr(),
  isEnabled: oBool(),
  createdAt: oStr(),
  updatedAt: oStr(),
  codeScans: optional(list(str())),
  stagedCodeScans: optional(list(str())),
});

/** A scan item of `scans list` (field notes). */
export const codeScan = record({
  scanId: oStr(),
  id: oStr(),
  repositoryId: oStr(),
  status: oStr(),
  codeScanType: oStr(),
  scanTargetBranch: oStr(),
  prTargetBranch: oStr(),
  finished: oBool(),
  codeScanFinished: oBool(),
  issueCounts: optional(issueCounts),
  errorMessage: oStr(),
  createdAt: oStr(),
  updatedAt: oStr(),
});

export const severityCounts = record({ critical: oNum(), high: oNum(), medium: oNum(), low: oNum(), info: oNum() });
