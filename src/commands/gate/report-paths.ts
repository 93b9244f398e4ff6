/**
 * The files of a gate run: the report paths, resolved and checked before anything is sent (a missing
 * folder, a directory, two reports at one path), what the run writes and what it reads (file-clash.ts
 * keeps the two apart), and where the full list of issues is, for the notices.
 */
import { resolve } from 'node:path';
import type { Context } from '../../context.js';
import { UsageError } from '../../core/errors.js';
import { unwritable } from '../../output/write-file.js';
import { REPORT_KEYS, kindOf, type ReportPaths } from '../../gate/reports/registry.js';
import { DEFAULT_POLICY_FILE } from '../../gate/policy-file.js';
import type { NamedFile } from '../../output/file-clash.js';
import type { GateOptions } from './options.js';

/** Report paths, resolved and checked before anything is sent. */
export async function reportPaths(ctx: Context, files: ReportPaths): Promise<ReportPaths> {
  const paths: ReportPaths = {};
  const seen = new Map<string, string>();
  for (const kind of REPORT_KEYS) {
    const given = files[kind];
    if (given === undefined) continue;
    const flag = kindOf(kind).flag;
    if (given.trim() === '') throw new UsageError(`${flag} needs a file name`);
    // `-` is stdout (written in place, like a FIFO or a device: see output/write-file.ts).
    const path = given === '-' ? '-' : resolve(ctx.cwd, given);
    const other = seen.get(path);
    if (other) throw new UsageError(`${other} and ${flag} name the same file '${given}'`, 'give each report its own file');
    seen.set(path, flag);
    if (path === '-') { paths[kind] = path; continue; }
    // What the writing would refuse, refused now, before anything is sent (output/write-file.ts).
    const no = await unwritable(path);
    if (no?.why === 'directory') throw new UsageError(`${flag} '${given}' is a directory`);
    if (no?.why === 'folder') throw new UsageError(`cannot write the ${flag} report '${given}': its directory does not exist or is not writable`, 'create the directory first');
    if (no?.why === 'refused') throw new UsageError(`cannot write the ${flag} report '${given}' (${no.code})`, 'give a regular file, a new path, or a symbolic link to one in an existing directory');
    paths[kind] = path;
  }
  return paths;
}

/** The files the run writes: the reports (not stdout) and the CI's step summary. */
export function outputFiles(paths: ReportPaths, given: ReportPaths, stepSummary: string | undefined): NamedFile[] {
  const out: NamedFile[] = [];
  for (const kind of REPORT_KEYS) {
    const path = paths[kind];
    if (path !== undefined && path !== '-') out.push({ flag: kindOf(kind).flag, given: given[kind] ?? path, path });
  }
  if (stepSummary !== undefined) out.push({ flag: 'the CI step summary', given: stepSummary, path: stepSummary });
  return out;
}

/**
 * The files the run reads: the baseline, the policy (--policy, else the default one), --input, -F
 * name=@file, svc's config file. The default policy file of the current directory counts whether or
 * not it is there yet, and also beside --policy: every later `svc gate` (and `svc policy`) run here
 * without --policy reads a report written there as its policy, and stops on it (exit 2).
 */
export function inputFiles(ctx: Context, opts: GateOptions): NamedFile[] {
  // The config file (profiles, the stored token): a report over it would lose them.
  const files: NamedFile[] = [{ flag: 'the config file', given: ctx.config.path, path: resolve(ctx.cwd, ctx.config.path), hint: 'write the report to another file: this one holds the profiles and the stored token' }];
  const add = (flag: string, given: string | undefined) => {
    if (given !== undefined && given !== '-' && given.trim() !== '') files.push({ flag, given, path: resolve(ctx.cwd, given) });
  };
  add('--baseline', opts.baseline);
  add('--policy', opts.policy);
  files.push({
    flag: 'the policy file', given: DEFAULT_POLICY_FILE, path: resolve(ctx.cwd, DEFAULT_POLICY_FILE),
    why: 'svc gate reads it as its policy when --policy is not given: a report there would stop every later run here (exit 2)',
    hint: 'write the report to another file',
  });
  const values = opts.scope.values as Record<string, unknown>;
  add('--input', typeof values.input === 'string' ? values.input : undefined);
  for (const key of ['field', 'rawField']) {
    const list = values[key];
    if (Array.isArray(list)) for (const f of list) if (typeof f === 'string' && /=@/.test(f)) add('-F', f.slice(f.indexOf('=@') + 2));
  }
  return files;
}

/** Where every issue is listed, for the notice of the annotations left out. */
export function fullList(paths: ReportPaths, stepSummary: string | undefined): string {
  const files = (['sarif', 'junit', 'jsonReport'] as const).filter((k) => paths[k] !== undefined && paths[k] !== '-').map((k) => `${kindOf(k).flag} ${paths[k]}`);
  const where = [...(stepSummary !== undefined ? ['the step summary'] : []), ...files];
  return where.length > 0 ? `${where.join(', ')}${files.length === 0 ? ' (breaking issues; -o json, --sarif or --junit list every issue)' : ''}` : '-o json, --sarif or --junit';
}

