/**
 * Annotations within the CI's limits across the steps of a job, in-process against the sandbox with
 * the variables real runners set: GitHub Actions (10 errors, 10 warnings, 10 notices per step, 50 per
 * job, counted across steps in RUNNER_TEMP) and Azure Pipelines (`##vso[task.logissue]`, 10 errors
 * and 10 warnings per step).
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestSandbox, useSandbox } from '../../../helpers/sandbox.js';
import { runCli } from '../../../helpers/host.js';
import { tempDir } from '../../../helpers/temp.js';

const sb = useSandbox({ issues: 200, repos: 3 });

/** The variables GitHub Actions sets for one step of one job. */
function hostA(runnerTemp: string, step: string) {
  return {
    ...sb.env, CI: 'true', GITHUB_ACTIONS: 'true', RUNNER_TEMP: runnerTemp,
    GITHUB_RUN_ID: '7100000001', GITHUB_RUN_ATTEMPT: '1', GITHUB_JOB: 'gate', GITHUB_ACTION: step,
  };
}

const kinds = (stdout: string) => {
  const lines = stdout.split('\n');
  return {
    error: lines.filter((l) => l.startsWith('::error ')),
    warning: lines.filter((l) => l.startsWith('::warning ')),
    notice: lines.filter((l) => l.startsWith('::notice ')),
    plain: lines.filter((l) => l.startsWith('svc gate: ') && l.includes('not shown')),
  };
};

describe("GitHub Actions: 50 annotations per job, across steps", () => {
  it('each step gets what the job has left; the last says how many it left out; the verdict never changes', async () => {
    const runnerTemp = tempDir();
    const cwd = tempDir();
    const gate = ['gate', '--fail-on', 'high'];

    const first = await runCli(gate, { env: hostA(runnerTemp, '__run'), cwd });
    expect(first.code, first.stderr).toBe(1);
    const a = kinds(first.stdout);
    expect([a.error.length, a.warning.length, a.notice.length]).toEqual([10, 10, 10]);
    expect(a.notice.at(-1)).toMatch(/^::notice title=svc gate::\d+ more issue annotations not shown \(the runner shows at most 10 errors and 10 warnings per step, 50 per job; the most severe are shown\)/);
    // The count is kept in the runner's temporary directory, named after the run, the attempt and the job.
    expect(readdirSync(runnerTemp)).toEqual(['svc-annotations-7100000001-1-gate.json']);

    // Another step of the same job: 20 places are left (one of them the note).
    const second = await runCli(gate, { env: hostA(runnerTemp, '__run_2'), cwd });
    expect(second.code).toBe(1);
    const b = kinds(second.stdout);
    expect(b.error.length + b.warning.length + b.notice.length).toBe(20);
    expect(b.error).toHaveLength(10);
    expect(b.notice.at(-1)).toContain('earlier steps of this job printed 30');

    // A third step: nothing is left, so no annotation, and a plain line says what was left out.
    const third = await runCli(gate, { env: hostA(runnerTemp, '__run_3'), cwd });
    expect(third.code).toBe(1);
    const c = kinds(third.stdout);
    expect([c.error.length, c.warning.length, c.notice.length]).toEqual([0, 0, 0]);
    expect(c.plain).toHaveLength(1);
    expect(c.plain[0]).toContain('earlier steps of this job printed 50');
    const total = Number(/([\d,]+) open issues? in scope/.exec(third.stdout)![1].replace(/,/g, ''));
    expect(c.plain[0]).toContain(`svc gate: ${total} more issue annotation`);

    // Another job (or a re-run attempt) starts from nothing.
    const rerun = await runCli(gate, { env: { ...hostA(runnerTemp, '__run'), GITHUB_RUN_ATTEMPT: '2' }, cwd });
    expect(kinds(rerun.stdout).error).toHaveLength(10);
  });

  it('two runs in one step share the per-step limits', async () => {
    const runnerTemp = tempDir();
    const cwd = tempDir();
    const one = kinds((await runCli(['gate', '--fail-on', 'high'], { env: hostA(runnerTemp, 'gate-step'), cwd })).stdout);
    expect(one.error).toHaveLength(10);
    const two = kinds((await runCli(['gate', '--fail-on', 'high'], { env: hostA(runnerTemp, 'gate-step'), cwd })).stdout);
    // The step has shown its 10 errors, 10 warnings and 10 notices: nothing more would show.
    expect([two.error.length, two.warning.length, two.notice.length]).toEqual([0, 0, 0]);
    expect(two.plain).toHaveLength(1);
  });

  it('fails soft: an unreadable count is nothing used, an unwritable directory changes nothing', async () => {
    const runnerTemp = tempDir();
    const cwd = tempDir();
    writeFileSync(join(runnerTemp, 'svc-annotations-7100000001-1-gate.json'), '{not json');
    const garbled = await runCli(['gate', '--fail-on', 'high'], { env: hostA(runnerTemp, '__run'), cwd });
    expect(garbled.code, garbled.stderr).toBe(1);
    expect(kinds(garbled.stdout).error).toHaveLength(10);
    // RUNNER_TEMP naming a file: nothing can be written there; same output, same exit code, no stack.
    const notADir = join(tempDir(), 'file');
    writeFileSync(notADir, '');
    const r = await runCli(['gate', '--fail-on', 'high'], { env: hostA(notADir, '__run'), cwd });
    expect(r.code).toBe(1);
    expect(kinds(r.stdout).error).toHaveLength(10);
    expect(r.stderr).not.toMatch(/ENOTDIR|at .*\.ts:\d+/);
    // Without the run's variables there is no ledger: only the per-step limits.
    const env = { ...sb.env, CI: 'true', GITHUB_ACTIONS: 'true' };
    const plain = await runCli(['gate', '--fail-on', 'high'], { env, cwd });
    expect(kinds(plain.stdout).error).toHaveLength(10);
    expect(existsSync(join(cwd, 'svc-annotations-undefined-1-undefined.json'))).toBe(false);
  });
});

