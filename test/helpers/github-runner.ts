/**
 * A GitHub Actions job as its runner runs it, for the example workflows: the steps in order, each
 * `if:` evaluated (implicitly `success() && …`), `${{ }}` expanded in `env:`, `with:` and `run:`,
 * `run:` steps in `bash --noprofile --norc -eo pipefail`, the svc action run as the runner runs a
 * `node24` action: `node <action>/<runs.main>` with each input (or its default) as INPUT_<NAME>,
 * the workspace as the working directory, and its outputs read back from GITHUB_OUTPUT. The other
 * actions (checkout, cache, the SARIF upload) are played: the workspace is the checkout, the cache
 * is a folder of the test's.
 *
 * The environment of every step is what the runner sets (GitHub's "Default environment variables",
 * nothing more) plus the workflow's, the job's and the step's `env:`; PATH starts with a folder of
 * recorders for npm, npx, yarn, pnpm, corepack and node, so a step that runs any of them is seen.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runProgram, type RunResult } from './run-svc.js';

// ----- expressions: the subset of GitHub's expression syntax the examples use, evaluated as GitHub does

type Value = string | number | boolean | null | Record<string, unknown> | unknown[];
export interface ExprContext {
  contexts: Record<string, unknown>;
  /** The job so far: a step failed. */
  failed: boolean;
  /** hashFiles: '' when no file matches. */
  workspace: string;
}

const truthy = (v: unknown) => !(v === false || v === 0 || v === '' || v === null || v === undefined || Number.isNaN(v));
const num = (v: unknown) => (v === null || v === undefined ? 0 : v === true ? 1 : v === false ? 0 : v === '' ? 0 : Number(v));
/** ==: strings case-insensitively; other types compared as numbers (GitHub's coercion). */
function equal(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  if (typeof a === typeof b && (typeof a === 'object')) return a === b;
  return num(a) === num(b);
}
export function asText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

