/**
 * Every generated file checked into the repository: the three completion scripts, the command
 * reference and the help texts kept for review. `npm run docs` writes them; a test fails when one
 * differs from what this produces.
 */
import { Readable, Writable } from 'node:stream';
import type { Command } from 'commander';
import type { IO } from '../core/host.js';
import { buildProgram, loadEverything } from '../commands/program.js';
import { SHELLS } from '../completion/shells.js';
import { HELP_TOPICS } from '../commands/help-topics.js';
import { globalFlagsFooter } from '../commands/help-layout.js';
import { completionScript } from '../completion/generate.js';
import { answerChecksMarkdown } from './answer-checks.js';
import { fillMarkers } from './readme.js';

/** Width of the help text in the reference: the width svc uses when stdout is not a terminal. */
const REFERENCE_WIDTH = 100;

export const FILES = {
  bash: 'completions/svc.bash',
  zsh: 'completions/_svc',
  fish: 'completions/svc.fish',
  reference: 'docs/reference.md',
} as const;

/**
 * Help kept as files, so that a change of layout or of a group's list of operations shows in review:
 * name -> the command whose `--help` it is. test/e2e/help.test.ts checks that `svc <command> --help`
 * prints exactly the file.
 */
export const HELP_FILES: Readonly<Record<string, readonly string[]>> = {
  root: [],
  issues: ['issues'],
  'issues-search': ['issues', 'search'],
  'repos-delete': ['repos', 'delete'],
};
export const helpFile = (name: string) => `test/e2e/__snapshots__/help-${name}.txt`;

/** The full command tree, with stdout captured, as `svc completion` sees it. */
async function programFor(everything: boolean): Promise<{ program: Command; helpOf: (cmd: Command) => string }> {
  let captured = '';
  const sink = new Writable({ write(chunk, _enc, done) { captured += String(chunk); done(); } });
  const io: IO = { stdout: sink, stderr: sink, stdin: Readable.from([]), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false };
  const program = buildProgram(async () => {}, io, '0.0.0', () => {});
  if (everything) await loadEverything(program);
  const helpOf = (cmd: Command) => {
    captured = '';
    cmd.outputHelp();
    return captured;
  };
  return { program, helpOf };
}

/**
 * Blocks of hand-written files that are generated: file -> marker -> its text, between
 * `<!-- marker:start -->` and `<!-- marker:end -->`. `npm run docs` fills them; the same test fails
 * when one is stale.
 */
export function generatedBlocks(): Record<string, Record<string, string>> {
  return { 'docs/security.md': { 'answer-checks': answerChecksMarkdown() } };
}

/** `text` (the file at `path` as it is) with its generated blocks filled. */
export function withGeneratedBlocks(path: string, text: string): string {
  let out = text;
  for (const [marker, content] of Object.entries(generatedBlocks()[path] ?? {})) out = fillMarkers(out, marker, content);
  return out;
}

export async function generatedFiles(): Promise<Record<string, string>> {
  // `completion` loads every group and built-in; top-level help is what `svc --help` prints (none loaded).
  const full = await programFor(true);
  const top = await programFor(false);
  const out: Record<string, string> = {};
  for (const shell of SHELLS) out[FILES[shell]] = completionScript(shell, full.program);
  out[FILES.reference] = reference(full.program, full.helpOf, top.helpOf(top.program));
  for (const [name, path] of Object.entries(HELP_FILES)) {
    let cmd: Command | undefined = path.length ? full.program : top.program;
    for (const word of path) cmd = cmd?.commands.find((c) => c.name() === word);
    if (!cmd) throw new Error(`help file ${name}: no command 'svc ${path.join(' ')}'`);
    out[helpFile(name)] = (path.length ? full : top).helpOf(cmd);
  }
  return out;
}

const slug = (heading: string) => heading.toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-');

function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function visible(cmd: Command): Command[] {
  return cmd.createHelp().visibleCommands(cmd);
}

function reference(program: Command, helpOf: (cmd: Command) => string, topHelp: string): string {
  const footer = globalFlagsFooter(REFERENCE_WIDTH);
  const block = (text: string) => ['```text', text.replace(footer, '').trimEnd(), '```', ''];
  const lines: string[] = [
    '# svc command reference', '',
    '<!-- Generated from the command table by `npm run docs`: do not edit. A test fails when this file is stale. -->', '',
    'Each section is exactly what `--help` prints for that command (at 100 columns, as in a pipe), without',
    'the closing line of global flags: they work with every command, see [global flags](#svc-help-global-flags).',
    'Help topics: ' + Object.keys(HELP_TOPICS).map((t) => `[${t}](#svc-help-${t})`).join(', ') + '.', '',
    '## Contents', '',
    '- [svc](#svc): top-level help',
  ];
  for (const group of visible(program)) {
    const path = commandPath(group);
    const subs = visible(group);
    lines.push(`- [${path}](#${slug(path)}): ${group.description()}`);
    if (subs.length) lines.push(`  - ${subs.map((s) => `[${s.name()}](#${slug(commandPath(s))})`).join(', ')}`);
  }
  lines.push('', '## svc', '', ...block(topHelp));
  for (const [name, topic] of Object.entries(HELP_TOPICS)) {
    lines.push(`## svc help ${name}`, '', `${topic.summary}.`, '', ...block(topic.text()));
  }
  const walk = (cmd: Command, depth: number) => {
    const path = commandPath(cmd);
    lines.push(`${'#'.repeat(Math.min(depth, 4))} ${path}`, '', ...block(helpOf(cmd)));
    for (const sub of visible(cmd)) walk(sub, depth + 1);
  };
  for (const group of visible(program)) walk(group, 2);
  return lines.join('\n').trimEnd() + '\n';
}
