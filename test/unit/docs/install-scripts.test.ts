/**
 * A quiet install (issue 36.7): npm 11 ends `npm ci` with "install-scripts: N packages have install
 * scripts not yet covered by allowScripts" for every package of the lockfile with an install script
 * that package.json's allowScripts does not name (npm 12 skips those scripts). Each is named: the
 * SARIF multitool's chmod runs (the tests run its binary); esbuild's postinstall does not, as the
 * build calls esbuild through its JS API, which finds the binary in @esbuild/<platform> (its
 * postinstall only copies that binary over its JS launcher, or downloads it when optional
 * dependencies were left out).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };
const lock = JSON.parse(readFileSync(resolve(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };

describe('npm install scripts', () => {
  it('every package of the lockfile with an install script is named in allowScripts (by name: a version bump keeps it quiet)', () => {
    const withScripts = Object.entries(lock.packages).filter(([, p]) => p.hasInstallScript).map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts.length).toBeGreaterThan(0);
    const allowed = pkg.allowScripts ?? {};
    expect(withScripts.filter((name) => !(name in allowed))).toEqual([]);
    expect(Object.keys(allowed).filter((k) => /@\d/.test(k.slice(1)))).toEqual([]);
    // Nothing named that the lockfile does not hold (a stale entry).
    expect(Object.keys(allowed).filter((name) => !withScripts.includes(name))).toEqual([]);
  });

  it('only the scripts the project needs run: the multitool is made executable; esbuild keeps its JS launcher', () => {
    expect(pkg.allowScripts).toEqual({ '@microsoft/sarif-multitool-darwin': true, '@microsoft/sarif-multitool-linux': true, esbuild: false });
  });
});
