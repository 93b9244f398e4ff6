/**
 * Help that fits: every help screen, every `svc help <topic>` and a usage error, rendered at 80
 * columns (in a pipe, where 80 is the width, and on an 80-column terminal): no line is wider than
 * 80 unless it is one word that cannot be broken, and no word is split across lines.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../helpers/temp.js';
import { runCli, type CliResult } from '../../../helpers/host.js';
import { built } from '../../../helpers/program.js';
import { allCommands, buildModel } from '../../../../src/completion/tree.js';
import { HELP_TOPICS } from '../../../../src/commands/help-topics.js';
import { fitText } from '../../../../src/output/fit-text.js';
import { runTogether, underfilled } from '../../../helpers/help-fit.js';

const WIDTH = 80;

/** Lines wider than the width that are not a single unbreakable word (after the indent). */
function overlong(text: string): string[] {
  return text.split('\n').filter((l) => l.length > WIDTH && /\S\s+\S/.test(l.trim()));
}

let listed: Promise<string[][]> | undefined;
/** Every help screen's command line (the tree is built once for the file). */
function screens(): Promise<string[][]> {
  return (listed ??= (async () => {
    const { program } = await built();
    const paths = allCommands(buildModel(program)).map((c) => c.path);
    return [...paths.map((p) => [...p, '--help']), ...Object.keys(HELP_TOPICS).map((t) => ['help', t]), ['help']];
  })());
}

/**
 * Each help screen rendered once per way it is shown (in a pipe; on a terminal 80 or 200 columns
 * wide) and shared by the tests that read it: rendering every screen is most of this file's time.
 */
const rendered = new Map<string, Promise<CliResult>>();
/** One config folder for every help screen (help reads no config and writes none; checked after each), removed when the file ends. */
const home = tempDir('svc-help-width-');
function render(argv: string[], columns?: number): Promise<CliResult> {
  const key = `${columns ?? 'pipe'} ${argv.join(' ')}`;
  let r = rendered.get(key);
  if (!r) {
    const configDir = home;
    r = (columns === undefined ? runCli(argv, { configDir }) : runCli(argv, { tty: true, columns, configDir })).then((x) => {
      expect(readdirSync(configDir), `svc ${argv.join(' ')} wrote to the config folder`).toEqual([]);
      return x;
    });
    rendered.set(key, r);
  }
  return r;
}

/**
 * The words bash makes of a command as pasted: quotes removed, `\` + newline joins lines outside
 * quotes and inside double quotes (keeping the spaces around it), and is literal inside single quotes.
 */
function bashWords(text: string): string[] {
  const words: string[] = [];
  let cur: string | undefined;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote === "'") { if (ch === "'") quote = undefined; else cur += ch; continue; }
    if (ch === '\\' && text[i + 1] === '\n') { i++; continue; }
    if (quote === '"') { if (ch === '"') quote = undefined; else cur += ch; continue; }
    if (ch === '"' || ch === "'") { quote = ch; cur ??= ''; continue; }
    if (/\s/.test(ch)) { if (cur !== undefined) words.push(cur); cur = undefined; continue; }
    cur = (cur ?? '') + ch;
  }
  if (cur !== undefined) words.push(cur);
  return words;
}

/** The example commands of a help text (`$ ...` and its ` \` continuation lines), as pasted. */
function examples(text: string): string[] {
  const out: string[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!/^ *\$ /.test(lines[i])) continue;
    let cmd = lines[i].replace(/^ *\$ /, '');
    while (cmd.endsWith(' \\') && i + 1 < lines.length) cmd += '\n' + lines[++i];
    out.push(cmd);
  }
  return out;
}

