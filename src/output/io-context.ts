/** What printing uses of a run step's Context: the host's streams, the global flags, the format, stdout and stderr lines. */
import type { Host } from '../core/host.js';
import type { GlobalOptions } from '../core/global-options.js';
import type { Format } from './formats.js';
import type { Doubts } from '../answers/doubts.js';

export interface IoContext extends Host {
  globals: GlobalOptions;
  /** Data to stdout. */
  out(text: string): void;
  /**
   * svc's own CI runner commands (annotations, group markers) to stdout, as they are: on a CI whose
   * log acts on commands, `out` and every other writer neutralise them (ci/log-guard.ts).
   */
  command(text: string): void;
  /** A line of chatter to stderr (controls stripped, secrets scrubbed). */
  note(line: string): void;
  warn(line: string): void;
  format(): Format;
  /** Colour on stdout / stderr. */
  color: boolean;
  /**
   * The doubts of this run's answers (answers/doubts.ts): every check of answers/checks.ts reports
   * here; each kind is said as one warning line when the run ends (the gate: in its summary).
   */
  doubts: Doubts;
}
