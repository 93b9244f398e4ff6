#!/usr/bin/env node
// Tiny shim. `--version` and top-level help are answered without loading the CLI (scripts call
// them in loops); the help text is rendered by the real program at build time (dist/help.txt).
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const only = args.length === 1 ? args[0] : undefined;
if (only === '--version' || only === '-V') {
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else if ((only === '--help' || only === '-h') && !process.env.SVC_NO_FAST_HELP && (!process.stdout.isTTY || process.stdout.columns >= 100)) {
  process.stdout.write(readFileSync(new URL('../dist/help.txt', import.meta.url), 'utf8'));
} else {
  const { runProcess } = await import('../dist/svc.js');
  await runProcess(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version);
}
