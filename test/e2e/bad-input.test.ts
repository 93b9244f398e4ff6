/**
 * The bad-input battery: every way of calling svc wrongly that we could think of. For each: the
 * documented exit code, exactly one clear line on stderr, no stack trace, no secret (one in the
 * environment, another in the config file), and no request reaching the server.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/host.js';
import { startFakeServer, type FakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

const ENV_SECRET = 'env-secret-7c1f0b2e9a';
const CONFIG_SECRET = 'cfg-secret-4d8a2c6e1b';

interface Case {
  args: string[];
  code: 2 | 3;
  /** Environment over the default (the server as SVC_BASE_URL, env credentials); undefined unsets. */
  env?: Record<string, string | undefined>;
  input?: string;
  /** The config file: a good one (token bound to the server), none, or these exact bytes. */
  config?: 'good' | 'none' | 'dir' | string;
  /** The stderr line must match this too. */
  says?: RegExp;
}

const files = tempDir('svc-bad-input-');
const file = (name: string, text: string) => { const p = join(files, name); writeFileSync(p, text); return p; };
const BAD_JSON = file('bad.json', '{"organizationId": ');
const ARRAY_JSON = file('array.json', '[1, 2]');
const NULL_JSON = file('null.json', 'null');
const noCreds = { SVC_API_TOKEN_ID: undefined, SVC_API_TOKEN_SECRET: undefined };

