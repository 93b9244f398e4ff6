/**
 * The assumed publishing address (github.com/svc-cli/svc, the action svc-cli/svc@v0) is named in a few
 * files that cannot share a constant: package.json, action.yml's comment, the `uses:` lines of
 * examples/github-workflow.yml and examples/github-reusable-workflow.yml, and the README. package.json's `repository` is the one place: every other mention must
 * agree with it, so a maintainer who changes it is told each place to change too.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const read = (f: string) => readFileSync(resolve(ROOT, f), 'utf8');
const pkg = JSON.parse(read('package.json')) as { name: string; homepage: string; bugs: { url: string }; repository: { url: string } };

/** owner/name from package.json's repository URL. */
function slug(): string {
  const m = /^git\+https:\/\/github\.com\/([\w.-]+\/[\w.-]+?)\.git$/.exec(pkg.repository.url);
  if (!m) throw new Error(`package.json repository.url is not git+https://github.com/<owner>/<name>.git: ${pkg.repository.url}`);
  return m[1];
}

/** Every `uses:` of an action that is neither host A's own (actions/*, github/*) nor a local path. */
function ownUses(text: string): string[] {
  return [...text.matchAll(/^\s*(?:#\s*)?-?\s*uses:\s*([^\s#]+)/gm)].map((m) => m[1]).filter((u) => !/^(actions|github)\//.test(u) && !u.startsWith('./'));
}

describe('the publishing address: package.json repository is the one place', () => {
  it('package.json homepage and bugs agree with its repository', () => {
    expect(pkg.homepage).toBe(`https://github.com/${slug()}#readme`);
    expect(pkg.bugs.url).toBe(`https://github.com/${slug()}/issues`);
  });

  it('action.yml, the example workflows and the README use that action address, and say it is assumed', () => {
    const action = `${slug()}@v0`;
    for (const file of ['action.yml', 'examples/github-workflow.yml', 'examples/github-reusable-workflow.yml', 'README.md']) {
      const uses = ownUses(read(file));
      expect(uses.length, `${file} names the action`).toBeGreaterThan(0);
      expect(uses, `${file}: change every uses: to ${action}`).toEqual(uses.map(() => action));
      expect(read(file), `${file} says the address is assumed`).toMatch(/intended\s+(?:#\s+)?publishing\s+(?:#\s+)?address/);
    }
    expect(ownUses(read('examples/github-workflow.yml'))).toHaveLength(2);
    expect(ownUses(read('examples/github-reusable-workflow.yml'))).toHaveLength(2);
  });

  it('the README says plainly that it is the intended address, and lists every file to change', () => {
    const readme = read('README.md');
    expect(readme).toContain(`\`github.com/${slug()}\``);
    expect(readme).toContain(`the npm name \`${pkg.name}\``);
    for (const file of ['package.json', 'action.yml', 'examples/github-workflow.yml', 'examples/github-reusable-workflow.yml', 'test/unit/docs/publish-address.test.ts']) expect(readme).toContain(`\`${file}\``);
  });
});
