import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FILES, HELP_FILES, generatedBlocks, generatedFiles, helpFile, withGeneratedBlocks } from '../../../src/docs/generated.js';
import { ROOT, shellAvailable } from '../../helpers/shells.js';

describe('generated files checked into the repository', () => {
  it('completion scripts, docs/reference.md and the help files match the generator (run `npm run docs` when this fails)', async () => {
    const files = await generatedFiles();
    expect(Object.keys(files).sort()).toEqual([...Object.values(FILES), ...Object.keys(HELP_FILES).map(helpFile)].sort());
    for (const [path, text] of Object.entries(files)) {
      const onDisk = readFileSync(join(ROOT, path), 'utf8');
      expect(onDisk, `${path} is stale: run npm run docs`).toBe(text);
    }
  });

  it('the generated blocks of hand-written files (docs/security.md\'s table of answer checks) match the generator (run `npm run docs` when this fails)', () => {
    const paths = Object.keys(generatedBlocks());
    expect(paths).toContain('docs/security.md');
    for (const path of paths) {
      const onDisk = readFileSync(join(ROOT, path), 'utf8');
      expect(onDisk, `${path} is stale: run npm run docs`).toBe(withGeneratedBlocks(path, onDisk));
    }
  });

  it.runIf(shellAvailable('shellcheck'))('the bash script passes shellcheck', () => {
    const r = spawnSync('shellcheck', ['--shell=bash', '--severity=style', join(ROOT, FILES.bash)], { encoding: 'utf8' });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it.runIf(shellAvailable('zsh'))('the zsh script parses', () => {
    const r = spawnSync('zsh', ['-n', join(ROOT, FILES.zsh)], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it.runIf(shellAvailable('fish'))('the fish script parses', () => {
    const r = spawnSync('fish', ['--no-execute', join(ROOT, FILES.fish)], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
