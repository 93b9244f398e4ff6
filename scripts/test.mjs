#!/usr/bin/env node
/**
 * `npm test`: the type check (`tsc -p .`, or its native port tsgo: see checker() below) and every test (`vitest run`, arguments passed on) at the
 * same time, not one after the other: vitest does not type-check (it only strips types), so the two
 * share no work, and tsc's seconds of one core fit beside vitest's start-up and its last files.
 * Fails when either fails; tsc's findings are printed after vitest's report, so they are not lost in it.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
/** A package's command, as npm links it into node_modules/.bin (its package.json's `bin`). */
function bin(pkg, name) {
  const file = require.resolve(`${pkg}/package.json`);
  const bins = JSON.parse(readFileSync(file, 'utf8')).bin;
  return join(dirname(file), typeof bins === 'string' ? bins : bins[name]);
}

/** Run a node script; resolve with its exit code and (when `quiet`) what it wrote. */
function run(script, args, quiet, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { env, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let out = '';
    if (quiet) {
      child.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
      child.stderr.setEncoding('utf8').on('data', (d) => { out += d; });
    }
    child.on('error', (err) => resolve({ code: 1, out: `${out}${err.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });
}

/**
 * The type check: TypeScript's native port (tsgo, @typescript/native-preview: the same checker in Go,
 * the same diagnostics on this project) where it is installed, else tsc. On a 2-core machine tsc
 * spends 13-17 s of CPU on a fresh clone, the largest single item of the suite, and tsgo 2.5-4 s.
 * tsgo keeps its own build info (its format is not tsc's); `npm run typecheck` is tsc.
 */
function checker() {
  try {
    // Go's collector less often (GOGC 400, unless the caller set GOGC): 4.2 and 4.2 CPU-s for a cold
    // check instead of 5.2 and 6.0, for ~30 MB more (428 MB at most against 384-406; 2026-11-28).
    return { name: 'tsgo', script: bin('@typescript/native-preview', 'tsgo'), args: ['-p', '.', '--tsBuildInfoFile', 'node_modules/.cache/svc-tsgo.tsbuildinfo'], env: { ...process.env, GOGC: process.env.GOGC ?? '400' } };
  } catch {
    return { name: 'tsc', script: bin('typescript', 'tsc'), args: ['-p', '.'] };
  }
}
const check = checker();
const typecheck = run(check.script, check.args, true, check.env);
const tests = run(bin('vitest', 'vitest'), ['run', ...process.argv.slice(2)], false);
const [tsc, vitest] = await Promise.all([typecheck, tests]);
if (tsc.code !== 0) {
  process.stderr.write(`\n${check.name} -p . failed (exit ${tsc.code}):\n${tsc.out}`);
} else {
  process.stderr.write(`${check.name} -p .: no type errors\n`);
}
process.exitCode = tsc.code !== 0 ? tsc.code : vitest.code;
