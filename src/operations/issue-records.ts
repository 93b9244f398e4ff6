/**
 * The issue records (lenient: unknown fields are kept), in a module of their own: `svc issues`
 * commands load these without the other records (building zod schemas costs start-up time).
 */
import { list, oBool, oInt, oNum, oStr, optional, record, str } from './fields.js';

const ISSUE_STATUSES = ['open', 'patched', 'falsePositive', 'archived', 'processing', 'silenced', 'closed'] as const;
/** Status values seen in public clients beyond the spec's list. */
export const ISSUE_STATUSES_SEEN = [...ISSUE_STATUSES, 'notExploitable'] as const;

const patch = record({
  id: oStr(), prLink: oStr(), prTitle: oStr(), prDescription: oStr(), gitDiff: oStr(),
  pullRequestStatus: oStr(), validated: oStr(), createdAt: oStr(), updatedAt: oStr(),
});

export const issue = record({
  id: str(),
  repositoryId: oStr(),
  repositoryName: oStr(),
  status: oStr(),
  generatedTitle: oStr(),
  generatedDescription: oStr(),
  businessLogicScenario: oStr(),
  language: oStr(),
  vulnClass: oStr(),
  cwes: optional(list(str())),
  vulnCategory: oStr(),
  severity: oNum(),
  confidence: oNum(),
  score: oNum(),
  affectedFile: oStr(),
  sastCodeSegment: oStr(),
  startLine: oInt(), endLine: oInt(), startColumn: oInt(), endColumn: oInt(),
  isPrBlocked: oBool(),
  triagePhase: oStr(),
  validated: oStr(),
  validationSecurityAssessment: oStr(),
  unpatchable: oBool(),
  unpatchableReason: oStr(),
  archivedAt: oStr(),
  noLongerDetectedAt: oStr(),
  noLongerDetectedReason: oStr(),
  createdAt: oStr(),
  updatedAt: oStr(),
  naturalLanguageRuleEvaluationId: oStr(),
  naturalLanguageRuleViolationId: oStr(),
  naturalLanguageRuleViolation: optional(record({
    id: oStr(), ruleId: oStr(), title: oStr(), description: oStr(), confidence: oNum(),
    rule: optional(record({ id: oStr(), name: oStr() })),
  })),
  codeScan: optional(record({ id: oStr(), scanTargetBranchCommitSha: oStr() })),
  stateChangeAuthor: oStr(),
  falsePositiveReason: oStr(),
  patch: optional(patch),
});

export const categoryCounts = record({
  open: oInt(), patched: oInt(), falsePositive: oInt(), archived: oInt(), processing: oInt(), silenced: oInt(), closed: oInt(),
});
