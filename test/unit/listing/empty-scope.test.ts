/** An empty issue search scoped to an id the service does not know is exit 4 naming it (src/listing/empty-scope.ts). */
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers/sandbox.js';

const sb = useSandbox();

describe('an empty issue search scoped to an unknown id', () => {
  it('--scan-id a scan scans list does not know: exit 4 naming it (it was exit 0, no results), --all too', async () => {
    for (const all of [[], ['--all']]) {
      const r = await sb.run(['issues', 'search', '--scan-id', 'scan_doesnotexist', ...all, '-o', 'json']);
      expect(r.code, r.stderr).toBe(4);
      expect(r.stderr).toContain("scan 'scan_doesnotexist' not found (scans list names no scan for it)");
      // (--all -o json has opened its array: never closed, so never read as a whole listing.)
      expect(r.stdout.trimEnd().endsWith(']')).toBe(false);
    }
  });

  it('a scan the service knows, with no issue of the statuses asked for: no results, exit 0', async () => {
    const scans = await sb.runJson(['scans', 'list', '--page-size', '50']);
    const scanIds = new Set((scans.codeScans as Array<{ scanId: string }>).map((s) => s.scanId));
    const archived = await sb.runJson(['issues', 'search', '--types', 'archived', '--all']);
    const withArchived = new Set((archived as Array<{ codeScan?: { id?: string } }>).map((i) => i.codeScan?.id));
    const quiet = [...scanIds].find((id) => !withArchived.has(id));
    expect(quiet).toBeDefined();
    const r = await sb.run(['issues', 'search', '--scan-id', quiet!, '--types', 'archived', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).issues).toEqual([]);
  });
});