export function evaluate(source: string, ctx: ExprContext): Value {
  const tokens = [...source.matchAll(/\s*('(?:[^']|'')*'|==|!=|&&|\|\||[()!,[\]]|[A-Za-z_][\w-]*|\d+(?:\.\d+)?|\.|\S)/g)].map((m) => m[1]);
  let at = 0;
  const peek = () => tokens[at];
  const take = (t?: string) => {
    const got = tokens[at++];
    if (t !== undefined && got !== t) throw new Error(`expression ${source}: expected ${t}, got ${got}`);
    return got;
  };
  const or = (): Value => {
    let v = and();
    while (peek() === '||') { take(); const r = and(); v = truthy(v) ? v : r; }
    return v;
  };
  const and = (): Value => {
    let v = eq();
    while (peek() === '&&') { take(); const r = eq(); v = truthy(v) ? r : v; }
    return v;
  };
  const eq = (): Value => {
    let v = unary();
    while (peek() === '==' || peek() === '!=') { const op = take(); const r = unary(); v = op === '==' ? equal(v, r) : !equal(v, r); }
    return v;
  };
  const unary = (): Value => (peek() === '!' ? (take(), !truthy(unary())) : primary());
  const primary = (): Value => {
    const t = take();
    if (t === undefined) throw new Error(`expression ${source}: ends too early`);
    if (t === '(') { const v = or(); take(')'); return v; }
    if (t.startsWith("'")) return t.slice(1, -1).replace(/''/g, "'");
    if (/^\d/.test(t)) return Number(t);
    if (t === 'true' || t === 'false') return t === 'true';
    if (t === 'null') return null;
    if (!/^[A-Za-z_]/.test(t)) throw new Error(`expression ${source}: unexpected ${t}`);
    if (peek() === '(') {
      take('(');
      const args: Value[] = [];
      while (peek() !== ')') { args.push(or()); if (peek() === ',') take(','); }
      take(')');
      return call(t, args);
    }
    let v: unknown = ctx.contexts[t];
    if (!(t in ctx.contexts)) throw new Error(`expression ${source}: the test has no context ${t}`);
    for (;;) {
      if (peek() === '.') { take(); const key = take(); v = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined; } else if (peek() === '[') { take(); const key = asText(or()); take(']'); v = v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined; } else break;
    }
    return (v ?? null) as Value;
  };
  const call = (name: string, args: Value[]): Value => {
    switch (name) {
      case 'always': return true;
      case 'success': return !ctx.failed;
      case 'failure': return ctx.failed;
      case 'hashFiles': return args.some((p) => existsSync(join(ctx.workspace, asText(p)))) ? 'h' : '';
      // format('refs/pull/{0}/head', 7): {N} the Nth argument, {{ and }} literal braces.
      case 'format': return asText(args[0]).replace(/\{\{|\}\}|\{(\d+)\}/g, (m, n?: string) => (n === undefined ? m[0] : asText(args[Number(n) + 1])));
      default: throw new Error(`expression ${source}: the test cannot evaluate ${name}()`);
    }
  };
  const value = or();
  if (at !== tokens.length) throw new Error(`expression ${source}: unexpected ${tokens[at]}`);
  return value;
}

/** A step's `if:` (with or without `${{ }}`): success() && … unless it names a status function. */
export function condition(text: string | undefined, ctx: ExprContext): boolean {
  if (text === undefined) return !ctx.failed;
  const expr = text.trim().replace(/^\$\{\{\s*([\s\S]*?)\s*\}\}$/, '$1');
  const value = truthy(evaluate(expr, ctx));
  return /\b(always|success|failure|cancelled)\(/.test(expr) ? value : value && !ctx.failed;
}

export function interpolate(text: unknown, ctx: ExprContext): string {
  return String(text).replace(/\$\{\{\s*([\s\S]*?)\s*\}\}/g, (_m, e: string) => asText(evaluate(e, ctx)));
}

// ----- the runner

/** What GitHub's "Default environment variables" list, for one job run (GITHUB_OUTPUT per step). */
export interface RunnerOptions {
  workspace: string;
  runnerTemp: string;
  event: 'push' | 'pull_request' | 'merge_group';
  eventPayload: Record<string, unknown>;
  serverUrl: string;
  /** GITHUB_API_URL (default: the server's, as on Enterprise Server). */
  apiUrl?: string;
  repository: string;
  repositoryId: string;
  sha: string;
  ref: string;
  baseRef?: string;
  headRef?: string;
  actor: string;
  runId: number;
  job: string;
  workflow: string;
  home: string;
  /** A folder of its own on PATH (before the system's): the recorders of package managers and node. */
  recorders: string;
}

export function runnerEnvironment(o: RunnerOptions, step: { action: string; outputFile: string; actionRepository?: string }): Record<string, string> {
  const eventPath = join(o.runnerTemp, '_github_workflow', 'event.json');
  mkdirSync(join(o.runnerTemp, '_github_workflow'), { recursive: true });
  writeFileSync(eventPath, JSON.stringify(o.eventPayload));
  const [owner] = o.repository.split('/');
  const refName = o.event === 'pull_request' ? o.ref.replace(/^refs\/pull\/(\d+)\/merge$/, '$1/merge') : o.ref.replace(/^refs\/heads\//, '');
  return {
    PATH: `${o.recorders}:/usr/local/bin:/usr/bin:/bin`,
    HOME: o.home,
    CI: 'true',
    GITHUB_ACTION: step.action,
    GITHUB_ACTION_REPOSITORY: step.actionRepository ?? '',
    GITHUB_ACTIONS: 'true',
    GITHUB_ACTOR: o.actor,
    GITHUB_ACTOR_ID: '1001',
    GITHUB_API_URL: o.apiUrl ?? `${o.serverUrl}/api/v3`,
    GITHUB_BASE_REF: o.baseRef ?? '',
    GITHUB_ENV: join(o.runnerTemp, '_runner_file_commands', 'set_env'),
    GITHUB_EVENT_NAME: o.event,
    GITHUB_EVENT_PATH: eventPath,
    GITHUB_GRAPHQL_URL: `${o.serverUrl}/api/graphql`,
    GITHUB_HEAD_REF: o.headRef ?? '',
    GITHUB_JOB: o.job,
    GITHUB_OUTPUT: step.outputFile,
    GITHUB_PATH: join(o.runnerTemp, '_runner_file_commands', 'add_path'),
    GITHUB_REF: o.ref,
    GITHUB_REF_NAME: refName,
    GITHUB_REF_PROTECTED: o.event === 'push' ? 'true' : 'false',
    GITHUB_REF_TYPE: 'branch',
    GITHUB_REPOSITORY: o.repository,
    GITHUB_REPOSITORY_ID: o.repositoryId,
    GITHUB_REPOSITORY_OWNER: owner,
    GITHUB_REPOSITORY_OWNER_ID: '2002',
    GITHUB_RETENTION_DAYS: '90',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_RUN_ID: String(o.runId),
    GITHUB_RUN_NUMBER: String(o.runId),
    GITHUB_SERVER_URL: o.serverUrl,
    GITHUB_SHA: o.sha,
    GITHUB_STEP_SUMMARY: join(o.runnerTemp, '_runner_file_commands', 'step_summary'),
    GITHUB_TRIGGERING_ACTOR: o.actor,
    GITHUB_WORKFLOW: o.workflow,
    GITHUB_WORKFLOW_REF: `${o.repository}/.github/workflows/svc-gate.yml@${o.ref}`,
    GITHUB_WORKFLOW_SHA: o.sha,
    GITHUB_WORKSPACE: o.workspace,
    RUNNER_ARCH: 'X64',
    RUNNER_ENVIRONMENT: 'github-hosted',
    RUNNER_NAME: 'GitHub Actions 1',
    RUNNER_OS: 'Linux',
    RUNNER_TEMP: o.runnerTemp,
    RUNNER_TOOL_CACHE: join(o.home, 'hostedtoolcache'),
  };
}

/** The step summary file of the job (the runner keeps one per step and joins them; one file here). */
export const stepSummaryOf = (o: RunnerOptions) => join(o.runnerTemp, '_runner_file_commands', 'step_summary');

/** Recorders of package managers (and node, unless `node: false`): each call is logged to `calls` and fails. */
export function recorders(dir: string, o: { node?: boolean } = {}): { dir: string; calls: () => string[] } {
  mkdirSync(dir, { recursive: true });
  const log = join(dir, 'calls.log');
  writeFileSync(log, '');
  for (const name of ['npm', 'npx', 'yarn', 'pnpm', 'corepack', ...(o.node === false ? [] : ['node'])]) {
    writeFileSync(join(dir, name), `#!/bin/sh\necho "${name} $*" >> '${log}'\necho "${name} is not for this job" >&2\nexit 127\n`, { mode: 0o755 });
  }
  return { dir, calls: () => readFileSync(log, 'utf8').split('\n').filter(Boolean) };
}

/** The runner's output file: `name=value` lines and `name<<DELIMITER` … `DELIMITER` blocks. */
export function parseOutputFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i];
    if (line === '') continue;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2], i + 1);
      if (end < 0) throw new Error(`output file: ${heredoc[1]} has no closing ${heredoc[2]}`);
      out[heredoc[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else {
      const eq = line.indexOf('=');
      if (eq < 0) throw new Error(`output file: a line that is neither name=value nor name<<delimiter: ${line}`);
      out[line.slice(0, eq)] = line.slice(eq + 1);
    }
  }
  return out;
}

