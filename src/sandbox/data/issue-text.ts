/** The full Issue record as the API returns it: stored fields plus texts derived from (seed, n). */
import { chance, pick } from '../prng.js';
import type { IssueRec, RepoRec, ScanRec } from '../model.js';
import { classOf, fill, textBits } from './issue.js';
import { iso } from './time.js';
import { LANGUAGES, NO_LONGER_DETECTED_REASONS, RULES, UNPATCHABLE_REASONS } from './vocab.js';

const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export function expandIssue(seed: number, rec: IssueRec, repo: RepoRec | undefined, scan: ScanRec | undefined): Record<string, unknown> {
  const bits = textBits(seed, rec.n);
  const r = bits.rng;
  const cls = classOf(rec.vulnClass);
  const style = LANGUAGES.find((l) => l.name === rec.language)?.style ?? 0;
  const where = `${rec.affectedFile}:${rec.startLine}`;
  const line = fill(cls.code[style], bits);
  const rule = rec.ruleId ? RULES.find((x) => x.id === rec.ruleId) ?? { id: rec.ruleId, name: rec.ruleId } : null;
  const repoName = repo?.name ?? null;
  return {
    id: rec.id,
    repositoryId: rec.repositoryId,
    repositoryName: repoName,
    status: rec.status,
    generatedTitle: rec.generatedTitle,
    generatedDescription: `${rec.generatedTitle}. The value of \`${bits.param}\` reaches a sensitive call in \`${bits.fn}\` (${where}) without validation. An attacker could ${cls.impact}.`,
    businessLogicScenario: `Anyone who can send requests to ${repoName ?? 'this service'} controls \`${bits.param}\`; by crafting it they could ${cls.impact}${chance(r, 0.5) ? ', without any special privileges' : ' after signing up for a free account'}.`,
    language: rec.language,
    vulnClass: rec.vulnClass,
    cwes: rec.cwes,
    vulnCategory: rec.vulnCategory,
    severity: rec.severity,
    confidence: rec.confidence,
    score: rec.score,
    affectedFile: rec.affectedFile,
    sastCodeSegment: style === 1
      ? [`def ${snake(bits.fn)}(request):`, `    ${line}`, '    return render(result)'].join('\n')
      : [`function ${bits.fn}(req, res) {`, `  ${line}`, '}'].join('\n'),
    startLine: rec.startLine,
    endLine: rec.endLine,
    startColumn: rec.startColumn,
    endColumn: rec.endColumn,
    isPrBlocked: rec.isPrBlocked,
    triagePhase: rec.triagePhase,
    validated: rec.validated,
    validationSecurityAssessment: rec.validated === 'DISCONFIRMED'
      ? `Not exploitable as reported: ${pick(r, ['the input is constrained by the caller', 'the code path is only used in tests', 'the value never comes from a request'])}.`
      : `Exploitable with ${rec.confidence >= 80 ? 'high' : rec.confidence >= 50 ? 'medium' : 'low'} confidence (${rec.confidence}%): user input reaches the sink in ${bits.fn}.`,
    unpatchable: rec.unpatchable,
    unpatchableReason: rec.unpatchable ? pick(r, UNPATCHABLE_REASONS) : null,
    archivedAt: rec.archivedAt === null ? null : iso(rec.archivedAt),
    noLongerDetectedAt: rec.noLongerDetectedAt === null ? null : iso(rec.noLongerDetectedAt),
    noLongerDetectedReason: rec.noLongerDetectedAt === null ? null : pick(r, NO_LONGER_DETECTED_REASONS),
    createdAt: iso(rec.createdAt),
    updatedAt: iso(rec.updatedAt),
    naturalLanguageRuleEvaluationId: rule ? `nlre_${rec.id.slice(4)}` : null,
    naturalLanguageRuleViolationId: rule ? `nlrv_${rec.id.slice(4)}` : null,
    naturalLanguageRuleViolation: rule ? {
      id: `nlrv_${rec.id.slice(4)}`, ruleId: rule.id, title: `Violation of "${rule.name}"`,
      description: `${rec.affectedFile} breaks the custom rule "${rule.name}" in ${bits.fn}.`, confidence: rec.confidence,
      rule: { id: rule.id, name: rule.name },
    } : null,
    codeScan: { id: rec.scanId, scanTargetBranchCommitSha: scan?.commitSha ?? null },
    stateChangeAuthor: rec.stateChangeAuthor,
    falsePositiveReason: rec.falsePositiveReason,
    patch: rec.patch,
  };
}
