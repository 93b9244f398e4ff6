/**
 * The sandbox's test API for pull requests (`POST /__sandbox/pull-request`): what a git host's webhook
 * would tell the service when a pull request gets a new head. The spec shows no events or webhooks
 * ("Events: not shown"), so this stands in for them, for tests, the demo and users trying a pipeline:
 *
 *   { "repositoryId": "repo_…" | "repositoryUrl": "https://…", "headSha": "<40 hex>",
 *     "headBranch": "feature/x", "baseBranch": "main", "findings": 2 | [{ "score": 95, "affectedFile": "src/a.js", "startLine": 12, "endLine": 14 }] }
 *
 * With PR scanning on for the repository (`isPrScanningEnabled`; `svc repos set-pr-scanning`), a PR
 * scan of the head starts (transitions.ts startPrScan) and answers `{ ok, prScanning: true, scanId }`;
 * off, `{ ok, prScanning: false }` and nothing is scanned.
 */
import type { Store } from './state.js';
import type { FindingSpec, RepoRec } from './model.js';
import { badRequest, notFound } from './http-error.js';
import { startPrScan } from './transitions.js';

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** `https://Host/a/b.git/` -> `host/a/b`, as resolve-by-url compares them. */
function looseUrl(url: string): string {
  return url.trim().toLowerCase().replace(/^[a-z+]+:\/\//, '').replace(/^[^@/]+@/, '').replace(/^www\./, '').replace(':', '/').replace(/\/+$/, '').replace(/\.git$/, '');
}

function repositoryOf(store: Store, body: Record<string, unknown>): RepoRec {
  const id = str(body.repositoryId);
  const url = str(body.repositoryUrl);
  if (id === undefined && url === undefined) throw badRequest("give 'repositoryId' or 'repositoryUrl'");
  const repo = id !== undefined ? store.repos.find((r) => r.id === id) : store.repos.find((r) => looseUrl(r.url) === looseUrl(url!) || (r.repositoryUrl !== null && looseUrl(r.repositoryUrl) === looseUrl(url!)));
  if (!repo) throw notFound(`no repository ${id !== undefined ? `'${id}'` : `with the URL '${url}'`}`);
  return repo;
}

function findingsOf(v: unknown): FindingSpec[] | number | undefined {
  if (v === undefined) return undefined;
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 50) return v;
  if (!Array.isArray(v) || v.length > 50) throw badRequest("'findings' is a number of findings (0-50) or a list of at most 50 { score, affectedFile, startLine, endLine, startColumn, endColumn, generatedTitle }");
  return v.map((f, i) => {
    if (f === null || typeof f !== 'object' || Array.isArray(f)) throw badRequest(`findings[${i}] is not an object`);
    const o = f as Record<string, unknown>;
    const out: FindingSpec = {};
    if (o.score !== undefined) {
      if (typeof o.score !== 'number' || !(o.score >= 0 && o.score <= 100)) throw badRequest(`findings[${i}].score is a number from 0 to 100`);
      out.score = o.score;
    }
    if (o.affectedFile !== undefined) out.affectedFile = str(o.affectedFile) ?? (() => { throw badRequest(`findings[${i}].affectedFile is a path`); })();
    const whole = (key: 'startLine' | 'endLine' | 'startColumn' | 'endColumn', what: string) => {
      const n = o[key];
      if (n === undefined) return;
      if (!Number.isInteger(n) || (n as number) < 1) throw badRequest(`findings[${i}].${key} is a ${what} number (1 or more)`);
      out[key] = n as number;
    };
    whole('startLine', 'line');
    whole('endLine', 'line');
    whole('startColumn', 'column');
    whole('endColumn', 'column');
    // A span the finding gives whole: the generated issue's would put an end before its start.
    if (out.endLine !== undefined && out.startLine === undefined) throw badRequest(`findings[${i}].endLine needs a startLine`);
    if (out.endLine !== undefined && out.endLine < out.startLine!) throw badRequest(`findings[${i}].endLine is before its startLine`);
    if (out.startColumn !== undefined && out.endColumn !== undefined && (out.endLine ?? out.startLine) === out.startLine && out.endColumn < out.startColumn) {
      throw badRequest(`findings[${i}].endColumn is before its startColumn on the same line`);
    }
    if (o.generatedTitle !== undefined) out.generatedTitle = str(o.generatedTitle) ?? (() => { throw badRequest(`findings[${i}].generatedTitle is a title`); })();
    return out;
  });
}

/** A pull request's new head: its PR scan when PR scanning is on. */
export function pullRequestHead(store: Store, body: Record<string, unknown>, scanDurationMs: number): Record<string, unknown> {
  const repo = repositoryOf(store, body);
  const headSha = str(body.headSha)?.toLowerCase();
  if (headSha === undefined || !/^[0-9a-f]{7,64}$/.test(headSha)) throw badRequest("'headSha' is the head commit's sha (7 to 64 hex digits)");
  const headBranch = str(body.headBranch);
  if (headBranch === undefined) throw badRequest("'headBranch' is the pull request's branch");
  const baseBranch = str(body.baseBranch) ?? repo.defaultScanTargetBranch;
  const scan = startPrScan(store, repo, { headSha, headBranch, baseBranch, findings: findingsOf(body.findings), ...(str(body.prAuthor) ? { prAuthor: str(body.prAuthor) } : {}) }, scanDurationMs);
  return scan ? { ok: true, prScanning: true, repositoryId: repo.id, scanId: scan.scanId } : { ok: true, prScanning: false, repositoryId: repo.id };
}