export interface Step { id?: string; name?: string; if?: string; uses?: string; run?: string; with?: Record<string, unknown>; env?: Record<string, unknown> }
export interface JobRun {
  failed: boolean;
  /** Each step that ran: its `uses:` or `run:`. */
  ran: string[];
  steps: Record<string, { outputs: Record<string, string>; conclusion: 'success' | 'failure' }>;
  stdout: string;
  stderr: string;
  /** Per run of the svc action: ms from the step's start to svc's first request (set by the caller's hook). */
  actionStarts: number[];
}

export interface Played {
  /** The address of the svc action (`uses:` value) and the folder the runner downloaded it to. */
  svcAction: string;
  actionDir: string;
  /** The cache's store (key -> file copy). */
  cacheDir: string;
  /** Called just before the svc action's process starts. */
  onActionStart?: () => void;
  secrets: Record<string, string>;
  vars: Record<string, string>;
  inputs?: Record<string, unknown>;
  timeoutMs?: number;
}

/** YAML text parsed once per text (each run's download holds the same action.yml), a copy for each caller. */
const parsedTexts = new Map<string, unknown>();
function parsedOnce(text: string): unknown {
  if (!parsedTexts.has(text)) parsedTexts.set(text, parse(text));
  return structuredClone(parsedTexts.get(text));
}

