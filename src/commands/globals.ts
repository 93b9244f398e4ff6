/** Options every command accepts. One list feeds commander, help and completions. */
interface GlobalOptionSpec {
  flags: string;
  description: string;
  choices?: readonly string[];
}

export const GLOBAL_OPTIONS: readonly GlobalOptionSpec[] = [
  { flags: '-o, --output <format>', choices: ['table', 'json', 'ndjson', 'csv'], description: 'Output format (default: table on a terminal, json otherwise)' },
  { flags: '--json', description: 'Same as --output json' },
  { flags: '--columns <list>', description: 'Columns (table, CSV) or fields kept (JSON, NDJSON rows): comma-separated fields or table headers, any case, e.g. id,file,level,issueCounts.open' },
  { flags: '--jq <expr>', description: "Filter JSON output with a jq expression; strings print raw, one per line (e.g. --jq '.issues[].id'); with --all it runs on each item (--all --jq .id)" },
  { flags: '--profile <name>', description: 'Config profile to use (default: SVC_PROFILE, then "default")' },
  { flags: '--base-url <url>', description: 'API base URL (default: SVC_BASE_URL, then the profile)' },
  { flags: '--dev', description: "Use the profile's development base URL" },
  { flags: '--org <id>', description: 'Organization id for every command (default: SVC_ORGANIZATION_ID, then the profile)' },
  { flags: '--timeout <seconds>', description: 'Seconds to wait for a response (default 30)' },
  { flags: '--retries <n>', description: 'Extra tries for safe requests on network errors, 429 and 5xx (default 2)' },
  { flags: '--max-response-mb <n>', description: 'Most MiB one response may hold (default 64; also SVC_MAX_RESPONSE_MB)' },
  { flags: '--no-color', description: 'No colours (also NO_COLOR=1)' },
  { flags: '--verbose', description: 'Print each request and response on stderr (tokens redacted)' },
  { flags: '--debug', description: 'Show stack traces of unexpected errors' },
  { flags: '--dry-run', description: 'Print the request that would be sent, send nothing' },
  { flags: '--no-ci', description: 'Ignore the CI environment: no step summary, annotations or log groups unless asked (also SVC_NO_CI=1)' },
];

/** Each global flag (short and long) and whether it takes a value. */
const GLOBAL_FLAGS: ReadonlyMap<string, boolean> = new Map(GLOBAL_OPTIONS.flatMap((o) => {
  const value = o.flags.includes('<');
  return o.flags.split(/[ ,]+/).filter((f) => f.startsWith('-')).map((f) => [f, value] as const);
}));

/**
 * The global flag an argument is (`-o`, `--output`, `--output=json`), and whether its value is the
 * next argument; undefined for any other (and for `--json=x`: a flag without a value given one).
 */
export function globalFlag(arg: string): { next: boolean } | undefined {
  const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
  const value = GLOBAL_FLAGS.get(eq > 0 ? arg.slice(0, eq) : arg);
  return value === undefined || (!value && eq > 0) ? undefined : { next: value && eq < 0 };
}

/** Whether every flag of a command line is a global one (the words between are commands and arguments). */
export function onlyGlobalFlags(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    if (!argv[i].startsWith('-')) continue;
    const g = globalFlag(argv[i]);
    if (!g) return false;
    if (g.next) i++;
  }
  return true;
}
