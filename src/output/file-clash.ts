/**
 * Outputs never destroy inputs. Before any request, every file the run may write (each report, the
 * CI's step summary) is compared with every file it reads (--baseline, --policy, the default
 * .svc-policy.yml whether or not it is there yet, --input, -F name=@file, svc's config file), after resolving symlinks and `..`, and by device and
 * inode (a hard link is the same file): the same file is exit 2 naming both flags. Otherwise one
 * failed run (a 503) would replace the baseline with an "undecided" report, and every later run
 * would be exit 2 on a baseline that lists nothing.
 */
import { realpath, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { UsageError } from '../core/errors.js';

export interface NamedFile {
  /** The flag (or the place) that names it, e.g. `--baseline`. */
  flag: string;
  /** As given, for messages. */
  given: string;
  /** Resolved against the current directory. */
  path: string;
  /** What to do instead, when the usual hint (move a decided run's report over it) does not fit. */
  hint?: string;
  /** What a report there would do, when it is not (only) this run overwriting what it reads. */
  why?: string;
}

interface Identity {
  real: string;
  inode?: string;
}

/** The file's real path (symlinks and `..` resolved; for a file not there yet, its directory's) and inode. */
async function identity(path: string): Promise<Identity> {
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    real = await realpath(dirname(path)).then((d) => join(d, basename(path)), () => resolve(path));
  }
  const s = await stat(real).catch(() => undefined);
  return { real, ...(s ? { inode: `${s.dev}:${s.ino}` } : {}) };
}

/** Throws a UsageError when an output names the same file as an input. */
export async function checkOutputsSpareInputs(outputs: NamedFile[], inputs: NamedFile[]): Promise<void> {
  if (outputs.length === 0 || inputs.length === 0) return;
  const ins = await Promise.all(inputs.map(async (f) => ({ f, id: await identity(f.path) })));
  for (const out of outputs) {
    const id = await identity(out.path);
    const clash = ins.find(({ id: i }) => i.real === id.real || (i.inode !== undefined && i.inode === id.inode));
    if (clash) {
      throw new UsageError(
        `${out.flag} '${out.given}' and ${clash.f.flag} '${clash.f.given}' are the same file: ${clash.f.why ?? 'the run would overwrite what it reads (a failed run would leave an "undecided" report in its place)'}`,
        clash.f.hint ?? `write ${out.flag} to another file (e.g. a new name, then move it over ${clash.f.given} after a decided run)`,
      );
    }
  }
}

/** Whether two paths name one file (symlinks and `..` resolved, hard links by inode). */
export async function sameFile(a: string, b: string): Promise<boolean> {
  const [x, y] = await Promise.all([identity(a), identity(b)]);
  return x.real === y.real || (x.inode !== undefined && x.inode === y.inode);
}

/**
 * Throws a UsageError when two outputs are one file by another name (a symbolic or hard link): the
 * second report would replace the first (the paths as given are compared where they are parsed).
 */
export async function checkOutputsDistinct(outputs: NamedFile[]): Promise<void> {
  // Devices and FIFOs are written in place, one report after the other: nothing is replaced.
  const files = (await Promise.all(outputs.map(async (f) => ((await stat(f.path).catch(() => undefined))?.isFile() === false ? undefined : f)))).filter((f): f is NamedFile => f !== undefined);
  const ids = await Promise.all(files.map(async (f) => ({ f, id: await identity(f.path) })));
  for (let i = 0; i < ids.length; i++) {
    for (let j = 0; j < i; j++) {
      const [a, b] = [ids[j], ids[i]];
      if (a.id.real === b.id.real || (a.id.inode !== undefined && a.id.inode === b.id.inode)) {
        throw new UsageError(`${a.f.flag} '${a.f.given}' and ${b.f.flag} '${b.f.given}' are the same file (a link to it): one report would replace the other`, 'give each report its own file');
      }
    }
  }
}
