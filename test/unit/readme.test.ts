import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { environmentMarkdown, exitCodesMarkdown, fillMarkers } from '../../src/docs.js';
import { formatExitCodes, EXIT_CODE_TABLE } from '../../src/exit-codes.js';
import { environmentHelp } from '../../src/commands/help-topics.js';

const readme = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');

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

describe('README CI workflow', () => {
  it('checks the code out before the gate and the SARIF upload (results map to checked-out files)', () => {
    const workflow = /```yaml\nname: security-gate[\s\S]*?```/.exec(readme)?.[0] ?? '';
    const checkout = workflow.indexOf('actions/checkout@');
    expect(checkout).toBeGreaterThan(0);
    expect(checkout).toBeLessThan(workflow.indexOf('svc gate'));
    expect(checkout).toBeLessThan(workflow.lastIndexOf('SARIF upload'));
  });
});
