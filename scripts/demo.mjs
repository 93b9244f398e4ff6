#!/usr/bin/env node
// `npm run demo`: a short tour of svc against the local sandbox. No account, no network, no
// configuration: it starts `svc sandbox --port 0`, runs the real bin against it (each command
// printed before its output), and stops the sandbox again. The tour's steps: scripts/demo-tour.mjs.
// `npm run demo -- --dialect NAME[,NAME]`: the same tour against a sandbox that answers in those
// dialects (docs/sandbox.md: how a plausible real service may answer where the spec leaves room),
// and then the places where a dialect shows: a search with its counts, the gate on the scan just
// run, the gate on an organization without issues.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { ROOT, ensureBuilt } from './sandbox-build.mjs';
import { sandboxArgs, tour } from './demo-tour.mjs';

const BIN = join(ROOT, 'bin', 'svc.js');
const tty = process.stdout.isTTY === true && !process.env.NO_COLOR;
const bold = (s) => (tty ? `\u001b[1m${s}\u001b[22m` : s);
const dim = (s) => (tty ? `\u001b[2m${s}\u001b[22m` : s);
const say = (s = '') => process.stdout.write(s + '\n');

const dialects = dialectArg(process.argv.slice(2));
ensureBuilt((line) => say(dim(line)));

const configDir = mkdtempSync(join(tmpdir(), 'svc-demo-'));
// The user's own svc settings must not leak into the tour (nor the tour into them).
const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SVC_')));
baseEnv.SVC_CONFIG_DIR = configDir;

const sandbox = await startSandbox(dialects);
let failed = false;
try {
  await tour(sandbox.info, { dialects, baseEnv, configDir, say, bold, dim, svc });
} catch (err) {
  failed = true;
  process.stderr.write(`demo: error: ${err.message}\n`);
} finally {
  await sandbox.stop();
  rmSync(configDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

/** svc as its own process, its output let through (stdout also kept with `capture`). */
function svc(args, env, capture) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', capture ? 'pipe' : 'inherit', 'inherit'] });
    let out = '';
    child.stdout?.setEncoding('utf8').on('data', (d) => { out += d; process.stdout.write(d); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: out }));
  });
}

/** `--dialect NAME[,NAME]` (or `--dialect=...`, repeated); the sandbox checks the names. Anything else: exit 2. */
function dialectArg(args) {
  const out = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = a === '--dialect' ? args[++i] : a.startsWith('--dialect=') ? a.slice('--dialect='.length) : undefined;
    if (value === undefined) {
      process.stderr.write(`demo: error: ${a === '--dialect' ? '--dialect needs a name' : `unknown argument '${a}'`}; usage: npm run demo [-- --dialect NAME[,NAME]] (the dialects: svc sandbox --help)\n`);
      process.exit(2);
    }
    out.push(...value.split(','));
  }
  return out;
}

/** `svc sandbox --port 0 -o json` in the background; resolves with its ready line. */
function startSandbox(dialects) {
  const child = spawn(process.execPath, [BIN, ...sandboxArgs(dialects)], {
    env: baseEnv, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d) => { stderr += d; });
  const exited = new Promise((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      try {
        resolve({ info: JSON.parse(line), stop: async () => { child.kill('SIGTERM'); await exited; } });
      } catch (err) {
        reject(new Error(`the sandbox printed something unexpected: ${line}`));
      }
    });
    exited.then((code) => reject(Object.assign(new Error(`the sandbox exited (${code}) before it was ready: ${stderr.trim()}`), { code, said: stderr.trim() })));
  }).catch((err) => {
    // A usage error of the sandbox (an unknown --dialect) is the demo's own: its line and exit 2.
    if (err.code === 2) process.stderr.write(`${err.said}\n`);
    else process.stderr.write(`demo: error: ${err.message}\n`);
    child.kill('SIGTERM');
    rmSync(configDir, { recursive: true, force: true });
    process.exit(err.code === 2 ? 2 : 1);
  });
}