/** Runs the steps of `job` (the workflow's `env:` in `workflowEnv`). */
export async function runJob(job: { env?: Record<string, unknown>; steps: Step[] }, o: RunnerOptions, played: Played, workflowEnv: Record<string, unknown> = {}): Promise<JobRun> {
  const result: JobRun = { failed: false, ran: [], steps: {}, stdout: '', stderr: '', actionStarts: [] };
  const github = {
    event_name: o.event, event: o.eventPayload, repository: o.repository, sha: o.sha, ref: o.ref, token: 'ghs_token_of_the_run', workspace: o.workspace,
    server_url: o.serverUrl, actor: o.actor, base_ref: o.baseRef ?? '', head_ref: o.headRef ?? '', repository_owner: o.repository.split('/')[0],
  };
  const ctx: ExprContext = { failed: false, workspace: o.workspace, contexts: { github, secrets: played.secrets, vars: played.vars, inputs: played.inputs ?? {}, steps: {}, env: {}, runner: { os: 'Linux', temp: o.runnerTemp } } };
  const envOf = (env: Record<string, unknown> | undefined, base: Record<string, string>) => {
    const out = { ...base };
    for (const [k, v] of Object.entries(env ?? {})) out[k] = interpolate(v, { ...ctx, contexts: { ...ctx.contexts, env: out } });
    return out;
  };
  const jobEnv = envOf(job.env, envOf(workflowEnv, {}));
  let n = 0;
  for (const step of job.steps) {
    n += 1;
    ctx.contexts.env = jobEnv;
    if (!condition(step.if, ctx)) continue;
    const stepEnv = envOf(step.env, jobEnv);
    ctx.contexts.env = stepEnv;
    const outputFile = join(o.runnerTemp, '_runner_file_commands', `set_output_${n}`);
    mkdirSync(join(o.runnerTemp, '_runner_file_commands'), { recursive: true });
    writeFileSync(outputFile, '');
    const id = step.id ?? `__${step.uses ? step.uses.replace(/[^\w]/g, '_') : 'run'}_${n}`;
    const base = runnerEnvironment(o, { action: id, outputFile, actionRepository: step.uses?.split('@')[0] });
    let r: RunResult | undefined;
    if (step.run !== undefined) {
      result.ran.push(step.run);
      const file = join(o.runnerTemp, `step-${n}.sh`);
      writeFileSync(file, interpolate(step.run, ctx));
      r = await runProgram('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd: o.workspace, env: { ...base, ...stepEnv }, timeoutMs: played.timeoutMs ?? 90_000 });
    } else if (step.uses === played.svcAction) {
      result.ran.push(step.uses);
      const action = parsedOnce(readFileSync(join(played.actionDir, 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }>; runs: { using: string; main: string } };
      if (action.runs.using !== 'node24') throw new Error(`action.yml runs.using is ${action.runs.using}: the test plays node24 actions`);
      const given = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(v, ctx)]));
      for (const name of Object.keys(given)) if (!(name in action.inputs)) throw new Error(`the workflow gives the action an input it does not declare: ${name}`);
      const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, spec]) => [`INPUT_${name.replace(/ /g, '_').toUpperCase()}`, given[name] ?? spec.default ?? '']));
      played.onActionStart?.();
      r = await runProgram(process.execPath, [join(played.actionDir, action.runs.main)], { cwd: o.workspace, env: { ...base, ...stepEnv, ...inputs }, timeoutMs: played.timeoutMs ?? 90_000 });
    } else {
      result.ran.push(step.uses!);
      play(step, o, played, ctx, outputFile);
    }
    if (r) {
      result.stdout += r.stdout;
      result.stderr += r.stderr;
    }
    const failed = r !== undefined && r.code !== 0;
    const outputs = parseOutputFile(readFileSync(outputFile, 'utf8'));
    if (step.id) {
      result.steps[step.id] = { outputs, conclusion: failed ? 'failure' : 'success' };
      (ctx.contexts.steps as Record<string, unknown>)[step.id] = { outputs, conclusion: failed ? 'failure' : 'success', outcome: failed ? 'failure' : 'success' };
    }
    if (failed) ctx.failed = true;
  }
  result.failed = ctx.failed;
  return result;
}

