import { describe, expect, it } from 'vitest';
import { argName, flagSpecs, typeText } from '../../../src/request/flags.js';
import { bool, field, list, maybe, nullable, num, oneOf, record, str } from '../../../src/operations/fields.js';
import { GLOBAL_OPTIONS } from '../../../src/commands/globals.js';
import { loadAllOperations } from '../../../src/operations/index.js';

describe('schema -> flags', () => {
  const specs = flagSpecs({
    organizationId: field(str(), 'Org', 'spec', 'id'),
    isPrScanningEnabled: maybe(bool()),
    severities: maybe(record({ min: maybe(num()), max: maybe(num()) })),
    vcs: field(oneOf(['hosta', 'hostb']), 'VCS', 'notes'),
    types: maybe(list(oneOf(['open', 'patched']))),
    repos: maybe(list(record({ url: str() }))),
    prBranchFormat: maybe(nullable(str())),
  });
  const by = Object.fromEntries(specs.map((s) => [s.flag, s]));

  it('kebab-cases field names and nests objects', () => {
    expect(specs.map((s) => s.flag)).toEqual(['organization-id', 'is-pr-scanning-enabled', 'severities-min', 'severities-max', 'vcs', 'types', 'repos', 'pr-branch-format']);
    expect(by['severities-max'].path).toEqual(['severities', 'max']);
  });

  it('keeps kinds, enums, nullability, placeholders and sources', () => {
    expect(by['is-pr-scanning-enabled'].kind).toBe('boolean');
    expect(by.vcs).toMatchObject({ kind: 'enum', choices: ['hosta', 'hostb'], source: 'notes' });
    expect(by.types).toMatchObject({ kind: 'array', itemKind: 'enum', choices: ['open', 'patched'] });
    expect(by.repos.kind).toBe('json');
    expect(by['pr-branch-format'].nullable).toBe(true);
    expect(by['organization-id'].placeholder).toBe('id');
    expect(typeText(by.types)).toBe('list of: open, patched');
  });

  it('names positional arguments in upper snake case', () => {
    expect(argName('issueId')).toBe('ISSUE_ID');
    expect(argName('repositoryUrl')).toBe('REPOSITORY_URL');
  });

  it('never derives a flag that collides with a global or common flag', async () => {
    const reserved = new Set(['field', 'raw-field', 'input', 'all', 'concurrency', 'yes', 'help', 'version']);
    for (const o of GLOBAL_OPTIONS) for (const part of o.flags.split(/[ ,]+/)) if (part.startsWith('--')) reserved.add(part.slice(2).replace(/^no-/, ''));
    for (const op of await loadAllOperations()) {
      for (const s of flagSpecs(op.request.shape)) expect(reserved.has(s.flag), `${op.path} --${s.flag}`).toBe(false);
    }
  });
});
