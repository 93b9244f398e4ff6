/**
 * A newcomer's hour at an 80x24 terminal (issue 24), on the real bin: each stop a first-time user met
 * is checked where they met it.
 */
import { describe, expect, it } from 'vitest';
import { runOnPty, ptyAvailable } from '../helpers/pty.js';
import { useSandbox } from '../helpers/sandbox.js';

const sb = useSandbox();

// eslint-disable-next-line no-control-regex
const screen = (text: string) => text.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '').split('\n');
const wide = (text: string) => screen(text).filter((l) => l.length > 80);

describe.runIf(ptyAvailable())('at an 80x24 terminal', () => {
  it('help screens and topics fit 80 columns', async () => {
    for (const argv of [['--help'], ['issues', 'search', '--help'], ['repos', '--help'], ['help', 'output'], ['help', 'environment'], ['gate', '--help']]) {
      const r = await runOnPty(argv, [], { env: sb.env, cols: 80, rows: 24 });
      expect(r.code, argv.join(' ')).toBe(0);
      expect(wide(r.output), `svc ${argv.join(' ')}`).toEqual([]);
    }
  });
});
