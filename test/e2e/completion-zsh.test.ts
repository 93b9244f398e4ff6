// svc's zsh completion script, in a real zsh: see test/helpers/completion-cases.ts.
import { describe, expect, it } from 'vitest';
import { completionCases } from '../helpers/completion-cases.js';
import { sandbox, shellAvailable, zshComplete } from '../helpers/shells.js';

completionCases('zsh');

describe.runIf(shellAvailable('zsh'))('zsh completion autoloaded from $fpath', () => {
  it('completes the same as when sourced', () => {
    const box = sandbox();
    expect(zshComplete('svc issues search --sort-by ', box, { fpath: true }).sort()).toEqual(['createdAt', 'score', 'severity']);
    expect(zshComplete('svc iss', box, { fpath: true })).toEqual(['issues']);
  });
});
