/** The global flags as commander parsed them (declared in src/commands/globals.ts). */
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
