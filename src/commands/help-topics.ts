/** `svc help <topic>`: exit codes, environment, output, global flags. */
import { formatExitCodes } from '../core/exit-codes.js';
import { ciVariableDocs, HOSTC_API_VARIABLE, PROVIDERS } from '../ci/providers.js';
import { GLOBAL_OPTIONS } from './globals.js';
import { termRows } from './help-layout.js';

/** A variable's earlier name, still read for one release (with a warning). */
const earlier = (old: string) => `; ${old}, its earlier name, is read until the next release`;

/**
 * The variables svc reads, with their meaning (this help, the README's table). Made when asked for,
 * as the output help below: the texts are not built (or read from the code cache) by every call.
 */
export const environmentRows = (): ReadonlyArray<[string, string]> => [
  ['SVC_BASE_URL', 'API base URL (overrides the profile; --base-url overrides it); set but empty: exit 2'],
  ['SVC_DEV_BASE_URL', 'Development base URL used with --dev; set but empty: exit 2 with --dev'],
  ['SVC_API_TOKEN_ID', 'Token id; with SVC_API_TOKEN_SECRET it overrides the stored login; either set but empty: exit 3, never the stored login'],
  ['SVC_API_TOKEN_SECRET', 'Token secret (never printed; redacted from all output)'],
  ['SVC_ORGANIZATION_ID', 'Default organization (after --org, before the profile); set but empty: exit 2, as --org ""'],
  ['SVC_PROFILE', 'Profile to use (after --profile; default "default"); set but empty: exit 2'],
  ['SVC_CONFIG_DIR', 'Directory of config.json (default: the OS config directory, e.g. ~/.config/svc); set but empty: exit 2'],
  ['XDG_CONFIG_HOME, APPDATA', 'Where the OS config directory is, when SVC_CONFIG_DIR is not set (Linux / Windows)'],
  ['SVC_OUTPUT', 'Default output format: table, json, ndjson or csv'],
  ['SVC_TIMEOUT', 'Default --timeout in seconds'],
  ['SVC_MAX_RESPONSE_MB', 'Default --max-response-mb: most MiB one response may hold (default 64; more is exit 7)'],
  ['SVC_PAGER, PAGER', "Pager of svc issues triage's o (SVC_PAGER first; neither set: less when installed); empty, or cat: svc's own"],
  ['NO_COLOR', 'Any non-empty value turns colours off'],
  ['FORCE_COLOR', 'Turns colours on even when not on a terminal (0 turns them off)'],
  ['COLUMNS', 'Width of a table written to a pipe or file (default 120), and of a terminal that reports 0 columns (default 80)'],
  ['HTTPS_PROXY, HTTP_PROXY, NO_PROXY', 'Proxy for https/http requests and hosts that bypass it (lower-case names too)'],
  ['NODE_EXTRA_CA_CERTS', 'PEM file of extra certificate authorities (private CAs, TLS-inspecting proxies)'],
  ['CI', 'Set (not "false" or "0"): a CI job, with plain progress lines; the CI variables read are listed below'],
  [PROVIDERS.hosta.tokenVariable, `Token of svc gate --comment on a ${PROVIDERS.hosta.name} ${PROVIDERS.hosta.change} (else the runner's own); sent only to its API${earlier(PROVIDERS.hosta.oldTokenVariable)}`],
  [PROVIDERS.hostb.tokenVariable, `Token of svc gate --comment on a ${PROVIDERS.hostb.name} ${PROVIDERS.hostb.change} (the job token cannot write notes); sent only to its API, never printed${earlier(PROVIDERS.hostb.oldTokenVariable)}`],
  [PROVIDERS.hostc.tokenVariable, `Token of svc gate --comment on a ${PROVIDERS.hostc.name} ${PROVIDERS.hostc.change}; sent only to its API, never printed${earlier(PROVIDERS.hostc.oldTokenVariable)}`],
  [HOSTC_API_VARIABLE.name, `API root of ${PROVIDERS.hostc.name} for svc gate --comment (default: its public API)${earlier(HOSTC_API_VARIABLE.old)}`],
  ['SVC_ISSUE_URL', 'Link template of an issue in reports, e.g. https://svc.example/issues/{id} (as svc gate --issue-url)'],
];

