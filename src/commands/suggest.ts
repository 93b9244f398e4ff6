/**
 * "Did you mean": what a mistyped flag or operation most likely meant. A flag is matched by its words
 * (`--repo` is a word of `--repository-ids` once `repo` is read as `repository`), by the synonyms users
 * bring from other tools (`--status` means `--types`, `--sort` means `--sort-by`), and only then by
 * spelling (edit distance), which is all commander does (`--sort` -> `--org`).
 */
import type { Command } from 'commander';
import { GROUPS } from '../operations/groups.js';
import { editDistance } from '../core/edit-distance.js';

/**
 * The synonym tables, made when a suggestion is first needed: a call with nothing to suggest does not
 * build them (tables of many keys cost ~0.7 M instructions to make the first time, a call's 0.3%).
 */
let made: ReturnType<typeof makeTables> | undefined;
const tables = () => (made ??= makeTables());

function makeTables() {
  return {
    /** Commands whose next word is an operation: the API groups, auth and config. */
    HAS_OPERATIONS: new Set([...GROUPS.map((g) => g.name), 'auth', 'config']),
    /** Whole flags that mean another flag of svc. The first candidate that a command has wins. */
    FLAG_SYNONYMS: {
      status: ['types'], state: ['types'], statuses: ['types'], type: ['types'],
      sort: ['sort-by'], order: ['sort-order'], 'order-by': ['sort-by'],
      severity: ['severities-min', 'fail-on'], 'min-severity': ['severities-min', 'fail-on'], 'max-severity': ['severities-max'],
      levels: ['level', 'fail-on'],
      level: ['fail-on', 'severities-min'], threshold: ['fail-on'],
      repo: ['repository-ids', 'repository-id'], repos: ['repository-ids'], repository: ['repository-ids', 'repository-id'], repositories: ['repository-ids'],
      organization: ['org', 'organization-id'], organisation: ['org', 'organization-id'], 'org-id': ['org', 'organization-id'],
      query: ['search-query'], q: ['search-query'], search: ['search-query'], filter: ['search-query'],
      limit: ['page-size'], 'per-page': ['page-size'], size: ['page-size'],
      format: ['output'], out: ['output'],
      lang: ['languages'], language: ['languages'],
      cwe: ['vulnerability-classes'], class: ['vulnerability-classes'], classes: ['vulnerability-classes'],
      rule: ['rule-id'], scan: ['scan-id'], project: ['project-id'], branch: ['default-scan-target-branch'],
      token: ['token-id'], secret: ['with-secret-stdin'], force: ['yes'],
    } as Record<string, string[]>,
    /** Words that stand for other words inside a flag name. */
    WORD_SYNONYMS: {
      repo: ['repository'], repos: ['repository'], org: ['organization'], organisation: ['organization'],
      vuln: ['vulnerability'], vulns: ['vulnerability'], sev: ['severity'], lang: ['language'],
      id: ['ids'], max: ['max'], min: ['min'], pr: ['pr'], msg: ['message'], desc: ['description'],
    } as Record<string, string[]>,
    /** Operations users reach for under other names (gh, aws, kubectl habits). */
    OPERATION_SYNONYMS: {
      list: ['search', 'list'], ls: ['list', 'search'], find: ['search'], query: ['search'],
      show: ['get'], view: ['get'], describe: ['get'], info: ['get'],
      rm: ['delete'], remove: ['delete'], del: ['delete'], create: ['add', 'create'], new: ['add', 'create'],
      run: ['start'], scan: ['start'], status: ['get', 'get-schedule'],
    } as Record<string, string[]>,
    /** Words typed at the top level that are a built-in's subcommand (gh, npm and docker habits). */
    SUBCOMMANDS_AT_TOP: {
      login: 'auth login', logout: 'auth logout', signin: 'auth login', 'sign-in': 'auth login', whoami: 'auth status', status: 'auth status', token: 'auth token',
      set: 'config set', get: 'config get', unset: 'config unset',
    } as Record<string, string>,
  };
}

