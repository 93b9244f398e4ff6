/**
 * `--state FILE`: the data survives a restart. The file holds the seed parameters, the small
 * collections whole, and only the issues that differ from what the seed generates, so it stays
 * small even with 100,000 issues. Writes are atomic (temp file + rename), debounced after changes
 * and flushed on shutdown.
 */
import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../output/write-file.js';

import { seedWorld, type World } from './data/seed.js';
import { Store } from './state.js';

const STATE_FORMAT = 'svc-sandbox-state';
const STATE_VERSION = 1;

/** The saved state: the seeded world, with `issues` holding only those changed or added since seeding. */
interface StateFile extends World {
  format: typeof STATE_FORMAT;
  version: number;
  savedAt: string;
}

export function snapshot(store: Store): StateFile {
  return {
    format: STATE_FORMAT,
    version: STATE_VERSION,
    savedAt: store.nowIso(),
    params: store.params,
    counters: store.counters,
    orgs: store.orgs,
    repos: store.repos,
    installations: store.installations,
    scans: store.scans,
    schedules: store.schedules,
    issues: store.issues.filter((i) => store.touched.has(i.id)),
  };
}

/** Rebuild a store: seed from the saved parameters, then lay the saved records over it. */
export function restore(file: StateFile, clock?: () => number): Store {
  const world = seedWorld(file.params);
  const repoIds = new Set(file.repos.map((r) => r.id));
  const saved = new Map(file.issues.map((i) => [i.id, i]));
  const issues = world.issues.filter((i) => repoIds.has(i.repositoryId)).map((i) => saved.get(i.id) ?? i);
  const seeded = new Set(world.issues.map((i) => i.id));
  for (const i of file.issues) if (!seeded.has(i.id) && repoIds.has(i.repositoryId)) issues.push(i);
  const store = new Store({ ...world, counters: file.counters, orgs: file.orgs, repos: file.repos, installations: file.installations, scans: file.scans, schedules: file.schedules, issues }, clock);
  for (const i of file.issues) if (repoIds.has(i.repositoryId)) store.touched.add(i.id);
  return store;
}

/** The state in `path`, or undefined when there is no such file. Throws a one-line message when it cannot be used. */
export function readStateFile(path: string): StateFile | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read the state file ${path}: ${(err as Error).message}`);
  }
  let data: Partial<StateFile>;
  try {
    data = JSON.parse(text) as Partial<StateFile>;
  } catch (err) {
    throw new Error(`the state file ${path} is not valid JSON (${(err as Error).message})`);
  }
  if (data?.format !== STATE_FORMAT || data.version !== STATE_VERSION || !data.params || !Array.isArray(data.repos) || !Array.isArray(data.issues)) {
    throw new Error(`${path} is not a sandbox state file of version ${STATE_VERSION}`);
  }
  return data as StateFile;
}

/** Write `text` to `path` atomically (temp file + rename), private to the user. */
export function writeAtomic(path: string, text: string): Promise<void> {
  return writeFileAtomic(path, text, 0o600);
}

/** Saves the store a moment after each burst of changes; `flush()` saves now and waits. */
export class Persister {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;
  lastError: Error | undefined;

  constructor(private readonly store: Store, private readonly path: string, private readonly debounceMs: number, private readonly onError: (err: Error) => void = () => {}) {
    store.onChange(() => this.schedule());
  }

  schedule(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => { this.timer = undefined; void this.save(); }, this.debounceMs);
    this.timer.unref();
  }

  private save(): Promise<void> {
    if (!this.dirty) return this.writing;
    this.dirty = false;
    const text = JSON.stringify(snapshot(this.store));
    this.writing = this.writing.then(() => writeAtomic(this.path, text)).catch((err: Error) => {
      this.lastError = err;
      this.onError(err);
    });
    return this.writing;
  }

  async flush(): Promise<void> {
    if (this.timer) { clearTimeout(this.timer); this.timer = undefined; }
    await this.save();
    await this.writing;
  }
}
