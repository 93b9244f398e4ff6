/**
 * itemScopeFields: the fields of an item the scope check reads for a request. `--all` in a pipe keeps
 * of each item (pages 2+) only its id, the id's aliases and these (src/listing/page-decode.ts), so the
 * check must decide on an item cut down to them exactly as on the whole item.
 */
import { describe, expect, it } from 'vitest';
import { itemScopeCheck, itemScopeFields } from '../../../src/answers/item-scope.js';
import { ISSUES_SEARCH } from '../../../src/answers/search-counts.js';
import type { CheckId } from '../../../src/answers/checks.js';

const BODY = {
  repositoryIds: ['repo_A'], types: ['open'], scanId: 'scan_1', ruleId: 'rule_1', severities: { min: 7 },
  languages: ['Go'], vulnerabilityClasses: ['SQL Injection'], organizationId: 'org_1', projectId: 'proj_1',
};

function cut(item: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((f) => Object.hasOwn(item, f)).map((f) => [f, item[f]]));
}

describe('itemScopeFields', () => {
  it('names the top-level field of each filter the request asks, none for a request without filters or a path without rules', () => {
    expect(itemScopeFields(ISSUES_SEARCH, { repositoryIds: ['repo_A'], types: ['open'] }).sort()).toEqual(['repositoryId', 'status']);
    expect(itemScopeFields(ISSUES_SEARCH, { scanId: 'scan_1' }).sort()).toEqual(['codeScan', 'scanId']);
    expect(itemScopeFields(ISSUES_SEARCH, {})).toEqual([]);
    expect(itemScopeFields(ISSUES_SEARCH, { repositoryIds: [] })).toEqual([]);
    expect(itemScopeFields('/api/v1/nothing/here', BODY)).toEqual([]);
  });

  it('the check decides on an item cut down to them as on the whole item (matching, other, missing and odd values)', () => {
    const fields = itemScopeFields(ISSUES_SEARCH, BODY);
    const values: Record<string, unknown[]> = {
      repositoryId: ['repo_A', 'repo_B', null, 7],
      organizationId: ['org_1', 'org_2', undefined],
      projectId: ['proj_1', 'proj_2', undefined],
      status: ['open', 'closed', 'weird', undefined],
      codeScan: [{ id: 'scan_1' }, { id: 'scan_2' }, undefined],
      scanId: ['scan_1', 'scan_3', undefined],
      naturalLanguageRuleViolation: [{ ruleId: 'rule_1' }, { ruleId: 'rule_2' }, undefined],
      ruleId: ['rule_1', undefined],
      severity: [9, 2, 'high', undefined],
      language: ['go', 'Rust', undefined],
      vulnClass: ['sql injection', 'XSS', undefined],
    };
    const run = (item: Record<string, unknown>) => {
      const said: string[] = [];
      const check = itemScopeCheck(ISSUES_SEARCH, BODY, 'issues search --all', (id: CheckId, _what, detail) => { said.push(`${id} ${detail}`); })!;
      return { found: check(item, 2), said };
    };
    // Every field at each of its values, the others at their first value, and some mixed at random (seeded).
    const items: Array<Record<string, unknown>> = [];
    const base = () => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v[0]]));
    for (const [k, vs] of Object.entries(values)) for (const v of vs) items.push({ ...base(), [k]: v });
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let n = 0; n < 300; n++) items.push(Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v[next() % v.length]])));
    let disagreeing = 0;
    for (const whole of items) {
      for (const k of Object.keys(whole)) if (whole[k] === undefined) delete whole[k];
      const item = { id: 'iss_1', title: 'not read by the check', ...whole };
      const a = run(item);
      const b = run({ id: 'iss_1', ...cut(item, fields) });
      expect(b, JSON.stringify(item)).toEqual(a);
      if (a.found.length > 0) disagreeing++;
    }
    // The items exercise the check: most disagree with some filter, some with none.
    expect(disagreeing).toBeGreaterThan(items.length / 2);
    expect(disagreeing).toBeLessThan(items.length);
  });
});