const CASES: Case[] = [
  // Commands and options
  { args: ['nosuch'], code: 2, says: /unknown command 'nosuch'/ },
  { args: ['issues', 'nosuch'], code: 2, says: /unknown operation 'nosuch' of 'svc issues'/ },
  { args: ['isues', 'search'], code: 2, says: /unknown command 'isues'/ },
  { args: ['issues', 'search', '--bogus'], code: 2, says: /unknown option '--bogus'/ },
  { args: ['--bogus'], code: 2, says: /unknown option '--bogus'/ },
  // Commander parses argv at every level: an unknown flag after a group or built-in is an error too
  // (a hand-written pre-scan once answered `svc issues --bogus` with the group's help and exit 0).
  { args: ['issues', '--bogus'], code: 2, says: /^svc: error: unknown option '--bogus'/ },
  { args: ['--no-color', 'stats', '--bogus'], code: 2, says: /^svc: error: unknown option '--bogus'/ },
  { args: ['auth', '--bogus'], code: 2, says: /^svc: error: unknown option '--bogus'/ },
  { args: ['auth', 'status', '--bogus'], code: 2, says: /^svc: error: unknown option '--bogus'/ },
  { args: ['gate', '--bogus'], code: 2, says: /^svc: error: unknown option '--bogus'/ },
  { args: ['config', 'nosuch'], code: 2, says: /^svc: error: unknown (command|operation) 'nosuch'/ },
  { args: ['--output'], code: 2, says: /option '-o, --output <format>' argument missing/ },
  { args: ['-o', 'xml'], code: 2, says: /argument 'xml' is invalid\. Allowed choices are table, json, ndjson, csv/ },
  { args: ['-o', 'xml', 'issues', 'search'], code: 2, says: /'xml' is invalid/ },
  { args: ['issues', 'search', '--page'], code: 2, says: /argument missing/ },
  { args: ['issues', 'search', 'extra'], code: 2, says: /too many arguments/ },
  { args: ['help', 'nosuch'], code: 2, says: /unknown help topic or command 'nosuch'/ },
  // Enum values and numbers
  { args: ['issues', 'search', '--types', 'foo'], code: 2, says: /invalid value for --types: must be one of/ },
  { args: ['issues', 'search', '--sort-by', 'size'], code: 2, says: /'size' is invalid/ },
  { args: ['issues', 'search', '--code-scan-types', 'Nightly'], code: 2, says: /--code-scan-types/ },
  { args: ['issues', 'search', '--page', 'abc'], code: 2, says: /--page expects an integer, got 'abc'/ },
  { args: ['issues', 'search', '--page', '1.5'], code: 2, says: /--page expects an integer/ },
  { args: ['issues', 'search', '--page', '0'], code: 2, says: /--page: must be at least 1/ },
  { args: ['issues', 'search', '--page', '-1'], code: 2, says: /--page/ },
  { args: ['issues', 'search', '--page-size', '1e999'], code: 2, says: /--page-size expects an integer/ },
  { args: ['issues', 'search', '--severities-min', 'high'], code: 2, says: /--severities-min expects a number/ },
  { args: ['issues', 'search', '--page', ''], code: 2, says: /--page expects an integer, got ''/ },
  // Positional arguments
  { args: ['issues', 'get'], code: 2, says: /missing issueId: give ISSUE_ID, or --issue-id/ },
  { args: ['issues', 'get', 'a', '--issue-id', 'b'], code: 2, says: /issueId is given twice/ },
  // Named as the user gave it: the argument, or the flag.
  { args: ['issues', 'get', ''], code: 2, says: /invalid value for ISSUE_ID: must not be empty/ },
  { args: ['issues', 'get', '--issue-id', ''], code: 2, says: /invalid value for --issue-id: must not be empty/ },
  { args: ['scans', 'get-schedule'], code: 2, says: /missing repositoryId/ },
  // -F / -f / --input / JSON flags
  { args: ['issues', 'search', '-F', 'novalue'], code: 2, says: /-F expects key=value, got 'novalue'/ },
  { args: ['issues', 'search', '-F', '=x'], code: 2, says: /-F expects key=value/ },
  { args: ['issues', 'search', '-F', 'a..b=1'], code: 2, says: /invalid key 'a\.\.b'/ },
  { args: ['issues', 'search', '-F', 'filter={bad'], code: 2, says: /the value of -F filter is not valid JSON/ },
  { args: ['issues', 'search', '-F', 'filter=[1,'], code: 2, says: /not valid JSON/ },
  { args: ['issues', 'search', '-F', 'a=@/nonexistent/file'], code: 2, says: /cannot read -F a from '\/nonexistent\/file': no such file/ },
  { args: ['issues', 'search', '-F', `a=@${files}`], code: 2, says: /it is a directory/ },
  { args: ['issues', 'search', '-f', 'novalue'], code: 2, says: /-f expects key=value/ },
  { args: ['issues', 'search', '--input', '/nonexistent/body.json'], code: 2, says: /cannot read --input from .*: no such file/ },
  { args: ['issues', 'search', '--input', files], code: 2, says: /it is a directory/ },
  { args: ['issues', 'search', '--input', BAD_JSON], code: 2, says: /is not valid JSON/ },
  { args: ['issues', 'search', '--input', ARRAY_JSON], code: 2, says: /--input must hold a JSON object/ },
  { args: ['issues', 'search', '--input', NULL_JSON], code: 2, says: /--input must hold a JSON object/ },
  { args: ['issues', 'search', '--input', '-'], input: '{"page": ', code: 2, says: /--input \(stdin\) is not valid JSON/ },
  { args: ['issues', 'search', '--input', '-'], input: '', code: 2, says: /not valid JSON/ },
  { args: ['repos', 'add-hostc', '--repos', '{bad'], code: 2, says: /the value of --repos is not valid JSON/ },
  { args: ['repos', 'add-hostc', '--repos', '@/nonexistent/repos.json'], code: 2, says: /cannot read --repos/ },
  { args: ['repos', 'add-hostc', '--repos', '"just a string"'], code: 2, says: /invalid value for --repos/ },
  { args: ['api', 'issues/search', '--input', BAD_JSON], code: 2, says: /not valid JSON/ },
  // Global numbers
  { args: ['issues', 'search', '--timeout', 'abc'], code: 2, says: /--timeout expects seconds/ },
  { args: ['issues', 'search', '--timeout', '0'], code: 2, says: /--timeout expects seconds/ },
  { args: ['issues', 'search', '--timeout', '-5'], code: 2, says: /--timeout/ },
  { args: ['issues', 'search', '--timeout', '99999'], code: 2, says: /at most 3600/ },
  { args: ['issues', 'search', '--retries', 'abc'], code: 2, says: /--retries expects a whole number/ },
  { args: ['issues', 'search', '--retries', '11'], code: 2, says: /from 0 to 10/ },
  { args: ['issues', 'search', '--retries', '1.5'], code: 2, says: /--retries/ },
  { args: ['--dry-run', 'issues', 'search', '--timeout', 'abc'], code: 2, says: /--timeout expects seconds/ },
  // Environment
  { args: ['issues', 'search'], env: { SVC_TIMEOUT: 'abc' }, code: 2, says: /SVC_TIMEOUT expects seconds, .* got 'abc'/ },
  { args: ['issues', 'search'], env: { SVC_TIMEOUT: '-1' }, code: 2, says: /SVC_TIMEOUT/ },
  // Number() took these as 16 and 3; every other number flag refuses them.
  { args: ['issues', 'search', '--max-response-mb', '0x10'], code: 2, says: /--max-response-mb expects MiB from 1 to 16384, got '0x10'/ },
  { args: ['issues', 'search', '--max-response-mb', '0b11'], code: 2, says: /--max-response-mb expects MiB from 1 to 16384, got '0b11'/ },
  { args: ['issues', 'search'], env: { SVC_MAX_RESPONSE_MB: '0x10' }, code: 2, says: /SVC_MAX_RESPONSE_MB expects MiB from 1 to 16384, got '0x10'/ },
  { args: ['issues', 'search'], env: { SVC_OUTPUT: 'xml' }, code: 2, says: /invalid output format 'xml' \(from SVC_OUTPUT\)/ },
  { args: ['issues', 'search'], env: { SVC_PROFILE: '../etc' }, code: 2, says: /invalid profile name '\.\.\/etc' \(from SVC_PROFILE\)/ },
  { args: ['issues', 'search', '--profile', 'a b'], code: 2, says: /invalid profile name 'a b' \(from --profile\)/ },
  { args: ['issues', 'search', '--profile', 'nope'], env: { SVC_BASE_URL: undefined }, code: 2, says: /profile "nope" does not exist/ },
  { args: ['issues', 'search'], env: { SVC_BASE_URL: 'not a url' }, code: 2, says: /invalid base URL 'not a url' \(from SVC_BASE_URL\)/ },
  { args: ['issues', 'search'], env: { SVC_BASE_URL: undefined }, config: 'none', code: 2, says: /no API base URL is set/ },
  { args: ['issues', 'search', '--dev'], config: 'none', code: 2, says: /no development base URL is set/ },
  { args: ['issues', 'search'], env: { SVC_BASE_URL: 'https://127.0.0.1:1', HTTPS_PROXY: 'not a proxy' }, code: 2, says: /HTTPS_PROXY is not a valid proxy URL/ },
  { args: ['issues', 'search'], env: { HTTP_PROXY: 'http://user:proxy-pw-123@proxy.invalid:3128' }, code: 2, says: /through the proxy http:\/\/proxy\.invalid:3128/ },
  // Base URLs
  { args: ['issues', 'search', '--base-url', 'nope'], code: 2, says: /invalid base URL 'nope' \(from --base-url\)/ },
  { args: ['issues', 'search', '--base-url', 'ftp://example.com'], code: 2, says: /unsupported base URL scheme 'ftp:'/ },
  { args: ['issues', 'search', '--base-url', 'file:///etc/passwd'], code: 2, says: /unsupported base URL scheme 'file:'/ },
  { args: ['issues', 'search', '--base-url', 'https://user:url-pw-9@example.com'], code: 2, says: /must not carry a user name or password/ },
  { args: ['issues', 'search', '--base-url', 'https://example.com/?x=1'], code: 2, says: /must not have a query or fragment/ },
  { args: ['issues', 'search', '--base-url', 'http://[::1'], code: 2, says: /invalid base URL/ },
  { args: ['issues', 'search', '--base-url', 'http://example.com'], code: 2, says: /refusing to send API tokens over plain http:\/\/ to example\.com/ },
  { args: ['issues', 'search', '--base-url', 'http://10.0.0.1:8080'], code: 2, says: /refusing to send API tokens over plain http/ },
  // Built-in commands
  { args: ['config', 'get', 'foo'], code: 2, says: /unknown setting 'foo'; settings: base-url, dev-base-url, organization, output$/ },
  { args: ['config', 'set', 'foo', 'bar'], code: 2, says: /unknown setting 'foo'; settings: base-url, dev-base-url, organization, output$/ },
  { args: ['config', 'set', 'base-url', 'nope'], code: 2, says: /invalid base URL 'nope'/ },
  { args: ['config', 'set', 'output', 'xml'], code: 2, says: /invalid output format 'xml'/ },
  { args: ['config', 'set', 'organization', '  '], code: 2, says: /the value is empty/ },
  { args: ['config', 'set'], code: 2, says: /missing required argument 'key'/ },
  { args: ['config', 'reset'], code: 2, says: /needs --yes when not on a terminal/ },
  { args: ['config', 'get', 'base-url'], config: 'none', code: 2, says: /'base-url' is not set/ },
  { args: ['orgs', 'delete', 'org_1'], code: 2, says: /deletes data and needs --yes/ },
  { args: ['repos', 'delete', 'repo_1', '--org', 'o'], code: 2, says: /needs --yes/ },
  { args: ['api'], code: 2, says: /missing required argument 'path'/ },
  { args: ['api', '../etc/passwd'], code: 2, says: /invalid API path/ },
  { args: ['api', 'issues/search?x=1'], code: 2, says: /invalid API path/ },
  { args: ['auth', 'login'], code: 2, says: /no token id given/ },
  { args: ['auth', 'login', '--token-id', 'x', '--with-secret-stdin'], input: '', code: 2, says: /stdin was empty/ },
  { args: ['auth', 'login', '--token-id', 'a b', '--with-secret-stdin'], input: 'typed-secret-55', code: 2, says: /white space/ },
  // The config file
  { args: ['issues', 'search'], config: '{"profiles": {"default": {"tokenSecret": "cfg-secret-4d8a2c6e1b"', code: 2, says: /the config file .*config\.json is corrupt: it is not valid JSON \((line \d+, column \d+|it ends before the JSON does: cut short\?)\); .*svc config reset/ },
  { args: ['config', 'set', 'organization', 'o'], config: '[]', code: 2, says: /is corrupt: it is not a JSON object/ },
  { args: ['config', 'list'], config: '{"profiles": 5}', code: 2, says: /is corrupt/ },
  { args: ['issues', 'search'], config: 'dir', code: 2, says: /cannot read the config file .*: it is a directory/ },
  // Credentials (exit 3)
  { args: ['issues', 'search'], env: noCreds, config: 'none', code: 3, says: /not logged in: no API token/ },
  { args: ['issues', 'search'], env: { SVC_API_TOKEN_SECRET: undefined }, code: 3, says: /SVC_API_TOKEN_SECRET is not set, but SVC_API_TOKEN_ID is/ },
  { args: ['issues', 'search'], env: { SVC_API_TOKEN_ID: undefined }, code: 3, says: /SVC_API_TOKEN_ID is not set, but SVC_API_TOKEN_SECRET is/ },
  { args: ['issues', 'search'], env: { SVC_API_TOKEN_ID: '' }, code: 3, says: /SVC_API_TOKEN_ID is set but empty/ },
  { args: ['issues', 'search'], env: { SVC_API_TOKEN_ID: '', SVC_API_TOKEN_SECRET: '' }, config: 'none', code: 3, says: /SVC_API_TOKEN_ID is set but empty/ },
  { args: ['issues', 'search', '--base-url', 'https://127.0.0.1:1'], env: noCreds, code: 3, says: /stored token of profile "default" belongs to http:\/\/127\.0\.0\.1:\d+, not https:\/\/127\.0\.0\.1:1; not sending it/ },
  { args: ['issues', 'search'], env: { ...noCreds, SVC_BASE_URL: 'http://localhost:1' }, code: 3, says: /not sending it/ },
];

