/** What `u` in triage does with each action (src/commands/triage/undo.ts): the table's undo, or what stays. */
import { describe, expect, it } from 'vitest';
import { loadGroup } from '../../../../src/operations/index.js';
import { undoPlan } from '../../../../src/commands/triage/undo.js';

const rows = await loadGroup('issues');

describe('undoPlan', () => {
  it("sends the undo the operation table names for the action's row", () => {
    expect(undoPlan('false positive', rows, {})).toEqual({ call: 'mark-true-positive' });
    expect(undoPlan('archived', rows, {})).toEqual({ call: 'unarchive' });
  });
  it('sends nothing for a skip', () => {
    expect(undoPlan('skipped', rows, {})).toEqual({});
  });
  it('says what stays where the API has no undo: a confirmation (unless it was one already), a patch request', () => {
    expect(undoPlan('true positive', rows, { validated: 'CONFIRMED' }).stays).toBe('it was confirmed already: nothing changed');
    expect(undoPlan('true positive', rows, { validated: 'UNKNOWN' }).stays).toMatch(/^its confirmation stays \(validated was UNKNOWN\): the API has no call that takes a confirmation back/);
    expect(undoPlan('patch requested', rows, {}).stays).toBe('the patch request stays: the API has no call that withdraws a patch request');
  });
});
