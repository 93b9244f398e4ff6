import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../../helpers/temp.js';
/**
 * Values typed on the command line, for every command of the operation table and the gate: an empty
 * list element and an id holding a control character are exit 2, naming the flag and showing the
 * character escaped, and nothing is sent. Free text keeps tabs and line breaks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAllOperations, commandName } from '../../../src/operations/index.js';
import type { Operation } from '../../../src/operations/types.js';
import { flagSpecs, type FlagSpec } from '../../../src/request/flags.js';
import { checkControls, escapeControls, listParser } from '../../../src/request/values.js';
import { startFakeServer, type FakeServer } from '../../helpers/fake-server.js';
import { runCli } from '../../helpers/host.js';

let server: FakeServer;
let env: Record<string, string>;
let ops: Operation[];
beforeAll(async () => {
  // Any request reaching it is a failure of the test: it answers, and the count is checked.
  // On a MockAgent: these tests prove that nothing is sent; a request, if one were made, is recorded all the same.
  server = await startFakeServer({ fallback: { json: { ok: true } }, mock: true });
  env = server.env;
  ops = await loadAllOperations();
});
afterAll(async () => { await server.close(); });

/** The command words of an operation, and the flags it needs besides the one under test. */
function words(op: Operation): string[] {
  return [op.group, commandName(op).name, ...(op.destructive ? ['--yes'] : [])];
}

async function refused(argv: string[], flag: string, shown: string): Promise<void> {
  const before = server.requests.length;
  const r = await runCli(argv, { env, dispatcher: server.dispatcher });
  expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2);
  expect(r.stderr).toContain(flag);
  expect(r.stderr).toContain(shown);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(server.requests.length, `${argv.join(' ')} sent a request`).toBe(before);
}

describe('list flags: an empty element is exit 2 before any request, for every command', () => {
  it('"", a,,b and a lone "," on every list flag of every operation', async () => {
    let checked = 0;
    for (const op of ops) {
      for (const spec of flagSpecs(op.request.shape).filter((s: FlagSpec) => s.kind === 'array')) {
        const flag = `--${spec.flag}`;
        const good = spec.choices?.[0] ?? (spec.itemKind === 'number' || spec.itemKind === 'integer' ? '1' : 'a');
        await refused([...words(op), flag, ''], flag, 'an empty value');
        await refused([...words(op), flag, `${good},,${good}`], flag, `an empty element in '${good},,${good}'`);
        await refused([...words(op), flag, ','], flag, 'an empty element');
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(8);
  });

  it('the gate: --repository-ids "" (an empty CI variable) no longer widens the scope to the organization', async () => {
    await refused(['gate', '--fail-on', 'high', '--repository-ids', ''], '--repository-ids', 'an empty value');
    await refused(['gate', '--fail-on', 'high', '--repository-ids', 'repo_1,', '--scan-id', 'scan_1'], '--repository-ids', "an empty element in 'repo_1,'");
    await refused(['gate', '--fail-on', 'high', '--vulnerability-classes', ' , '], '--vulnerability-classes', 'an empty');
  });
});

describe('ids with control characters are exit 2 naming the flag, the character escaped', () => {
  it('every id-like string and list flag of every operation, and positional ids', async () => {
    let checked = 0;
    for (const op of ops) {
      for (const spec of flagSpecs(op.request.shape).filter((s: FlagSpec) => (s.kind === 'string' || (s.kind === 'array' && s.itemKind === 'string')) && !s.text)) {
        await refused([...words(op), `--${spec.flag}`, 'id_1\r'], `--${spec.flag}`, "'id_1\\r' holds the control character \\r");
        checked++;
      }
      if (op.positional) {
        await refused([...words(op), 'id_1\u001b[2J'], op.positional.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase(), '\\x1b');
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it('the gate, --org and SVC_ORGANIZATION_ID', async () => {
    await refused(['gate', '--fail-on', 'high', '--scan-id', 'scan_1\r'], '--scan-id', "'scan_1\\r' holds the control character \\r (carriage return)");
    await refused(['gate', '--fail-on', 'high', '--repository-ids', 'repo_1\r,repo_2'], '--repository-ids', '\\r');
    await refused(['gate', '--fail-on', 'high', '--org', 'org_1\n'], '--org', '\\n');
    await refused(['gate', '--fail-on', 'high', '--repository', 'repo_1\r'], '--repository', '\\r');
    await refused(['gate', '--fail-on', 'high', '--commit', 'abc123\r'], '--commit', '\\r');
    // An empty --org would fall back to SVC_ORGANIZATION_ID, the profile or the token's default.
    await refused(['gate', '--fail-on', 'high', '--org', ''], '--org', 'an empty value');
    await refused(['repos', 'list', '--org', ' '], '--org', 'an empty value');
    const before = server.requests.length;
    const r = await runCli(['repos', 'list'], { env: { ...env, SVC_ORGANIZATION_ID: 'org_1\r' }, dispatcher: server.dispatcher });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("SVC_ORGANIZATION_ID: 'org_1\\r'");
    expect(server.requests.length).toBe(before);
  });

  it('free text keeps tabs, LF and CR LF, never ESC, a bare CR or another control', async () => {
    const before = server.requests.length;
    const ok = await runCli(['issues', 'search', '--search-query', 'a\tb\nc\r\nd', '--dry-run'], { env, dispatcher: server.dispatcher });
    expect(ok.code, ok.stderr).toBe(0);
    expect(JSON.parse(ok.stdout).body.searchQuery).toBe('a\tb\nc\r\nd');
    expect(server.requests.length).toBe(before);
    await refused(['issues', 'search', '--search-query', 'a\u001b]52;c;x\u0007'], '--search-query', '\\x1b');
    await refused(['issues', 'search', '--search-query', 'a\rb'], '--search-query', '\\r');
    await refused(['repos', 'set-pr-title-template', 'repo_1', '--pr-title-template', 'x\u0000'], '--pr-title-template', '\\0');
  });

  it('a long value (a binary file given to --reason-from) is shown about its control character only, not whole', async () => {
    const file = join(tempDir('svc-values-'), 'bin.dat');
    writeFileSync(file, `${'reason '.repeat(500)}\u001c${'x'.repeat(4000)}`);
    const r = await runCli(['issues', 'mark-false-positive', 'iss_1', '--reason-from', file, '--org', 'org_1'], { env, dispatcher: server.dispatcher });
    expect(r.code).toBe(2);
    const line = r.stderr.split('\n')[0];
    expect(line).toMatch(/holds the control character \\x1c \(at character 3501 of 7501\)/);
    expect(line.length).toBeLessThan(500); // it was the whole file: 7,600 characters
  });
});

describe('values.ts', () => {
  it('escapes controls and backslashes', () => {
    expect(escapeControls('a\r\n\t\u0000\u001b\u0085\\')).toBe('a\\r\\n\\t\\0\\x1b\\u0085\\\\');
    expect(() => checkControls('--x', 'fine id')).not.toThrow();
    expect(listParser('--ids')('a, b', ['z'])).toEqual(['z', 'a', 'b']);
  });
});