/** checkout, cache restore/save and the SARIF upload, as far as the examples depend on them. */
function play(step: Step, o: RunnerOptions, played: Played, ctx: ExprContext, outputFile: string): void {
  const uses = step.uses!;
  const w = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, interpolate(v, ctx)]));
  if (/^actions\/checkout@/.test(uses)) return; // the workspace is the checkout (made by the test)
  if (/^actions\/cache\/save@/.test(uses)) {
    const key = w.key;
    if (existsSync(join(o.workspace, w.path))) cpSync(join(o.workspace, w.path), join(played.cacheDir, encodeURIComponent(key)));
    return;
  }
  if (/^actions\/cache\/restore@/.test(uses)) {
    const keys = [w.key, ...String(w['restore-keys'] ?? '').split('\n').map((k) => k.trim()).filter(Boolean)];
    const stored = existsSync(played.cacheDir) ? (readdirNames(played.cacheDir)) : [];
    const hit = keys.map((k, i) => stored.find((s) => (i === 0 ? s === k : s.startsWith(k)))).find((s) => s !== undefined);
    if (hit) cpSync(join(played.cacheDir, encodeURIComponent(hit)), join(o.workspace, w.path));
    writeFileSync(outputFile, `cache-hit=${hit === w.key}\n`);
    return;
  }
  if (/^github\/codeql-action\/upload-sarif@/.test(uses)) {
    if (!existsSync(join(o.workspace, w.sarif_file))) throw new Error(`upload-sarif: ${w.sarif_file} is not there`);
    // On a pull request the results' lines are the head's (svc judges the service's scan of the head),
    // not those of the merge commit the job checked out: uploaded for the head, or alerts point at
    // other lines. sha without ref (or ref without sha) is refused by the action.
    const pr = o.eventPayload.pull_request as { number: number; head: { sha: string } } | undefined;
    if (o.event === 'pull_request' && pr && (w.sha !== pr.head.sha || w.ref !== `refs/pull/${pr.number}/head`)) {
      throw new Error(`upload-sarif on a pull request: sha '${w.sha}' and ref '${w.ref}', not the head's (${pr.head.sha}, refs/pull/${pr.number}/head)`);
    }
    if ((w.sha === undefined) !== (w.ref === undefined)) throw new Error('upload-sarif: sha and ref go together');
    return;
  }
  throw new Error(`the test does not play ${uses}`);
}

const readdirNames = (dir: string) => readdirSync(dir).map((n) => decodeURIComponent(n));