/**
 * What a flag means by the value it was given: `--severity high` names a level (critical, high,
 * medium, low, info), which is --level (the gate: --fail-on); `--severity 7` the 0-10 severity.
 */
const LEVEL_WORDS = /^(critical|high|medium|low|info)$/i;
function byValue(name: string, value: string | undefined): string[] {
  if (value === undefined || !/severity|sev/.test(name)) return [];
  return LEVEL_WORDS.test(value) ? ['level', 'fail-on'] : /^\d+(\.\d+)?$/.test(value) ? ['severities-min', 'severities-max'] : [];
}

/** `severities` and `severity`, `classes` and `class`: one stem. */
function stem(word: string): string {
  return word.replace(/ies$/, 'y').replace(/(ss|sh|ch|x)es$/, '$1').replace(/([^s])s$/, '$1');
}

function wordsOf(flag: string): string[] {
  return flag.replace(/^-+/, '').toLowerCase().split(/[-_.]/).filter(Boolean);
}

/** Does a typed word name this word of a flag: the same stem, a synonym, or a prefix of 3+ letters? */
function wordMatches(typed: string, word: string): boolean {
  const forms = [typed, ...(tables().WORD_SYNONYMS[typed] ?? [])];
  return forms.some((f) => stem(f) === stem(word) || (f.length >= 3 && word.startsWith(f)) || (f.length >= 4 && editDistance(stem(f), stem(word)) <= 1));
}

/** Close by spelling: at most a third of the longer name wrong (commander's rule, without its 0.4 similarity floor). */
function closeBySpelling(typed: string, candidate: string): number | undefined {
  const distance = editDistance(typed, candidate);
  return distance <= Math.max(1, Math.floor(Math.max(typed.length, candidate.length) / 3)) ? distance : undefined;
}

/**
 * The flags (with dashes) a mistyped `--flag` most likely meant, best first, at most `max`.
 * `candidates` are the long flags the command accepts, its own first; `value`, what followed it.
 */
export function suggestFlags(typed: string, candidates: readonly string[], max = 2, value?: string): string[] {
  const name = typed.replace(/^-+/, '').split('=')[0].toLowerCase();
  const plain = candidates.map((c) => c.replace(/^-+/, ''));
  const found: string[] = [];
  const add = (flag: string) => { if (!found.includes(flag) && found.length < max) found.push(flag); };
  // 1. What the value says the flag means, then a known synonym the command has.
  for (const s of byValue(name, typed.includes('=') ? typed.slice(typed.indexOf('=') + 1) : value)) if (plain.includes(s)) add(s);
  for (const s of tables().FLAG_SYNONYMS[name] ?? []) if (plain.includes(s)) add(s);
  // 2. Every typed word names a word of the flag; fewer other words first.
  const typedWords = wordsOf(name);
  const byWords = plain
    .filter((c) => !c.startsWith('no-') && typedWords.every((t) => wordsOf(c).some((w) => wordMatches(t, w))))
    .sort((a, b) => wordsOf(a).length - wordsOf(b).length);
  byWords.forEach(add);
  // 3. Spelling.
  if (found.length === 0) {
    plain
      .map((c) => [c, closeBySpelling(name, c)] as const)
      .filter((x): x is readonly [string, number] => x[1] !== undefined)
      .sort((a, b) => a[1] - b[1])
      .forEach(([c]) => add(c));
  }
  return found.map((f) => `--${f}`);
}

