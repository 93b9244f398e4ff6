#!/usr/bin/env node
/**
 * `npm test`: the type check (`tsc -p .`) and every test (`vitest run`, arguments passed on) at the
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
function run(script, args, quiet) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script, ...args], { stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let out = '';
    if (quiet) {
      child.stdout.setEncoding('utf8').on('data', (d) => { out += d; });
      child.stderr.setEncoding('utf8').on('data', (d) => { out += d; });
    }
    child.on('error', (err) => resolve({ code: 1, out: `${out}${err.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), out }));
  });
}

const typecheck = run(bin('typescript', 'tsc'), ['-p', '.'], true);
const tests = run(bin('vitest', 'vitest'), ['run', ...process.argv.slice(2)], false);
const [tsc, vitest] = await Promise.all([typecheck, tests]);
if (tsc.code !== 0) {
  process.stderr.write(`\ntsc -p . failed (exit ${tsc.code}):\n${tsc.out}`);
} else {
  process.stderr.write('tsc -p .: no type errors\n');
}
process.exitCode = tsc.code !== 0 ? tsc.code : vitest.code;
