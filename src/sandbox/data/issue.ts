/** One issue from (seed, n): the compact stored record. Long texts are derived later by issue-text.ts. */
import { chance, hex, int, mix, mulberry32, pick, weighted, type Rng } from '../prng.js';
import type { IssueRec, IssueStatus, PatchRec, RepoRec, ScanRec } from '../model.js';
import { makeId } from './ids.js';
import { DAY_MS, ANCHOR_MS, iso } from './time.js';
import { AUTHORS, FALSE_POSITIVE_REASONS, FILE_STEMS, FUNCTIONS, LANGUAGES, PARAMS, RULES, VULN_CLASSES, type VulnClass } from './vocab.js';

const CLASS_TABLE = VULN_CLASSES.map((c) => [c, c.weight] as const);
const MANIFEST: Record<string, string> = {
  TypeScript: 'package-lock.json', JavaScript: 'package-lock.json', Python: 'requirements.txt', Java: 'pom.xml', Go: 'go.mod',
  Ruby: 'Gemfile.lock', 'C#': 'packages.lock.json', PHP: 'composer.lock', Kotlin: 'build.gradle.kts',
};

/** Function and parameter names of an issue, derived from (seed, n) so title and texts agree. */
export function textBits(seed: number, n: number): { fn: string; param: string; rng: Rng } {
  const rng = mulberry32(mix(seed, 11, n));
  return { fn: pick(rng, FUNCTIONS), param: pick(rng, PARAMS), rng };
}

export function classOf(name: string): VulnClass {
  return VULN_CLASSES.find((c) => c.name === name) ?? VULN_CLASSES[0];
}

export function fill(template: string, bits: { fn: string; param: string }): string {
  return template.replaceAll('{fn}', bits.fn).replaceAll('{param}', bits.param);
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

interface MakeIssue {
  seed: number;
  n: number;
  repo: RepoRec;
  scan: ScanRec;
  primaryLanguage: number;
  status: IssueStatus;
  /** Creation time; default: shortly after the scan started. */
  at?: number;
}

export function makeIssue(o: MakeIssue): IssueRec {
  const r = mulberry32(mix(o.seed, 7, o.n));
  const cls = weighted(r, CLASS_TABLE);
  const lang = LANGUAGES[chance(r, 0.75) ? o.primaryLanguage : int(r, 0, LANGUAGES.length - 1)];
  const stem = pick(r, FILE_STEMS);
  let language = lang.name;
  let file: string;
  if (cls.category === 'IAC') { language = 'HCL'; file = `infra/${stem}.tf`; }
  else if (cls.category === 'SCA') file = MANIFEST[lang.name];
  else if (lang.style === 0 && ['Java', 'C#', 'PHP', 'Kotlin'].includes(lang.name)) file = `${pick(r, lang.dirs)}/${cap(stem)}Controller.${lang.ext}`;
  else file = `${pick(r, lang.dirs)}/${stem}.${lang.ext}`;
  const bits = textBits(o.seed, o.n);
  const score = Math.min(100, Math.max(0, int(r, cls.score[0], cls.score[1]) + int(r, -5, 5)));
  const severity = Math.round(Math.min(10, Math.max(0, score / 10 + (r() - 0.5) * 1.6)) * 10) / 10;
  const created = o.at ?? Math.min(ANCHOR_MS, Date.parse(o.scan.createdAt) + int(r, 1, 40) * 60_000);
  const settled = o.status !== 'open' && o.status !== 'processing';
  const updated = settled ? Math.min(Math.max(ANCHOR_MS, created), created + int(r, 1, 30) * DAY_MS) : created;
  const startLine = int(r, 3, 900);
  const isPr = o.scan.codeScanType === 'PrScan';
  const rule = chance(r, 0.06) ? pick(r, RULES) : null;
  const issue: IssueRec = {
    id: makeId('issue', o.seed, o.n),
    n: o.n,
    repositoryId: o.repo.id,
    scanId: o.scan.scanId,
    codeScanType: o.scan.codeScanType,
    status: o.status,
    severity,
    score,
    confidence: int(r, 35, 99),
    language,
    vulnClass: cls.name,
    vulnCategory: cls.category,
    cwes: cls.cwes,
    affectedFile: file,
    generatedTitle: fill(cls.title, bits).replace(/^./, (c) => c.toUpperCase()),
    startLine,
    endLine: startLine + int(r, 0, 12),
    startColumn: int(r, 1, 20),
    endColumn: int(r, 20, 90),
    isPrBlocked: isPr && score >= 75,
    unpatchable: chance(r, 0.04),
    triagePhase: weighted(r, [['VulnerabilityValidation', 70], ['ExploitabilityAnalysis', 15], ['Completed', 15]] as const),
    validated: o.status === 'falsePositive' || o.status === 'notExploitable' ? 'DISCONFIRMED' : weighted(r, [['CONFIRMED', 6], ['UNKNOWN', 3]] as const),
    prAuthor: o.scan.prAuthor ?? pick(r, AUTHORS),
    ruleId: rule?.id ?? null,
    createdAt: created,
    updatedAt: updated,
    archivedAt: o.status === 'archived' ? updated : null,
    noLongerDetectedAt: o.status === 'closed' ? updated : null,
    stateChangeAuthor: settled ? pick(r, AUTHORS) : null,
    falsePositiveReason: o.status === 'falsePositive' ? pick(r, FALSE_POSITIVE_REASONS) : null,
    patch: null,
  };
  if (o.status === 'patched' || (o.status === 'open' && chance(r, 0.12))) {
    issue.patch = makePatch(issue, makeId('patch', o.seed, o.n), o.repo, o.status === 'patched' ? 'MERGED' : 'OPEN', created + DAY_MS, hex(r, 4));
  }
  return issue;
}

export function makePatch(issue: IssueRec, id: string, repo: RepoRec, pullRequestStatus: string, at: number, nonce: string): PatchRec {
  const branch = (repo.prBranchFormat ?? 'svc/fix-{issueId}').replace('{issueId}', issue.id);
  const title = (repo.prTitleTemplate ?? 'Security fix: {title}').replace('{title}', issue.generatedTitle);
  return {
    id,
    prLink: pullRequestStatus === 'DRAFT' ? null : `${repo.url.replace(/\.git$/, '')}/pull/${(parseInt(nonce, 16) % 900) + 100}`,
    prTitle: title,
    prDescription: `Fixes ${issue.vulnClass} (${issue.cwes.join(', ')}) in ${issue.affectedFile}:${issue.startLine}.\n\nBranch: ${branch}`,
    gitDiff: [
      `--- a/${issue.affectedFile}`, `+++ b/${issue.affectedFile}`, `@@ -${issue.startLine},3 +${issue.startLine},4 @@`,
      '-  // vulnerable code', '+  // input is validated and passed as a parameter', '+  assertValid(input);',
    ].join('\n'),
    pullRequestStatus,
    validated: pullRequestStatus === 'DRAFT' ? 'UNKNOWN' : 'CONFIRMED',
    createdAt: iso(at),
    updatedAt: iso(at),
  };
}
