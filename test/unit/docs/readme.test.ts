import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentMarkdown, exitCodesMarkdown, fillMarkers } from '../../../src/docs/readme.js';
import { formatExitCodes, EXIT_CODE_TABLE } from '../../../src/core/exit-codes.js';
import { environmentHelp } from '../../../src/commands/help-topics.js';

const readme = readFileSync(resolve(__dirname, '../../../README.md'), 'utf8');

describe('README sections generated from the code', () => {
  it('has the current exit-code table (run `node scripts/readme.mjs` after changing it)', () => {
    expect(fillMarkers(readme, 'exit-codes', exitCodesMarkdown())).toBe(readme);
    expect(readme).toContain('| 7 | The response could not be understood');
  });

  it('has the current environment list', () => {
    expect(fillMarkers(readme, 'environment', environmentMarkdown())).toBe(readme);
  });

  it('help topics print the same tables', () => {
    const text = formatExitCodes();
    for (const { code, meaning } of EXIT_CODE_TABLE) expect(text).toContain(`${String(code).padStart(3)}  ${meaning}`);
    expect(environmentHelp()).toMatch(/SVC_API_TOKEN_SECRET\s+Token secret/);
  });

  it('names the two set-up commands', () => {
    expect(readme).toContain('npm run demo');
    expect(readme).toContain('npm ci && npm test');
  });
});

describe('README CI section', () => {
  it('is built around the example files, which exist (test/e2e/examples.test.ts runs them)', () => {
    const section = readme.slice(readme.indexOf('## Using svc in CI'), readme.indexOf('### What the gate decides'));
    for (const file of ['examples/github-workflow.yml', 'examples/github-reusable-workflow.yml', 'examples/github-caller-workflow.yml', 'examples/gitlab-ci.yml', 'templates/svc-gate.yml', '.github/workflows/release.yml']) {
      expect(section).toContain(`](${file})`);
      expect(existsSync(resolve(__dirname, '../../..', file)), file).toBe(true);
    }
    for (const flag of ['--baseline', '--new-since', '--commit', '--repository auto', '.svc-policy.yml', '--gitlab-sast', '--code-quality', '--no-ci']) expect(section).toContain(flag);
    // The CI platforms by the names their users search for.
    for (const name of ['GitHub Actions', 'GitLab CI/CD', 'Bitbucket', 'Azure Pipelines', 'merge request', 'pull request']) expect(readme).toContain(name);
  });
});