describe('Azure Pipelines: ##vso[task.logissue]', () => {
  const azure = { CI: 'true', TF_BUILD: 'True', BUILD_REPOSITORY_URI: 'https://dev.azure.com/acme/app/_git/app', BUILD_SOURCEVERSION: 'b'.repeat(40) };

  it('prints 10 errors and 10 warnings as logging commands, then one warning naming the rest', async () => {
    const cwd = tempDir();
    const r = await runCli(['gate', '--fail-on', 'high'], { env: { ...sb.env, ...azure }, cwd });
    expect(r.code, r.stderr).toBe(1);
    const lines = r.stdout.split('\n');
    const issues = lines.filter((l) => l.startsWith('##vso[task.logissue '));
    const errors = issues.filter((l) => l.startsWith('##vso[task.logissue type=error;'));
    const warnings = issues.filter((l) => l.startsWith('##vso[task.logissue type=warning;'));
    expect(errors).toHaveLength(10);
    expect(warnings).toHaveLength(10);  // 9 issues and the note
    expect(lines.some((l) => l.startsWith('::'))).toBe(false);
    expect(errors[0]).toMatch(/^##vso\[task\.logissue type=error;sourcepath=[^;\]]+;linenumber=\d+;(columnnumber=\d+;)?code=[^;\]]+\]\[(critical|high)\] /);
    expect(warnings.at(-1)).toMatch(/^##vso\[task\.logissue type=warning;code=svc-gate\]\d+ more issue annotations not shown \(the agent keeps at most 10 errors and 10 warnings per step as issues, and has no notices; the most severe are shown\)/);
    // Azure folds with ##[group], never host A's syntax.
    expect(r.stdout).not.toContain('::group::');
  });

  it("a title from the service cannot be a logging command in the summary or the annotations", async () => {
    // A sandbox of its own: its answers are cached once read, so the title is set before any call.
    const own = await startTestSandbox({ issues: 200, repos: 2 });
    try {
      const target = own.state.issues.filter((i) => i.status === 'open').sort((a, b) => (b.score ?? 0) - (a.score ?? 0))[0];
      target.generatedTitle = 'x ##vso[task.setvariable variable=SVC_OWNED]1 ]; %';
      const r = await runCli(['gate', '--fail-on', 'critical'], { env: { ...own.env, ...azure }, cwd: tempDir() });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain('x ##vso\\u005btask.setvariable');
      for (const line of r.stdout.split('\n')) expect(line.slice(1)).not.toContain('##vso[');
    } finally {
      await own.close();
    }
  });

  it("with host A's runner variables too, a file name from the service is no logging command in host A's annotations either", async () => {
    const own = await startTestSandbox({ issues: 200, repos: 2 });
    try {
      const target = own.state.issues.filter((i) => i.status === 'open').sort((a, b) => (b.score ?? 0) - (a.score ?? 0))[0];
      target.affectedFile = 'src/##vso[task.setvariable variable=x]1.js';
      const r = await runCli(['gate', '--fail-on', 'critical'], { env: { ...own.env, ...azure, GITHUB_ACTIONS: 'true' }, cwd: tempDir() });
      expect(r.code, r.stderr).toBe(1);
      const annotation = r.stdout.split('\n').find((l) => /^(::|##vso\[)/.test(l) && l.includes('setvariable'));
      expect(annotation).toMatch(/^(::error file=|##vso\[task\.logissue type=error;sourcepath=)src\/##vso\\u005btask\.setvariable variable=x/);
      for (const line of r.stdout.split('\n')) expect(line.slice(1)).not.toMatch(/##vso\[/i);
    } finally {
      await own.close();
    }
  });
});
