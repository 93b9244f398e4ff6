#!/usr/bin/env node
/**
 * `node scripts/test-durations.mjs`: writes test/durations.json, the spawning test files' durations
 * (seconds) from vitest's cache of the last run here (node_modules/.vite/vitest/.../results.json).
 *
 * vitest.config.ts orders each project's files longest first by that cache; a fresh clone has none,
 * and orders the spawning project (its files start first, three at a time, before the in-process
 * files take the workers they free) by test/durations.json instead. Only the order depends on it: a figure
 * that is stale, or a file it does not list, changes which file starts when, never what runs.
 * Refresh it after a full run (`npm test`) when a spawning file's length changes much.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('..', import.meta.url).pathname;
const CACHE = join(ROOT, 'node_modules', '.vite', 'vitest');
const OUT = join(ROOT, 'test', 'durations.json');
const PROJECT = 'process';

const found = existsSync(CACHE) ? readdirSync(CACHE).map((d) => join(CACHE, d, 'results.json')).filter(existsSync) : [];
if (found.length === 0) {
  process.stderr.write(`test-durations: no vitest cache in ${CACHE}: run the tests first (npm test)\n`);
  process.exit(1);
}
const seconds = {};
for (const file of found) {
  for (const [key, result] of JSON.parse(readFileSync(file, 'utf8')).results) {
    const at = key.indexOf(':');
    const project = key.slice(0, at);
    const path = key.slice(at + 1);
    if (project !== PROJECT || !existsSync(join(ROOT, path)) || !(result?.duration > 0)) continue;
    seconds[path] = Math.round(result.duration / 100) / 10;
  }
}
// A run of some files only (or filtered by -t, which records 0 for every file) says little of the others.
const before = existsSync(OUT) ? Object.keys(JSON.parse(readFileSync(OUT, 'utf8'))).length : 0;
if (Object.keys(seconds).length < Math.max(1, Math.floor(before * 0.8))) {
  process.stderr.write(`test-durations: the cache has durations for ${Object.keys(seconds).length} spawning files, ${OUT} lists ${before}: run the whole suite first (npm test); nothing written\n`);
  process.exit(1);
}
const sorted = Object.fromEntries(Object.entries(seconds).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));
writeFileSync(OUT, `${JSON.stringify(sorted, null, 2)}\n`);
process.stderr.write(`test-durations: ${Object.keys(sorted).length} files of the ${PROJECT} project -> ${OUT}\n`);