let requestsSeen = 0;

function setUp(c: Case, server: FakeServer): Record<string, string | undefined> {
  const dir = tempDir('svc-bad-cfg-');
  const cfg = c.config ?? 'good';
  if (cfg === 'good') {
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { baseUrl: server.url, tokenId: 'cfg-id-0001', tokenSecret: CONFIG_SECRET } } }), { mode: 0o600 });
  } else if (cfg === 'dir') {
    mkdirSync(join(dir, 'config.json'));
  } else if (cfg !== 'none') {
    writeFileSync(join(dir, 'config.json'), cfg);
  }
  return { SVC_CONFIG_DIR: dir, SVC_BASE_URL: server.url, SVC_API_TOKEN_ID: 'env-id-0001', SVC_API_TOKEN_SECRET: ENV_SECRET, ...c.env };
}

describe.concurrent(`bad-input battery (${CASES.length} invocations)`, () => {
  it.each(CASES.map((c) => [`${c.args.join(' ')}${c.env ? ` ${JSON.stringify(c.env)}` : ''}${c.config && c.config !== 'good' ? ` [config: ${c.config.slice(0, 20)}]` : ''}`, c] as const))('%s', async (_name, c) => {
    // A server of its own per case, so that "no request" is exact even with cases running at once.
    const server = await startFakeServer();
    let r;
    try {
      r = await runCli(c.args, { env: setUp(c, server), stdin: c.input });
    } finally {
      await server.close();
    }
    const all = r.stdout + r.stderr;
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '');
    expect({ code: r.code, lines }).toMatchObject({ code: c.code, lines: [expect.stringMatching(/^svc: error: /)] });
    if (c.says) expect(lines[0]).toMatch(c.says);
    expect(all).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);
    for (const secret of [ENV_SECRET, CONFIG_SECRET, 'proxy-pw-123', 'url-pw-9', 'typed-secret-55']) expect(all).not.toContain(secret);
    // Nothing was sent: every case fails before any request.
    requestsSeen += server.requests.length;
    expect(requestsSeen).toBe(0);
  });
});

describe('the battery as a whole', () => {
  it('has at least 60 cases and no request ever reached the server', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(60);
    expect(requestsSeen).toBe(0);
  });
});
