/**
 * The commit `--commit auto` names: the one the CI's pipeline built for review, read through the
 * CI's neutral fields (detect.ts; the real variable names, events and event-file keys are the
 * providers' table, providers.ts):
 *
 * - a pull request build whose own commit is a merge the CI made (host A's pull request events, whose
 *   commit is the merge commit of the pull request's merge ref or the base branch's head; host B's
 *   merged results pipelines; other CIs' pull request builds): the head of the pull request
 *   (`headCommit`), from the variable or the event file the table names. Where the table says the
 *   event file holds it, an unset path, a file that cannot be read, that is not JSON or that lacks
 *   it is exit 2 naming what was wrong: never a fallback to the merge commit, which no scan carries;
 * - any other build: the commit it builds (`commit`).
 */
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Env } from '../core/host.js';
import { UsageError } from '../core/errors.js';
import { missingText, type CiInfo } from './detect.js';

interface ReviewCommit {
  /** As the CI gives it (not yet checked to be a sha). */
  sha: string;
  /** Where it was read, for messages: a variable, or the event file's variable and key path. */
  from: string;
}

const HINT = 'give the sha, e.g. --commit "$(git rev-parse HEAD)"';
/** An event file larger than this is not one a runner writes (they are tens of kilobytes). */
const MAX_EVENT_BYTES = 64 * 1024 * 1024;

const set = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/** The value at a path of keys in parsed JSON, when it is a non-empty string. */
function at(json: unknown, path: readonly string[]): string | undefined {
  let node = json;
  for (const key of path) {
    if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'string' && node.trim() !== '' ? node.trim() : undefined;
}

async function fromEventFile(ci: CiInfo, env: Env, cwd: string, path: readonly string[]): Promise<ReviewCommit> {
  const key = path.join('.');
  const variable = (ci.variables.eventPath ?? []).join(', ');
  const holds = `on ${ci.name} it holds the commit under review (${key})`;
  if (!set(ci.eventPath)) throw new UsageError(`--commit auto: on ${ci.name} a ${ci.event} event's commit under review is ${key} of the event file, and ${missingText(ci, 'eventPath', env)}`, HINT);
  const shown = ci.eventPath;
  const file = resolve(cwd, shown);
  const named = `the event file '${shown}' (${variable}) of this ${ci.event} event`;
  let text: string;
  try {
    const s = await stat(file);
    if (!s.isFile()) throw new UsageError(`--commit auto: ${named} is not a regular file: ${holds}`, HINT);
    if (s.size > MAX_EVENT_BYTES) throw new UsageError(`--commit auto: ${named} is ${s.size} bytes, too large for an event file: ${holds}`, HINT);
    text = await readFile(file, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new UsageError(`--commit auto: cannot read ${named} (${code}): ${holds}`, HINT);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UsageError(`--commit auto: ${named} is not JSON: ${holds}`, HINT);
  }
  const sha = at(json, path);
  if (sha === undefined) throw new UsageError(`--commit auto: ${named} has no ${key}, the commit under review`, HINT);
  return { sha, from: `${key} of the event file (${variable})` };
}

/** The commit the CI's pipeline built for review; exit 2 when it cannot be told. */
export async function reviewCommit(ci: CiInfo | undefined, env: Env, cwd: string): Promise<ReviewCommit> {
  if (!ci) throw new UsageError(`--commit auto: ${missingText(ci, 'commit', env)}`, HINT);
  const fromFile = ci.eventFields?.headCommit;
  if (fromFile) return fromEventFile(ci, env, cwd, fromFile);
  if (set(ci.headCommit)) return { sha: ci.headCommit, from: (ci.variables.headCommit ?? []).join(', ') };
  if (set(ci.commit)) return { sha: ci.commit, from: (ci.variables.commit ?? []).join(', ') };
  throw new UsageError(`--commit auto: ${missingText(ci, 'commit', env)}`, HINT);
}
