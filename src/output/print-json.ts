/** JSON that is not an API response (a gate verdict, settings, auth status) on stdout, and the sink renderers write to. */
import type { IoContext } from './io-context.js';
import { render, type Sink } from './render.js';
import { write } from './write.js';

/** stdout for renderers: long tables are written in chunks that wait for a slow reader and stop on Ctrl-C. */
export function outputSink(ctx: IoContext): Sink {
  return { out: ctx.out, note: ctx.note, warn: ctx.warn, write: (t) => write(ctx.io.stdout, t, ctx.signal), signal: ctx.signal };
}

/** JSON data that is not an API response (a verdict, settings) on stdout, filtered by --jq when given. */
export async function printJson(ctx: IoContext, data: unknown): Promise<void> {
  await render(data, { format: 'json', columns: [], pretty: ctx.io.stdoutIsTTY, color: false, jq: ctx.globals.jq }, outputSink(ctx));
}
