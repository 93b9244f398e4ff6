#!/usr/bin/env node
// Tiny shim: answer --version without loading anything, else load the bundled CLI.
import { readFileSync } from 'node:fs';

const version = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  process.stdout.write(`${version}\n`);
} else {
  const { runProcess } = await import('../dist/svc.js');
  await runProcess(version);
}
