/**
 * Drive the real shells' completion non-interactively and return the candidates they would offer.
 * bash: COMP_* variables set as readline would, then the completion function; zsh: a zpty session
 * with compadd intercepted; fish: `complete -C`.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { tempDir } from './temp.js';

export const ROOT = resolve(__dirname, '../..');
export const SCRIPTS = { bash: join(ROOT, 'completions/svc.bash'), zsh: join(ROOT, 'completions/_svc'), fish: join(ROOT, 'completions/svc.fish') };
export type ShellName = keyof typeof SCRIPTS;

/** Whether a program is on PATH. */
export function has(program: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Shells are installed by .ci/run. Locally a missing shell skips its tests; in CI (CI set) it fails them.
 * Returns true when the tests should run.
 */
export function shellAvailable(program: string): boolean {
  if (has(program)) return true;
  if (process.env.CI) throw new Error(`${program} is not installed, but CI is set: .ci/run installs it (apt-get install ${program})`);
  return false;
}

export interface Sandbox {
  /** Working directory holding a few files and directories to complete. */
  cwd: string;
  env: Record<string, string>;
}

/** A `svc` on PATH (the built bin), a config with profiles, and files to complete. */
export function sandbox(profiles: string[] = ['default', 'staging', 'prod-eu']): Sandbox {
  const dir = tempDir('svc-compl-');
  const bin = join(dir, 'bin');
  const cfg = join(dir, 'cfg');
  const cwd = join(dir, 'work');
  for (const d of [bin, cfg, cwd, join(cwd, 'reports')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(bin, 'svc'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin/svc.js')}" "$@"\n`);
  chmodSync(join(bin, 'svc'), 0o755);
  writeFileSync(join(cfg, 'config.json'), JSON.stringify({ profiles: Object.fromEntries(profiles.map((p) => [p, {}])) }));
  for (const f of ['body.json', 'bulk.json', 'notes.txt']) writeFileSync(join(cwd, f), '{}');
  const env: Record<string, string> = {
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: dir,
    SVC_CONFIG_DIR: cfg,
    TERM: 'xterm',
    LANG: 'C.UTF-8',
  };
  return { cwd, env };
}

function run(cmd: string, args: string[], box: Sandbox, input?: string): string {
  const r = spawnSync(cmd, args, { cwd: box.cwd, env: box.env, input, encoding: 'utf8', timeout: 20_000 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${cmd} exited ${r.status}: ${r.stderr}`);
  return r.stdout;
}

/** Bash splits the line at white space and at runs of its COMP_WORDBREAKS characters (=, @, :). */
export function bashWords(line: string): string[] {
  const words: string[] = [...(line.match(/[=@:]+|[^\s=@:]+/g) ?? [])];
  if (line === '' || /[\s]$/.test(line)) words.push('');
  return words;
}

// Under set -u, as a user's interactive shell may be: an unset variable in the script ends bash.
const BASH_DRIVER = `
source "$1"
set -u
COMP_LINE=$2
COMP_POINT=\${#2}
shift 2
COMP_WORDS=("$@")
COMP_CWORD=$(($# - 1))
_svc
printf '%s\\n' "\${COMPREPLY[@]}"
`;

export function bashComplete(line: string, box: Sandbox): string[] {
  const out = run('bash', ['--norc', '--noprofile', '-c', BASH_DRIVER, 'bash', SCRIPTS.bash, line, ...bashWords(line)], box);
  return out.split('\n').filter((l) => l !== '');
}

const ZSH_SESSION = `
PS1=''
if [[ -n $SVC_FPATH ]]; then
  fpath=("$SVC_FPATH" $fpath)
fi
autoload -Uz compinit
compinit -u -d "$SVC_ZCOMPDUMP"
if [[ -z $SVC_FPATH ]]; then
  source "$SVC_COMPLETION"
fi
typeset -aU completions
compadd() {
  if (( \${@[(I)-[OAD]*]} )); then
    builtin compadd "$@"
    return
  fi
  local -a added
  builtin compadd -A added "$@"
  completions+=("\${added[@]}")
  builtin compadd "$@"
}
capture() {
  unset 'compstate[vared]'
  completions=()
  _main_complete
  print -rn -- $'\\x02'
  print -rnl -- "\${completions[@]}"
  print -rn -- $'\\x03'
}
zle -C capture complete-word capture
bindkey '^I' capture
print -rn -- READY
vared -c line
`;

const ZSH_DRIVER = `
zmodload zsh/zpty
zpty session zsh -f "$1"
zpty -r session ready '*READY' || exit 3
zpty -w -n session "$2"$'\\t'
zpty -r session out $'*\\x03' || exit 4
zpty -d session
print -rn -- "$out"
`;

/** `fpath`: load the script as compinit autoloads it from $fpath, instead of sourcing it. */
export function zshComplete(line: string, box: Sandbox, opts: { fpath?: boolean } = {}): string[] {
  const session = join(box.cwd, '..', 'session.zsh');
  writeFileSync(session, ZSH_SESSION);
  // compinit keeps its dump in the box, as a user's ~/.zcompdump: scanning $fpath without one takes ~1 s per call.
  const extra: Record<string, string> = { SVC_COMPLETION: SCRIPTS.zsh, SVC_ZCOMPDUMP: join(box.cwd, '..', opts.fpath ? 'zcompdump-fpath' : 'zcompdump') };
  if (opts.fpath) extra.SVC_FPATH = dirname(SCRIPTS.zsh);
  const out = run('zsh', ['-f', '-c', ZSH_DRIVER, 'zsh', session, line], { ...box, env: { ...box.env, ...extra } });
  const start = out.lastIndexOf('\x02');
  const end = out.lastIndexOf('\x03');
  if (start < 0 || end < start) throw new Error(`zsh printed no completions: ${JSON.stringify(out)}`);
  return out.slice(start + 1, end).split(/\r?\n/).filter((l) => l !== '');
}

export function fishComplete(line: string, box: Sandbox): string[] {
  const out = run('fish', ['--no-config', '-c', 'source $argv[1]; complete -C $argv[2]', SCRIPTS.fish, line], box);
  return out.split('\n').filter((l) => l !== '').map((l) => l.split('\t')[0]);
}

export const complete: Record<ShellName, (line: string, box: Sandbox) => string[]> = {
  bash: bashComplete,
  zsh: zshComplete,
  fish: fishComplete,
};