describe('help at 80 columns', () => {
  it('a long example continued with ` \\` pastes as the same command: never broken inside quotes', () => {
    for (const cmd of [
      'svc repos set-pr-title-template repo_123 --pr-title-template "Security fix: {title}"',
      "svc issues mark-false-positive iss_123 --reason 'Input is validated upstream, in the gateway'",
      'svc scans upsert-schedule repo_123 --execution-criteria-crontab "0 3 * * 1" --timezone Europe/Berlin --is-enabled',
    ]) {
      for (const width of [40, 60, 80]) {
        const fitted = fitText(`  $ ${cmd}`, width);
        expect(fitted.split('\n').length, fitted).toBeGreaterThan(1);
        expect(bashWords(examples(fitted)[0]), fitted).toEqual(bashWords(cmd));
      }
    }
  });

  it('an error or note that names a command keeps the command on one line, to copy it whole', () => {
    const cases: Array<[string, string]> = [
      ['svc: error: interrupted by SIGINT; the scan keeps running: svc scans list --scan-id scan_1d958f69', 'svc scans list --scan-id scan_1d958f69'],
      ["svc: error: unknown option '--bogus-flag' for 'svc issues search'; see 'svc issues search --help'", "'svc issues search --help'"],
      ['organization  none set: the service acts on the token\'s default organization; this token sees 3: org_5902d30f (Acme Platform), org_fb5b59dc (Acme Labs), org_1d93c7ad (Northwind Security); choose one: svc config set organization ID, or --org ID on a command', 'svc config set organization ID,'],
    ];
    for (const [text, command] of cases) {
      const fitted = fitText(text, 80);
      expect(fitted.split('\n').every((l) => l.length <= 80), fitted).toBe(true);
      expect(fitted.split('\n').some((l) => l.includes(command)), fitted).toBe(true);
      expect(fitted.split(/\s+/)).toEqual(text.split(/\s+/));
    }
  });

  it('every example of every help screen at 80 columns pastes as it reads at 200', async () => {
    const bad: string[] = [];
    for (const argv of await screens()) {
      const narrow = examples((await render(argv)).stdout);
      const wide = examples((await render(argv, 200)).stdout);
      narrow.forEach((cmd, i) => {
        if (JSON.stringify(bashWords(cmd)) !== JSON.stringify(bashWords(wide[i] ?? ''))) bad.push(`svc ${argv.join(' ')}: ${cmd}`);
      });
    }
    expect(bad).toEqual([]);
  }, 120_000);

  it('in a pipe: every help screen and topic fits 80 columns', async () => {
    const bad: string[] = [];
    const all = await screens();
    expect(all.length).toBeGreaterThan(60);
    for (const argv of all) {
      const r = await render(argv);
      expect(r.code, `svc ${argv.join(' ')}: ${r.stderr}`).toBe(0);
      // Not even one long word: an example of the help is something to write short.
      for (const l of r.stdout.split('\n').filter((x) => x.length > WIDTH)) bad.push(`svc ${argv.join(' ')}: ${l.length}: ${l}`);
    }
    expect(bad).toEqual([]);
  }, 120_000);

  it('a flag\'s default reads one way everywhere, "(default 8787)": never commander\'s quoted (default: "8787")', async () => {
    const quoted: string[] = [];
    for (const argv of await screens()) {
      const r = await render(argv);
      // A wrapped line may split "(default:" from its value: look at the words, not the lines.
      const text = r.stdout.replace(/\s+/g, ' ');
      for (const m of text.matchAll(/\(default: "[^"]*"\)/g)) quoted.push(`svc ${argv.join(' ')}: ${m[0]}`);
    }
    expect(quoted).toEqual([]);
    const sandbox = (await render(['sandbox', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(sandbox).toContain('0 picks a free one (default 8787)');
    expect(sandbox).toContain('(default 127.0.0.1)');
  }, 120_000);

  it('on an 80-column terminal too', async () => {
    const bad: string[] = [];
    for (const argv of await screens()) {
      const r = await render(argv, WIDTH);
      for (const l of overlong(r.stdout)) bad.push(`svc ${argv.join(' ')}: ${l.length}: ${l}`);
    }
    expect(bad).toEqual([]);
  }, 120_000);

  it('words are never split: the help at 80 has the same words as at 200', async () => {
    for (const argv of [['issues', 'search', '--help'], ['gate', '--help'], ['help', 'output'], ['help', 'environment'], ['help', 'exit-codes']]) {
      const narrow = (await render(argv, WIDTH)).stdout;
      const wide = (await render(argv, 200)).stdout;
      // A long example command continues after ` \` (still one command when pasted).
      // A long example command continues after ` \` (still one command when pasted), a comment after `# `.
      const words = (t: string) => t.split(/\s+/).filter((w) => w && w !== '\\' && w !== '#');
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

describe('help is fitted once, from paragraphs (issue 36.7)', () => {
  it('no help screen or topic, at 80 columns or at 200 (help is at most 100 wide), has a line a greedy fit would have filled', async () => {
    const bad: string[] = [];
    for (const argv of await screens()) {
      for (const [columns, width] of [[WIDTH, WIDTH], [200, 100]] as const) {
        const r = await render(argv, columns);
        for (const pair of underfilled(r.stdout, width)) bad.push(`svc ${argv.join(' ')} at ${columns}:\n${pair}`);
      }
    }
    expect(bad).toEqual([]);
  }, 120_000);

  it('one exit code a line, wherever help lists them', async () => {
    const bad: string[] = [];
    for (const argv of await screens()) {
      for (const columns of [WIDTH, 200]) for (const l of runTogether((await render(argv, columns)).stdout)) bad.push(`svc ${argv.join(' ')} at ${columns}: ${l}`);
    }
    expect(bad).toEqual([]);
    const gate = (await render(['gate', '--help'], WIDTH)).stdout;
    for (const code of [0, 1, 2, 3, 4, 6, 7, 8, 9, 130]) expect(gate).toMatch(new RegExp(`\\n {2,4}${code}  \\S`));
    const auth = (await render(['auth', 'status', '--help'], WIDTH)).stdout;
    for (const code of [0, 2, 3, 4, 6]) expect(auth).toMatch(new RegExp(`\\n  ${code}  \\S`));
  }, 120_000);

  it('the checks see what was wrong: a paragraph wrapped by hand and fitted again, a list run together', () => {
    const twice = fitText(['A flag replaces only its own setting of the file. Ignored issues are not counted and are listed as', 'suppressed (SARIF suppressions with the reason); an expired entry is reported and counts again.'].join('\n'), 80);
    expect(underfilled(twice, 80)).not.toEqual([]);
    expect(underfilled(fitText('A flag replaces only its own setting of the file. Ignored issues are not counted and are listed as suppressed (SARIF suppressions with the reason); an expired entry is reported and counts again.', 80), 80)).toEqual([]);
    expect(runTogether('  0  passed                1  a threshold was broken, or the scan failed')).toHaveLength(1);
    expect(runTogether('  0  passed\n  1  a threshold was broken')).toEqual([]);
  });

  it('a comment in an example goes on as a comment: the block still pastes into a shell', () => {
    const fitted = fitText("  # A pull request on what it adds: gate on issues not in the main branch's last report", 60);
    expect(fitted.split('\n').every((l) => /^  # /.test(l))).toBe(true);
    expect(fitted.replace(/\n {2}# /g, ' ')).toBe("  # A pull request on what it adds: gate on issues not in the main branch's last report");
  });

  it('a row whose term is too wide for its description puts the description below it', () => {
    const fitted = fitText(`  ${'SYSTEM_PULLREQUEST_PULLREQUESTNUMBER, SYSTEM_PULLREQUEST_PULLREQUESTID'}  The number (id) of the pull request being built (the first that is set)`, 80).split('\n');
    expect(fitted[0]).toBe('  SYSTEM_PULLREQUEST_PULLREQUESTNUMBER, SYSTEM_PULLREQUEST_PULLREQUESTID');
    expect(fitted.slice(1).every((l) => l.startsWith('      ') && l.length <= 80)).toBe(true);
  });
});
