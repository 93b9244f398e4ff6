/**
 * Which CI svc runs in, and what it says about the build, read from the variables real CI systems
 * set through the one table of their names (./providers.ts). Everything else in svc reads the
 * neutral fields of `CiInfo` (`ci.commit`, `ci.baseRef`, `ci.pullRequest`, `ci.apiUrl`, ...), never
 * a variable name.
 *
 * Off when `--no-ci` is given, SVC_NO_CI is set (not "0"), or CI is "false"/"0" ("CI=false is not CI").
 */
import type { Env } from '../core/host.js';
import { webUrl, publicHostVcs } from './repo-url.js';
import {
  CI_FIELDS, GENERIC_CI_VARIABLES, ciRows, groupMarkers, sourceNames,
  type AnnotationStyle, type CiField, type CiKind, type GroupStyle, type Source, type Vcs,
} from './providers.js';

export interface CiInfo {
  kind: CiKind;
  /** For messages: "host A's runner". */
  name: string;
  /** The provider of the repository being built, when the CI or the URL's host says so. */
  vcs?: Vcs;
  groups: GroupStyle;
  /** Annotations are printed without --annotations, in this CI's syntax. */
  annotations?: AnnotationStyle;
  /** Web URL of the repository being built (scheme and host lower case, no credentials, `.git` or trailing `/`). */
  repositoryUrl?: string;
  commit?: string;
  headCommit?: string;
  stepSummary?: string;
  event?: string;
  ref?: string;
  headRef?: string;
  baseRef?: string;
  baseSha?: string;
  pullRequest?: string;
  serverUrl?: string;
  apiUrl?: string;
  projectId?: string;
  repositoryPath?: string;
  workspace?: string;
  eventPath?: string;
  token?: string;
  workingDirectory?: string;
  tempDir?: string;
  runId?: string;
  runAttempt?: string;
  jobId?: string;
  stepId?: string;
  /** The real variables that carry each field on this CI (for messages: use `missingText`). */
  variables: Partial<Record<CiField, readonly string[]>>;
  /**
   * Fields this run's event carries in the event file (`eventPath`), each a path of keys into its
   * JSON: set only for the events whose file must be read (review-commit.ts reads it).
   */
  eventFields?: Partial<Record<CiField, readonly string[]>>;
}

const isSet = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';
const isOff = (v: string | undefined) => isSet(v) && /^(false|0|no)$/i.test(v.trim());
const isOn = (v: string | undefined) => isSet(v) && !isOff(v);

function read(env: Env, source: Source): string | undefined {
  if (typeof source === 'string') return isSet(env[source]) ? env[source]!.trim() : undefined;
  if ('anyOf' in source) {
    for (const name of source.anyOf) if (isSet(env[name])) return env[name]!.trim();
    return undefined;
  }
  const parts = source.join.map((name) => env[name]);
  if (!parts.every(isSet)) return undefined;
  return parts.map((p, i) => (i === 0 ? p!.trim().replace(/\/+$/, '') : p!.trim().replace(/^\/+|\/+$/g, ''))).join('/');
}

/** The CI svc runs in, from the variables it sets; undefined outside CI. */
export function detectCi(env: Env, o: { disabled?: boolean } = {}): CiInfo | undefined {
  if (o.disabled || isOn(env.SVC_NO_CI) || isOff(env.CI)) return undefined;
  const row = ciRows().find((r) => {
    const v = env[r.marker.variable];
    return isSet(v) && (r.marker.value === undefined || r.marker.value.test(v.trim()));
  });
  if (!row) {
    if (GENERIC_CI_VARIABLES.some((v) => (v.name === 'BUILD_NUMBER' ? isSet(env[v.name]) : isOn(env[v.name])))) {
      return { kind: 'generic', name: 'CI', groups: 'none', variables: {} };
    }
    return undefined;
  }
  const info: CiInfo = { kind: row.kind, name: row.name, groups: row.groups, variables: {} };
  if (row.annotations) info.annotations = row.annotations;
  for (const [field, value] of Object.entries(row.constants ?? {}) as Array<[CiField, string]>) info[field] = value;
  for (const [field, source] of Object.entries(row.fields) as Array<[CiField, Source]>) {
    info.variables[field] = sourceNames(source);
    const value = read(env, source);
    if (value !== undefined) info[field] = value;
  }
  if (row.eventFile && info.event !== undefined && row.eventFile.events.includes(info.event)) info.eventFields = row.eventFile.fields;
  if (info.repositoryUrl !== undefined) {
    const web = webUrl(info.repositoryUrl);
    if (web === undefined) delete info.repositoryUrl;
    else info.repositoryUrl = web;
  }
  // The repository's provider: the CI's own (an Enterprise Server URL is host A too), what the CI
  // says, or the public host of the URL.
  if (row.kind !== 'generic') info.vcs = row.kind;
  else if (row.vcsFrom && isSet(env[row.vcsFrom.variable])) info.vcs = row.vcsFrom.values[env[row.vcsFrom.variable]!.trim()];
  if (info.vcs === undefined && info.repositoryUrl !== undefined) {
    const vcs = publicHostVcs(info.repositoryUrl);
    if (vcs) info.vcs = vcs;
  }
  return info;
}

function nameList(names: readonly string[], word: 'or' | 'and'): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} ${word} ${names[names.length - 1]}`;
}

/**
 * Why a field has no value, naming the real variables that are unset and never one that is set:
 * "<the variable> is not set on host A's runner". Outside CI: that svc runs in no CI it knows.
 */
export function missingText(ci: CiInfo | undefined, field: CiField, env: Env): string {
  if (!ci) return 'no CI job is detected (svc help environment lists the variables svc reads)';
  const names = ci.variables[field];
  if (!names || names.length === 0) return `${ci.name} sets no variable with ${CI_FIELDS[field].replace(/ for .*$/, '')}`;
  const unset = names.filter((n) => !isSet(env[n]));
  // Set but not usable (a URL that is none): named, its value not shown (it may carry a token).
  if (unset.length === 0) return `${nameList(names, 'and')} on ${ci.name} ${names.length === 1 ? 'is set but gives' : 'are set but give'} no usable value`;
  const row = ciRows().find((r) => r.name === ci.name);
  const source = row?.fields[field];
  if (typeof source === 'object' && 'anyOf' in source) return `none of ${nameList(names, 'or')} is set on ${ci.name}`;
  return `${nameList(unset, 'and')} ${unset.length === 1 ? 'is' : 'are'} not set on ${ci.name}`;
}

/** Folds long output in the CI's log (host A's groups, host B's collapsed sections, ...); nothing elsewhere. */
export function groupLines(ci: CiInfo | undefined, name: string, title: string, nowMs: number): { start: string; end: string } {
  return groupMarkers(ci?.groups ?? 'none', name, title, Math.floor(nowMs / 1000));
}
