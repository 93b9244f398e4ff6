/** A newcomer's hour (issue 24), the parts seen in a pipe: --timeout keeps its word to the 100 ms. */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/host.js';
import { useFakeServer } from '../helpers/fake-server.js';

const fake = useFakeServer();

describe('--timeout is exact to 100 ms', () => {
  it.each(['0.3', '1.2'])('--timeout %s: no response gives up after that long, not at the next tick of a coarse timer', async (t) => {
    fake.stub('/api/v1/orgs/list', { kind: 'hang' });
    const r = await runCli(['orgs', 'list', '--timeout', t, '--retries', '0', '--verbose'], { env: fake.env, columns: 80 });
    expect(r.code).toBe(6);
    expect(r.stderr).toContain(`within ${t} s (--timeout ${t})`);
    // undici's own headers timer fired ~1 s late for 0.3 (1009 ms) and ~0.3 s late for 1.2 (1513 ms).
    const ms = Number(/< failed after (\d+) ms/.exec(r.stderr)![1]);
    expect(ms).toBeGreaterThanOrEqual(Number(t) * 1000 - 5);
    expect(ms).toBeLessThan(Number(t) * 1000 + 250);
  });
});
