/** Output formats and how the default is chosen. */
import { UsageError } from '../core/errors.js';

const FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

export function parseFormat(value: string, from: string): Format {
  if ((FORMATS as readonly string[]).includes(value)) return value as Format;
  throw new UsageError(`invalid output format '${value}' (from ${from})`, `use one of: ${FORMATS.join(', ')}`);
}

/** `--jq` means JSON; `-o` wins, then `--json`, then SVC_OUTPUT, then the profile, then table on a terminal and json elsewhere. */
export function chooseFormat(o: { output?: string; json?: boolean; jq?: boolean; env?: string; profile?: string | (() => string | undefined); stdoutIsTTY: boolean }): Format {
  if (o.jq) {
    // --jq filters JSON: -o json or ndjson (each row filtered), nothing else.
    const given = o.output ? parseFormat(o.output, '--output') : 'json';
    if (given !== 'json' && given !== 'ndjson') throw new UsageError(`--jq filters JSON output, not ${given}`, 'drop -o, or use -o json or -o ndjson with --jq');
    return given;
  }
  if (o.output) return parseFormat(o.output, '--output');
  if (o.json) return 'json';
  if (o.env) return parseFormat(o.env, 'SVC_OUTPUT');
  // Read only now: the config file is consulted only for what flags and environment leave open.
  const profile = typeof o.profile === 'function' ? o.profile() : o.profile;
  if (profile) return parseFormat(profile, 'the profile setting "output"');
  return o.stdoutIsTTY ? 'table' : 'json';
}

/** Colour on a terminal only; NO_COLOR and --no-color switch it off, FORCE_COLOR on. */
export function useColor(o: { flag?: boolean; env: Record<string, string | undefined>; isTTY: boolean }): boolean {
  if (o.flag === false) return false;
  if (o.env.NO_COLOR !== undefined && o.env.NO_COLOR !== '') return false;
  if (o.env.FORCE_COLOR !== undefined) return o.env.FORCE_COLOR !== '0' && o.env.FORCE_COLOR !== 'false';
  return o.isTTY;
}
