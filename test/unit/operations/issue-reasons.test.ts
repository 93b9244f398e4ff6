/** Reasons (`--reason`, `--reason-from`) on mark-false-positive and archive, and what `issues get` shows of them. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSandbox } from '../../helpers/sandbox.js';
import { tempDir } from '../../helpers/temp.js';

const sb = useSandbox();

async function openIds(n: number): Promise<string[]> {
  const r = await sb.runJson(['issues', 'search', '--types', 'open', '--page-size', String(n)]);
  return r.issues.map((i: { id: string }) => i.id);
}

describe('reasons', () => {
  it('mark-false-positive --reason sends falsePositiveReason, and issues get shows it with who changed the status', async () => {
    const [id] = await openIds(1);
    const r = await sb.run(['issues', 'mark-false-positive', id, '--reason', 'Input is validated upstream']);
    expect(r.code, r.stderr).toBe(0);
    const issue = await sb.runJson(['issues', 'get', id]);
    expect(issue).toMatchObject({ status: 'falsePositive', falsePositiveReason: 'Input is validated upstream' });
    const shown = await sb.run(['issues', 'get', id, '-o', 'table'], { tty: true, env: { NO_COLOR: '1' } });
    expect(shown.stdout).toMatch(/Reason\s+Input is validated upstream/);
    expect(shown.stdout).toMatch(/Changed by\s+sandbox-user@example\.com/);
    // Hints that fit a false positive: confirm it, never "ask for a patch".
    expect(shown.stdout).toContain(`svc issues mark-true-positive ${id}`);
    expect(shown.stdout).not.toContain('generate-patch');
  });

  it('archive --reason-from reads the reason from a file, for many ids at once', async () => {
    const dir = tempDir('reason');
    const file = join(dir, 'why.txt');
    writeFileSync(file, 'Vendored code we do not ship\n');
    const ids = await openIds(2);
    const r = await sb.run(['issues', 'archive', ...ids, '--reason-from', file, '--dry-run', '-o', 'json']);
    expect(JSON.parse(r.stdout).map((q: { body: Record<string, unknown> }) => q.body.falsePositiveReason)).toEqual(['Vendored code we do not ship', 'Vendored code we do not ship']);
    const done = await sb.run(['issues', 'archive', ...ids, '--reason-from', file]);
    expect(done.code, done.stderr).toBe(0);
    const issue = await sb.runJson(['issues', 'get', ids[1]]);
    expect(issue).toMatchObject({ status: 'archived', falsePositiveReason: 'Vendored code we do not ship' });
    const shown = await sb.run(['issues', 'get', ids[1], '-o', 'table'], { tty: true, env: { NO_COLOR: '1' } });
    expect(shown.stdout).toContain(`svc issues unarchive ${ids[1]}`);
  });

  it("issues get shows the service's validation verdict and its assessment first, before the description (issue 36.4)", async () => {
    const [id] = await openIds(1);
    const issue = await sb.runJson(['issues', 'get', id]);
    expect(issue.validated).toMatch(/^(CONFIRMED|UNKNOWN)$/);
    expect(issue.validationSecurityAssessment).toBeTruthy();
    const shown = (await sb.run(['issues', 'get', id, '-o', 'table'], { tty: true, env: { NO_COLOR: '1' } })).stdout;
    expect(shown).toMatch(new RegExp(`Validated\\s+${issue.validated}`));
    expect(shown).toContain('Validation assessment');
    expect(shown).toContain(issue.validationSecurityAssessment.split(' ').slice(0, 4).join(' '));
    expect(shown.indexOf('Validation assessment')).toBeLessThan(shown.indexOf('Description'));
    // A false positive reads DISCONFIRMED with its assessment.
    await sb.run(['issues', 'mark-false-positive', id, '--reason', 'test code']);
    expect((await sb.run(['issues', 'get', id, '-o', 'table'], { tty: true, env: { NO_COLOR: '1' } })).stdout).toMatch(/Validated\s+DISCONFIRMED/);
  });

  it('an open issue gets the patch hint; --reason and --reason-from together are refused', async () => {
    const [id] = await openIds(1);
    const shown = await sb.run(['issues', 'get', id, '-o', 'table'], { tty: true, env: { NO_COLOR: '1' } });
    if (!(await sb.runJson(['issues', 'get', id])).patch) expect(shown.stdout).toContain(`svc issues generate-patch ${id}`);
    const both = await sb.run(['issues', 'archive', id, '--reason', 'x', '--reason-from', '-'], { stdin: 'y' });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--reason and --reason-from are both given');
  });
});
