/**
 * Every `svc` command line of the README's code blocks runs (in-process, against the sandbox) and is
 * accepted as written: no unknown command, operation or flag, no missing value, no internal error.
 * Placeholders ($REPO_ID, ISSUE_ID) get real ids. `svc sandbox` itself (it serves until stopped)
 * is run by the npm-scripts and sandbox-command tests.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { useSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';

const README = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');

/** The svc command lines of the README's code blocks, each cut at a comment, pipe, redirect or `&`. */
export function readmeCommands(text: string): string[] {
  const lines: string[] = [];
  for (const [, block] of text.matchAll(/```(?:sh|bash|yaml|yml)?\n([\s\S]*?)```/g)) {
    for (const line of block.split('\n')) {
      // `svc ...` at the start, after a pipe, or inside $( ) / <( ): cut at a comment, pipe, redirect, `&` or `)`.
      for (const [, cmd] of line.trim().replace(/\s+#\s.*$/, '').matchAll(/(?:^|^\$ |^- run: |^- |\|\s*|\$\(|<\()(svc [^|>&;)]*)/g)) {
        lines.push(cmd.trim());
      }
    }
  }
  return [...new Set(lines)];
}

/** Shell words of a simple command line: quotes removed, $VAR replaced. */
function words(line: string, vars: Record<string, string>): string[] {
  const out: string[] = [];
  for (const [, dq, sq, bare] of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    out.push((dq ?? sq ?? bare).replace(/\$\{?(\w+)\}?/g, (_m, v: string) => vars[v] ?? `placeholder-${v.toLowerCase()}`));
  }
  return out;
}

const sb = useSandbox({ scanDurationMs: 50 });
const vars: Record<string, string> = {};
let dir: string;

beforeAll(async () => {
  const repos = await sb.runJson(['repos', 'list', '--no-get-counts']);
  vars.REPO_ID = repos[0].id;
  const issues = await sb.runJson(['issues', 'search', '--repository-ids', vars.REPO_ID]);
  vars.ISSUE_ID = issues.issues[0].id;
  vars.SCAN_ID = 'placeholder-scan';
});

describe('the README\'s svc commands', () => {
  const commands = readmeCommands(README).filter((l) => !/^svc sandbox\b/.test(l));

  it('finds them (configuration, CI, completion and pipeline lines)', () => {
    expect(commands.length).toBeGreaterThan(15);
    expect(commands).toEqual(expect.arrayContaining(['svc auth status', 'svc auth token', 'svc repos list --no-get-counts -o csv --columns id', 'svc completion bash', 'svc issues search --types open --sort-by score', 'svc issues get ISSUE_ID']));
  });

  it.each(commands)('%s', async (line) => {
    dir ??= tempDir('svc-readme-');
    const argv = words(line, { ...vars, STEP_SUMMARY_FILE: join(dir, 'summary.md') }).slice(1)
      .map((w) => (w === 'ISSUE_ID' ? vars.ISSUE_ID : w))
      .map((w) => (/\.(sarif|xml|md|json)$/.test(w) && !w.includes('/') ? join(dir, w) : w));
    // `--wait --poll-interval 1` on a fake clock: it polls the sandbox's scan without sleeping for real.
    const r = await sb.run(argv, { cwd: dir, clock: argv.includes('--wait') ? 'fake' : 'real' });
    const said = `${line}\n(exit ${r.code})\n${r.stderr}`;
    expect(r.code, said).not.toBe(70);
    expect(r.stderr, said).not.toMatch(/unknown (option|command|operation)|argument missing|invalid argument|too many arguments/);
  }, 30_000);
});

/**
 * The README's CI sections and install download: each code block is run or checked by a test. The
 * svc lines run above; the other shell blocks are run as written by the test file named for them
 * (which finds them by their heading); the YAML snippets are checked here against the files they
 * come from.
 */
describe('the README\'s CI blocks', () => {
  const ROOT = resolve(__dirname, '../..');
  const section = (from: string, to: string) => README.slice(README.indexOf(from), README.indexOf(to, README.indexOf(from)));
  const ci = section('## Using svc in CI', '### Gating on what a change adds');
  const blocks = (text: string, lang: string) => [...text.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, 'g'))].map((m) => m[1].replace(/^ {2}/gm, ''));

  it('every shell block is svc lines (run above) or run by a named test that reads it', () => {
    const runBy: Array<[string, string]> = [
      ['### Until svc is published', 'test/e2e/readme-release-recipe.test.ts'],
      ['sha256sum --check', 'test/e2e/readme-release-recipe.test.ts'],
    ];
    const others = [...blocks(ci, 'sh'), ...blocks(section('## Install', '## First steps'), 'sh').filter((b) => b.startsWith('sha256sum'))]
      .filter((b) => b.split('\n').some((l) => l.trim() !== '' && !/^svc /.test(l.trim())));
    expect(others).toHaveLength(3);
    for (const block of others) {
      const where = runBy.find(([heading]) => (heading.startsWith('#') ? section(heading, '### Pinning').includes(block) : block.startsWith(heading)));
      expect(where, `no test runs this README block:\n${block}`).toBeDefined();
      expect(readFileSync(join(ROOT, where![1]), 'utf8')).toContain(where![0]);
    }
  });

  it('the YAML snippets use what the files declare: the action\'s inputs, the component\'s inputs and path', () => {
    const [action, include] = blocks(ci, 'yaml').map((b) => parse(b));
    const spec = parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'));
    const svcStep = (action.steps as Array<{ uses: string; with?: Record<string, string>; env?: Record<string, string> }>).find((s) => /^svc-cli\/svc@/.test(s.uses))!;
    for (const name of Object.keys(svcStep.with ?? {})) expect(spec.inputs, name).toHaveProperty(name);
    expect(Object.keys(svcStep.env ?? {}).sort()).toEqual(['SVC_API_TOKEN_ID', 'SVC_API_TOKEN_SECRET']);
    const [header] = parseAllDocuments(readFileSync(join(ROOT, 'templates/svc-gate.yml'), 'utf8')).map((d) => d.toJS());
    const [{ component, inputs }] = include.include as Array<{ component: string; inputs: Record<string, string> }>;
    expect(component).toMatch(/^\$CI_SERVER_FQDN\/[\w-]+\/svc\/svc-gate@v\d+\.\d+\.\d+$/);
    for (const name of Object.keys(inputs)) expect(header.spec.inputs, name).toHaveProperty(name);
  });
});
