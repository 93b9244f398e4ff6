/**
 * What the run step of a command gets: the host plus parsed global options and lazy services, as the
 * narrow contexts each kind of step uses: IoContext (output/io-context.ts: streams, global flags,
 * format), ConfigContext, ApiContext. Code below this file takes the narrow one it needs.
 */
import type { ConfigStore, Profile } from './config/store.js';
import type { Credentials, Target } from './config/resolve.js';
import type { Client } from './http/client.js';
import type { IoContext } from './output/io-context.js';
import type { Progress } from './terminal/progress.js';
import type { InputLimit } from './core/input-limit.js';

/** What a step that reads or changes the settings uses: the config file and the chosen profile. */
export interface ConfigContext {
  profileName: string;
  config: ConfigStore;
  profile(): Profile | undefined;
}

/** What a step that calls the API uses: where, with what credentials, and the client. */
export interface ApiContext {
  target(): Target;
  credentials(): Credentials;
  organization(): { id?: string; from?: string };
  timeoutSec(): number;
  client(): Promise<Client>;
  /** Secrets known to this run, scrubbed from everything printed. */
  secrets(): string[];
}

/** What the run step of a command gets: printing (IoContext), the settings and the API, the spinner, stdin. */
export interface Context extends IoContext, ConfigContext, ApiContext {
  /** Start the spinner on stderr (src/terminal/progress.ts): live on a terminal, plain lines elsewhere. */
  progress(text: string): Promise<Progress>;
  /** Run `fn` under the spinner. */
  spin<T>(text: string, fn: () => Promise<T>): Promise<T>;
  /**
   * All of stdin (read once; a later call gets the same text). Past `limit` it stops reading and is
   * exit 2 naming `source` (`--ids-from (stdin)`).
   */
  readStdin(source: string, limit: InputLimit): Promise<string>;
  /** Make one more secret known (e.g. a token being logged in with), so it is scrubbed too. */
  addSecret?(secret: string): void;
  close(): Promise<void>;
}
