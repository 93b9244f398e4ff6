#!/usr/bin/env node
// `npm run sandbox [-- flags]`: `svc sandbox` in the foreground (installs and builds first if needed).
// It runs the real bin in this process, so Ctrl-C and SIGTERM reach svc's own handlers and its exit
// code is this script's.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT, ensureBuilt } from './sandbox-build.mjs';

ensureBuilt();
const bin = join(ROOT, 'bin', 'svc.js');
process.argv = [process.argv[0], bin, 'sandbox', ...process.argv.slice(2)];
createRequire(import.meta.url)(bin);