/** The operations (or commands) a mistyped name most likely meant, best first. */
export function suggestCommands(typed: string, candidates: readonly string[], max = 2): string[] {
  const name = typed.toLowerCase();
  const found: string[] = [];
  const add = (c: string) => { if (!found.includes(c) && found.length < max) found.push(c); };
  for (const s of tables().OPERATION_SYNONYMS[name] ?? []) if (candidates.includes(s)) add(s);
  // A mistyped synonym (`lst`) still means what the synonym means.
  for (const [word, targets] of Object.entries(tables().OPERATION_SYNONYMS)) {
    if (word.length >= 3 && word !== name && closeBySpelling(name, word) !== undefined) targets.filter((t) => candidates.includes(t)).forEach(add);
  }
  candidates
    .map((c) => [c, closeBySpelling(name, c.toLowerCase())] as const)
    .filter((x): x is readonly [string, number] => x[1] !== undefined)
    .sort((a, b) => a[1] - b[1])
    .forEach(([c]) => add(c));
  if (found.length === 0) {
    // A word of a kebab-case name: `svc repos pr-scanning` -> set-pr-scanning.
    candidates.filter((c) => name.length >= 3 && c.toLowerCase().includes(name)).forEach(add);
  }
  return found;
}

/** `svc issues search`: the command's path from the root, canonical names. */
function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/**
 * Commander's own unknown-option and unknown-command errors, said again with these suggestions:
 * commander's pick is by spelling only, and names neither the command nor where its help is.
 * `message` is commander's (without its suggestion: showSuggestionAfterError is off), `cmd` the
 * command it was raised on; any other message is returned as it is.
 */
export function explainCommanderError(message: string, cmd: Command): string {
  const option = /^error: unknown option '([^']*)'/.exec(message);
  if (option) return unknownOption(cmd, option[1]);
  const command = /^error: unknown command '([^']*)'/.exec(message);
  if (command) return unknownCommand(cmd, command[1]);
  return message;
}

function unknownOption(cmd: Command, flag: string): string {
  const candidates: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) {
    for (const o of c.createHelp().visibleOptions(c)) if (o.long) candidates.push(o.long);
  }
  // The word after the flag, when it is no flag itself: `--severity high` says what was meant.
  const at = cmd.args.indexOf(flag);
  const next = at >= 0 ? cmd.args[at + 1] : undefined;
  const s = flag.startsWith('--') ? suggestFlags(flag, candidates, 2, next !== undefined && !next.startsWith('-') ? next : undefined) : [];
  const path = commandPath(cmd);
  return `unknown option '${flag}' for '${path}'${s.length ? ` (did you mean ${s.join(' or ')}?)` : ''}; see '${path} --help'`;
}

function unknownCommand(cmd: Command, typed: string): string {
  const owner = new Map<string, Command>();
  for (const c of cmd.createHelp().visibleCommands(cmd)) for (const n of [c.name(), ...c.aliases()]) owner.set(n, c);
  const path = commandPath(cmd);
  // One name per command: the spelling closest to what was typed (`issuesBySeverity`, not also its kebab-case name).
  const picked = new Set<Command>();
  const s: string[] = [];
  // A group and its operation typed as one word (`svc issues-search`, `svc repos.list`): the
  // group's command, canonical name, and the rest as the operation (whose own check follows).
  const joined = cmd.parent === null ? /^([a-z]+)[-_.:/]([a-z][a-z0-9-]*)$/i.exec(typed) : null;
  const group = joined && owner.get(joined[1].toLowerCase());
  if (joined && group && tables().HAS_OPERATIONS.has(group.name())) {
    s.push(`'${path} ${group.name()} ${joined[2].toLowerCase()}'`);
    picked.add(group);
  }
  s.push(...suggestCommands(typed, [...owner.keys()], 4)
    .filter((n) => !picked.has(owner.get(n)!) && picked.add(owner.get(n)!))
    .slice(0, 2 - s.length)
    .map((n) => `'${path} ${n}'`));
  // A built-in's subcommand typed at the top (`svc login`): the command it lives under.
  if (cmd.parent === null && tables().SUBCOMMANDS_AT_TOP[typed.toLowerCase()]) s.unshift(`'${path} ${tables().SUBCOMMANDS_AT_TOP[typed.toLowerCase()]}'`);
  const what = cmd.parent ? `unknown operation '${typed}' of '${path}'` : `unknown command '${typed}'`;
  return `${what}${s.length ? ` (did you mean ${s.join(' or ')}?)` : ''}; run '${path} --help' for ${cmd.parent ? 'its operations' : 'the commands'}`;
}
