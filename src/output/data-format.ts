/** The output format of commands whose default is for people even in a pipe (`svc gate`, `scans start --wait`). */
import type { IoContext } from './io-context.js';
import { chooseFormat, type Format } from './formats.js';

/**
 * The format the user asked for (-o, --json, SVC_OUTPUT, the profile), else `table`: the human
 * summary, also in CI logs where stdout is not a terminal.
 */
export function askedFormat(ctx: IoContext & { profile(): { output?: string } | undefined }): Format {
  return chooseFormat({
    output: ctx.globals.output,
    json: ctx.globals.json,
    jq: ctx.globals.jq !== undefined,
    env: ctx.env.SVC_OUTPUT,
    profile: () => ctx.profile()?.output,
    stdoutIsTTY: true,
  });
}
