/**
 * The fingerprint of an issue: what stays the same when the same finding is reported again by a
 * later scan under another id. It is the rule (the vulnerability class, else the first CWE), the
 * repository-relative file and the title, not the line (lines move when code above them changes).
 * A baseline and the policy file match issues by it when their ids differ.
 */
import { createHash } from 'node:crypto';
import type { IssueInput } from './tally.js';

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim().replace(/\s+/g, ' ') : '';
}

/** The rule part: the vulnerability class (lower case), else the first CWE number ("cwe-89"), else ''. */
export function ruleKeyOf(issue: IssueInput): string {
  const cls = text(issue.vulnClass).toLowerCase();
  if (cls !== '') return cls;
  if (Array.isArray(issue.cwes)) {
    for (const cwe of issue.cwes as unknown[]) {
      const m = /^\s*(?:cwe[-_ ]?)?(\d+)/i.exec(String(cwe));
      if (m) return `cwe-${Number(m[1])}`;
    }
  }
  return '';
}

/** Repository-relative path with forward slashes ('' when none). */
export function fileKeyOf(file: unknown): string {
  return text(file).replace(/\\/g, '/').replace(/^(\.\/)+/, '').replace(/^\/+/, '');
}

/** A title as the fingerprint takes it: spaces folded, without a closing period (SARIF messages add one). */
export function titleKey(title: unknown): string {
  return text(title).replace(/[.!?]+$/, '');
}

/** The title part: the generated title, else the vulnerability class, else ''. */
function titleKeyOf(issue: IssueInput): string {
  return titleKey(text(issue.generatedTitle) || text(issue.vulnClass));
}

/** `svcfp1:` and 32 hex digits of SHA-256 over rule, file and title. */
export function fingerprintParts(rule: string, file: string, title: string): string {
  const hash = createHash('sha256').update(`${rule}\u0000${file}\u0000${title}`).digest('hex');
  return `svcfp1:${hash.slice(0, 32)}`;
}

export function fingerprintOf(issue: IssueInput): string {
  return fingerprintParts(ruleKeyOf(issue), fileKeyOf(issue.affectedFile), titleKeyOf(issue));
}

/**
 * The fingerprint of an issue with no rule, no file and no title: it names nothing, so it matches
 * nothing (a baseline or policy entry carrying it would otherwise accept every such issue).
 */
export const EMPTY_FINGERPRINT = fingerprintParts('', '', '');

/** A fingerprint as written by svc: `svcfp1:` and 32 hex digits. */
export const FINGERPRINT_FORMAT = /^svcfp1:[0-9a-f]{32}$/;
