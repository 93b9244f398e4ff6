/**
 * How many annotations earlier svc runs of this job (and of this step) printed, so that the gate stays
 * within the runner's per-job limit across steps, not only within one step. Host A's runner shows at
 * most 10 error, 10 warning and 10 notice annotations per step and 50 per job, and drops the rest
 * without a word.
 *
 * The count is a small JSON file in the job's temporary directory (the CI's `tempDir`, which host A's
 * runner empties at the start and end of each job: the providers table names its variable), named
 * after the run, its attempt and the job (`runId`, `runAttempt`, `jobId`), with a count per step (`stepId`). Without those variables
 * there is no ledger and only the per-step limits apply.
 *
 * It fails soft: a file that cannot be read or parsed counts as nothing used; one that cannot be
 * written stays as it was. Neither changes the verdict or the exit code. Two svc runs at once in
 * one job may undercount (the last write wins).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CiInfo } from './detect.js';
import { writeFileAtomic } from '../output/write-file.js';

type Kind = 'error' | 'warning' | 'notice';
type AnnotationCounts = Record<Kind, number>;

/** What this job and this step have printed before. */
interface AnnotationUse {
  job: number;
  step: AnnotationCounts;
}

interface Ledger {
  job: number;
  steps: Record<string, AnnotationCounts>;
}

const NONE: AnnotationCounts = Object.freeze({ error: 0, warning: 0, notice: 0 });
const safe = (v: string) => v.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100);

/** The ledger's file for this job, or undefined when the CI does not say which job this is. */
function ledgerPath(ci: CiInfo | undefined): string | undefined {
  if (!ci?.tempDir || !ci.runId || !ci.jobId) return undefined;
  return join(ci.tempDir, `svc-annotations-${safe(ci.runId)}-${safe(ci.runAttempt ?? '1')}-${safe(ci.jobId)}.json`);
}

const count = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v > 0 ? v : 0);

async function readLedger(path: string): Promise<Ledger> {
  try {
    const data: unknown = JSON.parse(await readFile(path, 'utf8'));
    if (data === null || typeof data !== 'object') return { job: 0, steps: {} };
    const d = data as { job?: unknown; steps?: unknown };
    const steps: Record<string, AnnotationCounts> = {};
    if (d.steps !== null && typeof d.steps === 'object') {
      for (const [k, v] of Object.entries(d.steps as Record<string, unknown>)) {
        const c = (v ?? {}) as Record<string, unknown>;
        steps[k] = { error: count(c.error), warning: count(c.warning), notice: count(c.notice) };
      }
    }
    return { job: count(d.job), steps };
  } catch {
    return { job: 0, steps: {} };
  }
}

/** What earlier runs of this job and step printed (nothing when there is no ledger or it cannot be read). */
export async function annotationsUsed(ci: CiInfo | undefined): Promise<AnnotationUse> {
  const path = ledgerPath(ci);
  if (path === undefined) return { job: 0, step: { ...NONE } };
  const ledger = await readLedger(path);
  return { job: ledger.job, step: { ...(ledger.steps[ci!.stepId ?? ''] ?? NONE) } };
}

/** Adds what this run printed; never throws. */
export async function recordAnnotations(ci: CiInfo | undefined, printed: AnnotationCounts): Promise<void> {
  const path = ledgerPath(ci);
  if (path === undefined) return;
  const total = printed.error + printed.warning + printed.notice;
  if (total === 0) return;
  try {
    const ledger = await readLedger(path);
    const key = ci!.stepId ?? '';
    const step = ledger.steps[key] ?? { ...NONE };
    ledger.steps[key] = { error: step.error + printed.error, warning: step.warning + printed.warning, notice: step.notice + printed.notice };
    ledger.job += total;
    await writeFileAtomic(path, JSON.stringify(ledger) + '\n');
  } catch {
    // Fail soft: the next run counts from what it can read.
  }
}
