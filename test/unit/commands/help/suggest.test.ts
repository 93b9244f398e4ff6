/** "Did you mean": flags by their words and synonyms, operations within their group. */
import { describe, expect, it } from 'vitest';
import { suggestCommands, suggestFlags } from '../../../../src/commands/suggest.js';
import { editDistance } from '../../../../src/core/edit-distance.js';

const SEARCH = ['--organization-id', '--page', '--page-size', '--search-query', '--severities-min', '--severities-max', '--sort-by', '--sort-order',
  '--languages', '--vulnerability-classes', '--repository-ids', '--project-id', '--scan-id', '--code-scan-types', '--types', '--get-counts',
  '--no-get-counts', '--field', '--raw-field', '--input', '--all', '--concurrency', '--output', '--org', '--profile', '--base-url'];

describe('suggestFlags', () => {
  it.each([
    ['--repo', '--repository-ids'],
    ['--repos', '--repository-ids'],
    ['--status', '--types'],
    ['--sort', '--sort-by'],
    ['--severity', '--severities-min'],
    ['--vuln-class', '--vulnerability-classes'],
    ['--langauges', '--languages'],
    ['--page-szie', '--page-size'],
    ['--limit', '--page-size'],
    ['--query', '--search-query'],
  ])('%s -> %s first', (typed, best) => {
    expect(suggestFlags(typed, SEARCH)[0]).toBe(best);
  });

  it('--sort no longer suggests --org (commander did)', () => {
    expect(suggestFlags('--sort', SEARCH)).not.toContain('--org');
  });

  it('nothing for a flag like none of them', () => {
    expect(suggestFlags('--xyzzy', SEARCH)).toEqual([]);
  });

  it('at most two, and a value after = is ignored', () => {
    expect(suggestFlags('--severity=3', SEARCH)).toEqual(['--severities-min', '--severities-max']);
  });
});

describe('suggestCommands', () => {
  const ISSUES = ['search', 'get', 'archive', 'unarchive', 'mark-true-positive', 'mark-false-positive', 'generate-patch', 'approve-patch', 'update-severity'];
  it.each([['serch', 'search'], ['list', 'search'], ['show', 'get'], ['achive', 'archive'], ['approve', 'approve-patch']])('%s -> %s', (typed, best) => {
    expect(suggestCommands(typed, ISSUES)[0]).toBe(best);
  });
  it('nothing for a word like none of them', () => {
    expect(suggestCommands('frobnicate', ISSUES)).toEqual([]);
  });
});

describe('editDistance', () => {
  it('counts a swap of neighbours as one', () => {
    expect(editDistance('serach', 'search')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
  });
});
