import type { Context } from '../context.js';

/** Runs a command's run step with a Context built from the parsed global options. */
export type Runner = (fn: (ctx: Context) => Promise<void>) => Promise<void>;
