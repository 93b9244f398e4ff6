/**
 * The README is the user guide; internals live in docs/. Every link between them resolves: the file
 * exists and the #anchor is one of its headings (as the code host makes anchors from headings).
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const pages = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

/** `## Using svc in CI` -> `using-svc-in-ci`. */
function anchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\w\- ]/g, '').replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchor(m[1])));
}

describe('links in the README and docs/', () => {
  it.each(pages)('%s: every relative link and anchor resolves', (page) => {
    const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target)) continue;
      const [path, hash] = target.split('#');
      const file = path ? join(dirname(page), path) : page;
      if (!existsSync(join(ROOT, file))) { broken.push(`${target} (no file ${file})`); continue; }
      if (hash && file.endsWith('.md') && !anchorsOf(file).has(hash)) broken.push(`${target} (no heading #${hash} in ${file})`);
    }
    expect(broken).toEqual([]);
  });

  it('the README is the user guide: its sections, with internals linked from docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const sections = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    for (const s of ['Install', 'First steps', 'Commands', 'Output', 'Using svc in CI', 'Exit codes', 'Environment']) expect(sections).toContain(s);
    for (const s of ['The sandbox', 'Reliability and security', 'Performance']) expect(sections).not.toContain(s);
    for (const doc of ['docs/sandbox.md', 'docs/security.md', 'docs/reliability.md', 'docs/performance.md']) expect(readme).toContain(`](${doc})`);
  });
});
