/** What the run step of a command gets: the host plus parsed global options and lazy services. */
import type { Host } from './host.js';
import type { ConfigStore, Profile } from './config/store.js';
import type { Credentials, Target } from './config/resolve.js';
import type { Client } from './http/client.js';
import type { Format } from './output/formats.js';
import type { Progress } from './terminal/progress.js';

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

export interface Context extends Host {
  globals: GlobalOptions;
  profileName: string;
  config: ConfigStore;
  profile(): Profile | undefined;
  /** Data to stdout. */
  out(text: string): void;
  /** A line of chatter to stderr (controls stripped, secrets scrubbed). */
  note(line: string): void;
  warn(line: string): void;
  format(): Format;
  /** Colour on stdout / stderr. */
  color: boolean;
  target(): Target;
  credentials(): Credentials;
  organization(): { id?: string; from?: string };
  timeoutSec(): number;
  client(): Promise<Client>;
  /** Start the spinner on stderr (src/terminal/progress.ts): live on a terminal, plain lines elsewhere. */
  progress(text: string): Promise<Progress>;
  /** Run `fn` under the spinner. */
  spin<T>(text: string, fn: () => Promise<T>): Promise<T>;
  readStdin(): Promise<string>;
  /** Secrets known to this run, scrubbed from everything printed. */
  secrets(): string[];
  /** Make one more secret known (e.g. a token being logged in with), so it is scrubbed too. */
  addSecret?(secret: string): void;
  close(): Promise<void>;
}
