/** A field the spec does not show is never required: the user's own -F/--input body is sent as given. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/host.js';
import { tempDir } from '../../helpers/temp.js';

const env = { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_API_TOKEN_ID: 'tid', SVC_API_TOKEN_SECRET: 'secret' };
const sent = (stdout: string) => JSON.parse(stdout).body;

describe('inferred field names', () => {
  it('svc repos set-pr-scan-clean-summary with -F fields of the user\'s own is sent as given, with a warning (it was refused)', async () => {
    const r = await runCli(['repos', 'set-pr-scan-clean-summary', '-F', 'organizationId=o', '-F', 'repositoryId=r', '-F', 'enabled=false', '--dry-run'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(sent(r.stdout)).toEqual({ organizationId: 'o', repositoryId: 'r', enabled: false });
    expect(r.stderr).toMatch(/warning: isPrScanCleanSummaryEnabled \(--is-pr-scan-clean-summary-enabled\) was not given: svc inferred that field name .*\(with enabled\)/);
  });

  it('--input with the user\'s own field names works the same', async () => {
    const dir = tempDir();
    const file = join(dir, 'body.json');
    writeFileSync(file, JSON.stringify({ repositoryId: 'r', isEnabled: true }));
    const r = await runCli(['repos', 'set-pr-scan-issue-summary', '--input', file, '--org', 'o', '--dry-run'], { env });
    expect(r.code, r.stderr).toBe(0);
    expect(sent(r.stdout)).toEqual({ organizationId: 'o', repositoryId: 'r', isEnabled: true });
  });

  it('without a body of the user\'s own, the inferred flag is still asked for', async () => {
    const r = await runCli(['repos', 'set-pr-scan-clean-summary', 'r', '--org', 'o', '--dry-run'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing isPrScanCleanSummaryEnabled: give --is-pr-scan-clean-summary-enabled/);
  });

  it('a field the spec shows stays required whatever the body', async () => {
    const r = await runCli(['repos', 'set-pr-scanning', 'r', '--org', 'o', '-F', 'enabled=true', '--dry-run'], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing isPrScanningEnabled/);
  });

  it('help says which required names are inferred', async () => {
    const r = await runCli(['repos', 'set-pr-scan-clean-summary', '--help'], { env });
    expect(r.stdout.replace(/\s+/g, " ")).toMatch(/Inferred names \(repositoryId, isPrScanCleanSummaryEnabled\) are not required when your own/);
    expect(r.stdout).toMatch(/--is-pr-scan-clean-summary-enabled\s+Post a summary comment[^{]*\{inferred\}/);
  });
});
