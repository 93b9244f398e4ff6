#!/usr/bin/env node
// `npm run sandbox [-- flags]`: `svc sandbox` in the foreground (builds first if needed).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, ensureBuilt } from './sandbox-build.mjs';

ensureBuilt();
const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
process.argv = [process.argv[0], join(ROOT, 'bin', 'svc.js'), 'sandbox', ...process.argv.slice(2)];
const { runProcess } = await import(pathToFileURL(join(ROOT, 'dist', 'svc.js')).href);
await runProcess(version);
