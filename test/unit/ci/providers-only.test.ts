/**
 * The naming rule: svc's vocabulary is neutral (host A, host B, host C); the real names of the
 * systems it meets (CI runners' variables, providers' web hosts, CI products) live in ONE table,
 * src/ci/providers.ts. This test greps every other file of src/ for them.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ciRows, PROVIDER_NAMES, PUBLIC_HOSTS, sourceNames } from '../../../src/ci/providers.js';

const SRC = resolve(__dirname, '../../../src');
const TABLE = 'ci/providers.ts';

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.(c?ts|m?js|json)$/.test(n) ? [p] : [];
  });
}

/** Every variable the table reads. */
function tableVariables(): string[] {
  const names = new Set<string>();
  for (const row of ciRows()) {
    names.add(row.marker.variable);
    for (const source of Object.values(row.fields)) for (const n of sourceNames(source!)) names.add(n);
    if (row.vcsFrom) names.add(row.vcsFrom.variable);
  }
  return [...names];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Product and host names (any case), and the variables (exactly as written). */
function realNamePatterns(): RegExp[] {
  const words = [
    ...Object.values(PROVIDER_NAMES), ...Object.keys(PUBLIC_HOSTS).map((h) => h.split('.')[0]),
    ...ciRows().filter((r) => !/^host [ABC]'s /.test(r.name)).map((r) => r.name.split(' ')[0]),
    // Names of real systems a file might reach for without the table.
    'azure', 'jenkins', 'circleci', 'buildkite', 'travis', 'TF_BUILD',
  ];
  const variables = tableVariables().map((v) => `\\b${escape(v)}\\b`);
  return [new RegExp([...new Set(words)].map(escape).join('|'), 'gi'), new RegExp(variables.join('|'), 'g')];
}

// Built once (the file has thousands of lines to read; building them per line cost most of its time).
const PATTERNS = realNamePatterns();
const matches = (s: string) => PATTERNS.flatMap((p) => [...s.matchAll(p)].map((m) => m[0]));

describe('real provider names appear only in the providers table', () => {
  it('the pattern knows the real names (the check can fail)', () => {
    for (const s of ['GITHUB_ACTIONS', 'env.GITLAB_CI', 'BITBUCKET_COMMIT', 'https://github.com/x', 'TF_BUILD', 'CI_PROJECT_URL', 'Jenkins', 'CI_MERGE_REQUEST_IID']) expect(matches(s), s).not.toEqual([]);
    for (const s of ['HOSTA_ACTIONS', 'host A', 'hostb', 'CI', 'BUILD_NUMBER', 'ci.repositoryUrl', 'workspace']) expect(matches(s), s).toEqual([]);
  });

  it('no file of src/ but the table names one', () => {
    const found: string[] = [];
    for (const file of files(SRC)) {
      const rel = relative(SRC, file).split('\\').join('/');
      if (rel === TABLE) continue;
      const text = readFileSync(file, 'utf8');
      if (matches(text).length === 0) continue;
      text.split('\n').forEach((line, i) => {
        for (const m of matches(line)) found.push(`src/${rel}:${i + 1}: ${m}`);
      });
    }
    expect(found).toEqual([]);
  });
});
