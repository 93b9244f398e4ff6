/** Every operation's --help teaches: API path, flags with type/enum/default/source, runnable examples. */
import { describe, expect, it } from 'vitest';
import { GROUPS, commandName, loadAllOperations, type Operation } from '../../../../src/operations/index.js';
import { flagSpecs } from '../../../../src/request/flags.js';
import { built } from '../../../helpers/program.js';

const flat = (text: string) => text.replace(/\s+/g, ' ');

/** Shell-like split of an example: quotes respected, stops at a redirection or pipe. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  const re = /'([^']*)'|"((?:\\.|[^"\\])*)"|(\S+)/g;
  for (const m of line.matchAll(re)) {
    const word = m[1] ?? m[2] ?? m[3];
    if (m[3] && /^(>|>>|\||2>|&&|;)$/.test(m[3])) break;
    words.push(word);
  }
  return words;
}

const ops = await loadAllOperations();
const { helpOf, find } = await built();

describe.each(ops.map((op) => [`${op.group} ${commandName(op).name}`, op] as [string, Operation]))('svc %s --help', (_name, op) => {
  const help = helpOf(find(op.group, commandName(op).name));

  it('shows the API path and at least one example with its description', () => {
    expect(help).toContain(`API: POST ${op.path}`);
    expect(op.examples.length).toBeGreaterThan(0);
    expect(help).toMatch(/\nExamples?:\n/);
    // Help fits 80 columns: a long example continues on the next line after ` \`, a long comment after `# `.
    const text = flat(help.replace(/ \\\n/g, ' ').replace(/\n *# /g, (m, at: number) => (/\n *# [^\n]*$/.test(help.slice(0, at)) ? ' ' : m)));
    for (const ex of op.examples) {
      expect(text).toContain(` $ ${ex.cmd} `);
      expect(text).toContain(` # ${ex.desc} `);
    }
  });

  it('shows every flag with its type, enum values, service default and source', () => {
    const text = flat(help);
    for (const spec of flagSpecs(op.request.shape)) {
      expect(text).toContain(`--${spec.flag}`);
      if (spec.kind === 'enum') expect(text).toContain(`[one of: ${spec.choices!.join(', ')}]`);
      if (spec.kind === 'array' && spec.itemKind === 'enum') expect(text).toContain(`[list of: ${spec.choices!.join(', ')}]`);
      if (spec.kind === 'boolean') expect(text).toContain(`--no-${spec.flag}`);
      if (spec.defaultValue !== undefined) expect(text).toContain(`(service default: ${String(spec.defaultValue)})`);
    }
    const sources = new Set(flagSpecs(op.request.shape).map((s) => s.source));
    if (sources.has('notes')) expect(text).toContain('{field notes}');
    if (sources.has('inferred')) expect(text).toContain('{inferred}');
    expect(text).toContain('-F, --field');
    expect(text).toContain('Global flags: -o/--output');
  });

  it('its examples name this operation and parse with the flags it really has', async () => {
    for (const ex of op.examples) {
      const words = shellWords(ex.cmd);
      expect(words[0]).toBe('svc');
      const fresh = await built([op.group]);
      expect(fresh.find(words[1], words[2])).toBe(fresh.find(op.group, commandName(op).name));
      await expect(fresh.program.parseAsync(words.slice(1), { from: 'user' })).resolves.toBeDefined();
    }
  });
});

describe('group help', () => {
  it.each(GROUPS.map((g) => [g.name]))('svc %s --help lists every operation with its one-line summary', (group) => {
    const text = flat(helpOf(find(group)));
    const mine = ops.filter((o) => o.group === group);
    expect(mine.length).toBeGreaterThan(0);
    expect(text).toContain('Operations:');
    for (const op of mine) {
      expect(text).toContain(commandName(op).name);
      expect(text).toContain(flat(op.summary));
    }
  });
});
