/** The README's command list and completion install lines follow the code. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GROUPS } from '../../../../src/operations/index.js';
import { builtins } from '../../../../src/commands/program.js';
import { INSTALL, SHELLS } from '../../../../src/completion/shells.js';

const README = readFileSync(resolve(__dirname, '../../../../README.md'), 'utf8');

function section(heading: string): string {
  const start = README.indexOf(`\n## ${heading}\n`);
  expect(start, `README has no '## ${heading}' section`).toBeGreaterThan(-1);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end < 0 ? undefined : end);
}

describe('README', () => {
  it('## Commands lists every group with its aliases and every built-in, and links the reference', () => {
    const text = section('Commands');
    for (const g of GROUPS) {
      expect(text).toContain(`\`${g.name}\``);
      for (const a of g.aliases) expect(text).toContain(`\`${a}\``);
    }
    for (const b of builtins().filter((x) => !x.hidden)) expect(text).toContain(`\`${b.name}\``);
    expect(text).toContain('](docs/reference.md)');
  });

  it('## Shell completion has the install line of each shell', () => {
    const text = section('Shell completion');
    for (const shell of SHELLS) expect(text).toContain(INSTALL[shell].split('#')[0].trim());
  });
});
