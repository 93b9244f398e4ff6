/**
 * Help that fits: every help screen, every `svc help <topic>` and a usage error, rendered at 80
 * columns (in a pipe, where 80 is the width, and on an 80-column terminal): no line is wider than
 * 80 unless it is one word that cannot be broken, and no word is split across lines.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../../helpers/host.js';
import { built } from '../../../helpers/program.js';
import { allCommands, buildModel } from '../../../../src/completion/model.js';
import { HELP_TOPICS } from '../../../../src/commands/help-topics.js';

const WIDTH = 80;

/** Lines wider than the width that are not a single unbreakable word (after the indent). */
function overlong(text: string): string[] {
  return text.split('\n').filter((l) => l.length > WIDTH && /\S\s+\S/.test(l.trim()));
}

async function screens(): Promise<string[][]> {
  const { program } = await built();
  const paths = allCommands(buildModel(program)).map((c) => c.path);
  return [...paths.map((p) => [...p, '--help']), ...Object.keys(HELP_TOPICS).map((t) => ['help', t]), ['help']];
}

describe('help at 80 columns', () => {
  it('in a pipe: every help screen and topic fits 80 columns', async () => {
    const bad: string[] = [];
    const all = await screens();
    expect(all.length).toBeGreaterThan(60);
    for (const argv of all) {
      const r = await runCli(argv);
      expect(r.code, `svc ${argv.join(' ')}: ${r.stderr}`).toBe(0);
      for (const l of overlong(r.stdout)) bad.push(`svc ${argv.join(' ')}: ${l.length}: ${l}`);
    }
    expect(bad).toEqual([]);
  }, 120_000);

  it('on an 80-column terminal too', async () => {
    const bad: string[] = [];
    for (const argv of await screens()) {
      const r = await runCli(argv, { tty: true, columns: WIDTH });
      for (const l of overlong(r.stdout)) bad.push(`svc ${argv.join(' ')}: ${l.length}: ${l}`);
    }
    expect(bad).toEqual([]);
  }, 120_000);

  it('words are never split: the help at 80 has the same words as at 200', async () => {
    for (const argv of [['issues', 'search', '--help'], ['gate', '--help'], ['help', 'output'], ['help', 'environment'], ['help', 'exit-codes']]) {
      const narrow = (await runCli(argv, { tty: true, columns: WIDTH })).stdout;
      const wide = (await runCli(argv, { tty: true, columns: 200 })).stdout;
      // A long example command continues after ` \` (still one command when pasted).
      const words = (t: string) => t.split(/\s+/).filter((w) => w && w !== '\\');
      expect(words(narrow), `svc ${argv.join(' ')}`).toEqual(words(wide));
    }
  });

  it('a usage error at 80 columns is wrapped without splitting words', async () => {
    const r = await runCli(['issues', 'search', '--columns', 'bogus'], { tty: true, columns: WIDTH });
    expect(r.code).toBe(2);
    expect(overlong(r.stderr)).toEqual([]);
    expect(r.stderr).toMatch(/^svc: error: /);
  });
});
