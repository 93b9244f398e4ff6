/**
 * What `u` in `svc issues triage` does with each kind of action: the call that undoes it is the
 * undo its row declares in the operation table (`bulk.undo`: archive -> unarchive,
 * mark-false-positive -> mark-true-positive), the same as the bulk commands'; where the API has
 * none, the walk goes back to the issue and says what stays on the service, and why.
 */
import type { Operation } from '../../operations/types.js';

export type Action = 'false positive' | 'true positive' | 'archived' | 'patch requested' | 'skipped';

/** The row of the issues group each action is (a skip sends nothing). */
const ACTION_ROW: Record<Action, string | undefined> = {
  'false positive': 'mark-false-positive',
  archived: 'archive',
  'true positive': 'mark-true-positive',
  'patch requested': 'generate-patch',
  skipped: undefined,
};

interface UndoPlan {
  /** The row (of the issues group) whose call undoes the action. */
  call?: string;
  /** Otherwise what stays on the service, said in the status line. */
  stays?: string;
}

export function undoPlan(action: Action, rows: Operation[], before: { status?: string; validated?: string }): UndoPlan {
  const name = ACTION_ROW[action];
  if (name === undefined) return {};
  const undo = rows.find((r) => r.name === name)?.bulk?.undo;
  if (undo && 'by' in undo) return { call: undo.by };
  const why = undo && 'none' in undo ? undo.none : 'the API has no call that undoes it';
  if (action === 'true positive') {
    return { stays: before.validated === 'CONFIRMED' ? 'it was confirmed already: nothing changed' : `its confirmation stays (validated was ${before.validated ?? 'not set'}): ${why}` };
  }
  return { stays: `the ${action.replace(/ requested$/, ' request')} stays: ${why}` };
}