export const outputHelp = (): string => `Output formats (-o/--output, or --json):

  table   Human tables with the command's default columns (the default on a terminal)
  json    The full response, unchanged; pretty-printed on a terminal, compact in pipes (the default in pipes)
  ndjson  One JSON object per line: each row of a listing, or the response itself
  csv     RFC 4180; the header line is the table's headers in lower case (title, file, cwe, created), which --columns takes back, or the names given to --columns; LF line ends; controls removed and cells that would start a spreadsheet formula (= + - @ tab CR) prefixed with '

Columns: --columns file,line,level picks table/CSV columns, and keeps only those fields of each -o json/ndjson row. A name is any field of the JSON row, declared by the spec or not (nested with dots: issueCounts.open), or a table header (FILE, LINE, LEVEL, OPEN), in any case; level is computed from score. An unknown name is exit 2 with the nearest names: a read checks it against its answer, a change before anything is sent. Without --columns the command's default columns are used; records without defaults show every field.
Tables: ids and names are never cut; a title keeps 40% of the width (32 columns at 80) while other text gives way; file paths are cut from the left, keeping the file's name (…/handler.ts); a table is never wider than the terminal unless its ids and names alone (never cut) leave no room for the other columns: default columns that do not fit a narrow one are left out from the right and named on stderr, with a --columns that shows them (a line always with its file). A default column that reads the same on every row of two or more (STATUS open on an open-only search) is left out and said once on stderr; never ids, names, titles, the level or the score, nor in a --all table (written as its pages come). Width: the terminal's; a terminal that reports 0 columns (docker exec -t, some CI pseudo-terminals, serial consoles) is taken as COLUMNS, else 80 wide (help, errors, notes and warnings too, broken between words); -o table in a pipe or file is COLUMNS wide when that is a positive whole number, else 120 (COLUMNS=200 svc issues search -o table > issues.txt keeps whole titles). On a terminal, times read "3 days ago" and levels/statuses are coloured. One record (issues get, scans get-schedule, a repos list of one) is shown as a detail view.
Charts: in a table, stats security-posture draws its series as one bar a period, stacked by level (a glyph a level: coloured on a terminal, plain in a pipe or with NO_COLOR), and ends with the change of each level over the range ("open critical 12 → 7, −42% since 2026-11-01"); stats summary, issues-by-severity and issues-by-repository show bars. -o json/ndjson/csv print the data, not the chart.
jq: --jq '.issues[].id' filters JSON output with jq's language (as gh does): strings print raw, one per line; other values as JSON. With --all the expression runs on each item, streamed (like jq -c over NDJSON): svc issues search --all --jq .id prints every id. A bad expression is exit 2. jq computes with doubles (its own numbers): a number a double cannot hold (see Numbers) reaches it changed (1e400 as null), and svc says so on stderr, one line per number naming the field and the text the service sent.
Numbers: -o json and ndjson (one call, --all, svc api) keep the value of every number the service sent: one a JSON double cannot hold (1e400, 1e-400, -0, 12345678901234567890) is written as the service's own text, never as null or 0 (others may be respelled, 1.0 as 1, 1E2 as 100); tables and CSV show that text too. So do rows cut down by --columns.
Rules: data goes to stdout; progress, spinners, hints, warnings and errors go to stderr, so pipes stay clean. Colours and spinners appear only on a terminal (NO_COLOR, FORCE_COLOR and --no-color are honoured). Text from the service is stripped of terminal control sequences in tables and cleaned in CSV (above); JSON and NDJSON keep the service's values (strings, and numbers as above), while their white space and escapes are svc's (compact in pipes; on a terminal, characters a terminal could act on as \\u escapes); only --all -o json and -o ndjson in a pipe or file write each item as the service's own bytes (an item the service sent with white space inside is serialized by svc).
Default: -o, then --json, then SVC_OUTPUT, then the profile's "output" setting, then table/json by terminal.
`;

export function environmentHelp(): string {
  // The CI variables by CI, in the order svc looks for them: a heading a CI, its variables below it.
  const byCi = new Map<string, Array<[string, string]>>();
  for (const v of ciVariableDocs()) {
    const heading = v.ci === 'any' ? 'Any CI' : v.ci.charAt(0).toUpperCase() + v.ci.slice(1);
    if (!byCi.has(heading)) byCi.set(heading, []);
    byCi.get(heading)!.push([v.name, v.use.charAt(0).toUpperCase() + v.use.slice(1)]);
  }
  return [
    'Environment variables read by svc:', '',
    ...termRows(environmentRows(), '  ', 34), '',
    'Precedence: flags, then environment, then the profile in the config file.', '',
    'CI detection (off with --no-ci, SVC_NO_CI=1 or CI=false), from the variables the CI systems really set, under their own names; the first CI whose marker is set wins:',
    ...[...byCi].flatMap(([ci, rows]) => ['', `${ci}:`, ...termRows(rows, '  ', 34)]), '',
  ].join('\n');
}

export function globalFlagsHelp(): string {
  const lines = termRows(GLOBAL_OPTIONS.map((o) => [o.flags, `${o.description}${o.choices ? ` [one of: ${o.choices.join(', ')}]` : ''}`]));
  return [
    'Global flags work with every command, before or after it:',
    '  svc --json issues search   is the same as   svc issues search --json', '',
    ...lines, '',
    'Precedence: flags, then environment variables (svc help environment), then the profile.', '',
  ].join('\n');
}

export const HELP_TOPICS: Record<string, { summary: string; text: () => string }> = {
  'exit-codes': { summary: 'What each exit code means', text: formatExitCodes },
  environment: { summary: 'Environment variables', text: environmentHelp },
  output: { summary: 'Output formats, columns and terminal rules', text: outputHelp },
  'global-flags': { summary: 'Flags every command takes', text: globalFlagsHelp },
};
