/**
 * A service value quoted in svc's own message (the red team's finding 7): the value is escaped
 * (visibly) before it is put into the message, so an unterminated 8-bit OSC (U+009D) or CSI (U+009B)
 * in it cannot make the line's sanitizer remove the rest of the message, and an invisible character
 * (U+200B) cannot make two different values look the same.
 */
import { describe, expect, it } from 'vitest';
import { useFakeServer } from '../../helpers/fake-server.js';
import { runCli } from '../../helpers/host.js';

const fake = useFakeServer();

const page = (status: string) => ({
  json: { issues: [{ id: 'iss_1', repositoryId: 'repo_a', status, generatedTitle: 't', score: 20 }], totalCount: 1, currentPage: 1, pageSize: 100 },
});

describe('a status outside the one asked for is quoted escaped in the warning (the answer is shown: exit 0)', () => {
  for (const [status, shown] of [['archived\u009d', "'archived\\u009d'"], ['open\u009b', "'open\\u009b'"], ['open\u200b', "'open\\u200b'"], ['a\\u009d', "'a\\\\u009d'"]] as const) {
    it(`status ${JSON.stringify(status)}: shown as ${shown}, and the message keeps its end`, async () => {
      fake.stub('/api/v1/issues/search', page(status));
      const r = await runCli(['issues', 'search', '--types', 'open', '-o', 'json'], { env: fake.env });
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).issues[0].status).toBe(status);
      expect(r.stderr).toContain(`page 1 holds item 'iss_1' of status ${shown}, not the one asked for ('open'): the service ignored the types filter`);
      // What follows the value is there too.
      expect(r.stderr).toMatch(/\[item-status-unknown, the spec; shown as it came; --verbose says more\]$/m);
      // eslint-disable-next-line no-control-regex
      expect(r.stderr).not.toMatch(/[\u0080-\u009f\u200b]/);
    });
  }
});
