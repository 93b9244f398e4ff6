// The tour of `npm run demo` (scripts/demo.mjs), apart from how svc and the sandbox are started: the
// demo runs each step as the real bin in a process of its own; the suite walks the same tour
// in-process against each dialect (test/e2e/demo-dialects.test.ts), so the steps live here once.
import { join } from 'node:path';

/** `svc sandbox ...`: the sandbox the tour runs against (a free port, its ready line as JSON). */
export function sandboxArgs(dialects) {
  return ['sandbox', '--port', '0', '-o', 'json', '--quiet', '--scan-duration', '800', ...(dialects.length ? ['--dialect', dialects.join(',')] : [])];
}

/**
 * The tour against a started sandbox (`info`: its ready line). `say(line)` prints a line, `bold` and
 * `dim` style one; `svc(args, env, capture)` runs svc, lets its output through and resolves with
 * `{ code, stdout }` (stdout only with `capture`); `baseEnv` is svc's environment (its config folder:
 * `configDir`, where the baseline goes too); `dialects` are the sandbox's.
 */
export async function tour(info, { dialects, baseEnv, configDir, say, bold, dim, svc }) {
  const env = { ...baseEnv, SVC_BASE_URL: info.baseUrl, SVC_API_TOKEN_ID: info.tokenId, SVC_API_TOKEN_SECRET: info.tokenSecret };
  const step = (title, args, opts) => runStep({ say, bold, dim, svc }, title, args, env, opts);
  say(bold('svc demo: a tour against the local sandbox'));
  say(dim(`The sandbox runs on ${info.baseUrl} with seeded data (${info.repositories} repositories, ${info.issues} issues)`));
  say(dim("and its own sandbox-only test token. Nothing leaves this machine."));
  if (dialects.length) say(dim(`It answers in the dialect ${dialects.join(', ')}: the same data, told as another real service might (docs/sandbox.md).`));
  // A service that counts categories over the organization: the gate is told so (the setting its message names).
  const counts = dialects.includes('wide-counts') ? ['--counts', 'wide'] : [];
  if (counts.length) say(dim('This service counts categoryCounts over the organization: each gate below says so with --counts wide (or counts: wide in .svc-policy.yml).'));

  await step('Repositories of the organization, with their issue counts', ['repos', 'list', '-o', 'table']);
  await step('The five highest-scoring open issues', ['issues', 'search', '--types', 'open', '--sort-by', 'score', '--page-size', '5', '-o', 'table']);
  const before = await api(info, 'stats/summary', {});
  await step('A summary of scans and issues', ['stats', 'summary', '-o', 'table']);

  // Triage: of the open critical issues, the one the scanner is least sure of is read in full and,
  // its input being checked upstream, set aside as a false positive, saying why (never without a reason).
  const critical = (await api(info, 'issues/search', { types: ['open'], sortBy: 'score', pageSize: 50 })).issues.filter((i) => i.score >= 90);
  const doubt = critical.reduce((a, b) => ((b.confidence ?? 100) < (a.confidence ?? 100) ? b : a));
  await step(`The critical issue the scanner is least sure of (confidence ${doubt.confidence}%), in full: level, location, CWE, description, code, and what to do next`, ['issues', 'get', doubt.id, '-o', 'table']);
  await step('Triaged: its input is checked upstream, so mark it a false positive, saying why',
    ['issues', 'mark-false-positive', doubt.id, '--reason', 'Input is validated by the API gateway before it reaches this handler (SEC-42)', '-o', 'table']);
  await step('The counts changed', ['stats', 'summary', '--columns', 'issues.open,issues.falsePositive', '-o', 'table']);
  const after = await api(info, 'stats/summary', {});
  say(dim(`open ${before.issues.open} -> ${after.issues.open}, false positive ${before.issues.falsePositive} -> ${after.issues.falsePositive}`));

  const repo = (await api(info, 'repositories/list', { getCounts: false }))[0];
  const baseline = join(configDir, 'baseline.json');
  await step(`The CI gate on ${repo.name}: fail on any open issue at level high or above (exit 1 = failed), keeping the verdict as a baseline`,
    ['gate', '--repository-ids', repo.id, '--fail-on', 'high', '--json-report', baseline, ...counts], { expect: [0, 1] });
  const started = await step(`Start a scan of ${repo.name}`, ['scans', 'start', '--repository-ids', repo.id, '-o', 'json'], { capture: true });
  const { scanId } = JSON.parse(started);
  say(dim('(waiting for the scan to complete...)'));
  for (let k = 0; k < 100; k++) {
    const scans = await api(info, 'scans/list', { scanId });
    if (scans.codeScans[0]?.status !== 'running') break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await step('The scan has completed, with the issues it found', ['scans', 'list', '--scan-id', scanId, '--columns', 'scanId,repositoryId,status,finished,issueCounts.open', '-o', 'table']);
  await step('The gate a pull request wants: only what is new since the baseline counts',
    ['gate', '--repository-ids', repo.id, '--fail-on', 'high', '--baseline', baseline, ...counts], { expect: [0, 1] });

  if (dialects.length) {
    say();
    say(bold(`Where the dialect ${dialects.join(', ')} shows`));
    await step('A search with its counts: totalCount, categoryCounts and the scan each issue names (codeScan.id)',
      ['issues', 'search', '--types', 'open', '--repository-ids', repo.id, '--get-counts', '--page-size', '3', '-o', 'json', '--jq', '{totalCount, categoryCounts, scans: [.issues[].codeScan.id]}']);
    await step('The gate on exactly the scan just run', ['gate', '--scan-id', scanId, '--fail-on', 'high', ...counts], { expect: [0, 1] });
    const orgs = await api(info, 'orgs/list', {});
    const bare = [];
    for (const o of orgs) if ((await api(info, 'repositories/list', { organizationId: o.id, getCounts: false })).length === 0) bare.push(o);
    if (bare[0]) await step(`The gate on ${bare[0].name}, an organization without repositories: nothing to fail on`, ['gate', '--org', bare[0].id, '--fail-on', 'high', ...counts]);
  }

  say();
  say(bold('That was the real svc against a local stand-in of the service.'));
  say(`Run your own: ${bold('npm run sandbox')}, then paste the export line it prints into another shell.`);
}

/**
 * Print the command, run svc; `capture` also returns stdout. An exit code outside `expect` (default:
 * 0 only) ends the tour as a failure; an expected non-zero one is shown.
 */
async function runStep({ say, bold, dim, svc }, title, args, env, { capture = false, expect = [0] } = {}) {
  say();
  say(dim(`# ${title}`));
  say(bold(`$ svc ${args.map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, "'\\''")}'`)).join(' ')}`));
  const { code, stdout } = await svc(args, env, capture);
  if (!expect.includes(code)) throw new Error(`'svc ${args.join(' ')}' exited ${code}`);
  if (code !== 0) say(dim(`(exit ${code})`));
  return stdout;
}

/** Direct calls for the glue of the tour (ids, before/after numbers). */
async function api(info, path, body) {
  const res = await fetch(`${info.baseUrl}/api/v1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-token-id': info.tokenId, 'x-service-api-token-secret': info.tokenSecret },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}
