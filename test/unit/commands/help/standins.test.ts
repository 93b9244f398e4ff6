/** Only what commander dispatches to is loaded: the group named, and the operation named in full. */
import { describe, expect, it } from 'vitest';
import { built } from '../../../helpers/program.js';

const flags = (cmd: { options: readonly unknown[] }) => cmd.options.length;

describe('operations of the named group', () => {
  it('argv naming an operation: that one has its flags, the others are stand-ins with name, alias and summary', async () => {
    const b = await built(['stats', 'issuesBySeverity', '-o', 'json']);
    const named = b.find('stats', 'issues-by-severity');
    expect(named.aliases()).toContain('issuesBySeverity');
    expect(flags(named)).toBeGreaterThan(3);
    const other = b.find('stats', 'summary');
    expect(flags(other)).toBe(0);
    expect(other.description()).toBe((await built(['stats'])).find('stats', 'summary').description());
    // Dispatch by alias and "did you mean" both see every operation.
    expect(b.find('stats').commands.map((c) => c.name())).toEqual((await built(['stats'])).find('stats').commands.map((c) => c.name()));
  });

  it('stand-ins show in the group\'s list of operations exactly as the full commands do', async () => {
    const named = await built(['issues', 'search']);
    const all = await built(['completion']);
    expect(named.helpOf(named.find('issues'))).toBe(all.helpOf(all.find('issues')));
    expect(all.helpOf(all.find('issues'))).toContain('archive [ISSUE_ID...]');
  });

  it("an operation's help, by any route, is its full help; a group's help builds no operation's flags", async () => {
    for (const argv of [['issues', 'search', '-h'], ['help', 'issues', 'search'], ['issues', 'search', '--help', '--no-color']]) {
      expect(flags((await built(argv)).find('issues', 'search')), argv.join(' ')).toBeGreaterThan(3);
    }
    for (const argv of [['issues'], ['issues', '--help'], ['help', 'issues']]) {
      const b = await built(argv);
      for (const op of b.find('issues').commands) expect(flags(op), `${argv.join(' ')}: ${op.name()}`).toBe(0);
    }
  });

  it('only the group named is loaded', async () => {
    const b = await built(['stats', 'summary']);
    expect(b.find('stats').commands.length).toBeGreaterThan(0);
    expect(b.find('issues').commands).toHaveLength(0);
  });
});
