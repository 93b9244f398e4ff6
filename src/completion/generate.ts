/** Completion scripts from the commander tree (which must have every group loaded). */
import type { Command } from 'commander';
import type { Shell } from './shells.js';
import { buildModel } from './tree.js';
import { bashScript } from './bash.js';
import { zshScript } from './zsh.js';
import { fishScript } from './fish.js';

export function completionScript(shell: Shell, program: Command): string {
  const model = buildModel(program);
  switch (shell) {
    case 'bash': return bashScript(model);
    case 'zsh': return zshScript(model);
    case 'fish': return fishScript(model);
  }
}
