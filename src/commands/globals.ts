/** Options every command accepts. One list feeds commander, the argv pre-scan and completions. */
export interface GlobalOptions {
  output?: string;
  json?: boolean;
  columns?: string;
  jq?: string;
  profile?: string;
  baseUrl?: string;
  dev?: boolean;
  org?: string;
  timeout?: string;
  retries?: string;
  maxResponseMb?: string;
  color?: boolean;
  verbose?: boolean;
  debug?: boolean;
  dryRun?: boolean;
  /** false with --no-ci: the CI environment is ignored. */
  ci?: boolean;
}

export interface GlobalOptionSpec {
  flags: string;
  description: string;
  /** Name of the value it takes, if any (used to skip values when pre-scanning argv). */
  value?: string;
  choices?: readonly string[];
}

export const GLOBAL_OPTIONS: readonly GlobalOptionSpec[] = [
  { flags: '-o, --output <format>', value: 'format', choices: ['table', 'json', 'ndjson', 'csv'], description: 'Output format (default: table on a terminal, json otherwise)' },
  { flags: '--json', description: 'Same as --output json' },
  { flags: '--columns <list>', value: 'list', description: 'Columns (table, CSV) or fields kept (JSON, NDJSON rows): comma-separated dot paths, e.g. id,issueCounts.open' },
  { flags: '--jq <expr>', value: 'expr', description: "Filter JSON output with a jq expression; strings print raw, one per line (e.g. --jq '.issues[].id')" },
  { flags: '--profile <name>', value: 'name', description: 'Config profile to use (default: SVC_PROFILE, then "default")' },
  { flags: '--base-url <url>', value: 'url', description: 'API base URL (default: SVC_BASE_URL, then the profile)' },
  { flags: '--dev', description: "Use the profile's development base URL" },
  { flags: '--org <id>', value: 'id', description: 'Organization id for every command (default: SVC_ORGANIZATION_ID, then the profile)' },
  { flags: '--timeout <seconds>', value: 'seconds', description: 'Seconds to wait for a response (default 30)' },
  { flags: '--retries <n>', value: 'n', description: 'Extra tries for safe requests on network errors, 429 and 5xx (default 2)' },
  { flags: '--max-response-mb <n>', value: 'n', description: 'Most MiB one response may hold (default 64; also SVC_MAX_RESPONSE_MB)' },
  { flags: '--no-color', description: 'No colours (also NO_COLOR=1)' },
  { flags: '--verbose', description: 'Print each request and response on stderr (tokens redacted)' },
  { flags: '--debug', description: 'Show stack traces of unexpected errors' },
  { flags: '--dry-run', description: 'Print the request that would be sent, send nothing' },
  { flags: '--no-ci', description: 'Ignore the CI environment: no step summary, annotations or log groups unless asked (also SVC_NO_CI=1)' },
];

/** Long and short names of the global options that take a value, for skipping it while pre-scanning argv. */
export function valueOptions(): Set<string> {
  const names = new Set<string>();
  for (const o of GLOBAL_OPTIONS) {
    if (!o.value) continue;
    for (const part of o.flags.split(/[ ,]+/)) if (part.startsWith('-')) names.add(part);
  }
  return names;
}

/** Every word of argv that is not an option or a global option's value (the command path and arguments). */
export function commandWords(argv: readonly string[]): string[] {
  const takesValue = valueOptions();
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--') return [...words, ...argv.slice(i + 1)];
    if (a.startsWith('-')) {
      if (!a.includes('=') && takesValue.has(a)) i++;
      continue;
    }
    words.push(a);
  }
  return words;
}

/** The first word of argv that is not an option or an option's value: the group or built-in command. */
export function firstCommandWord(argv: readonly string[]): string | undefined {
  return commandWords(argv)[0];
}
