/**
 * The spinner: progress on stderr. On a terminal (and not under CI or --verbose) a spinner whose
 * text is updated in place. In a CI job (src/ci/detect.ts) no spinner: `update` writes the latest
 * text as a plain line every few seconds, so a long job shows it is alive. Elsewhere (a pipe, a
 * file) `update` is silent and only `line` writes. Commands reach it through the context
 * (`ctx.progress`, `ctx.spin`).
 */
import { detectCi } from '../ci/detect.js';
import { givenWidth, type Env, type IO } from '../core/host.js';
import { tracked } from './spinners.js';
import { useColor } from '../output/formats.js';

/** What the spinner needs of the context. */
interface ProgressHost {
  io: IO;
  env: Env;
  globals: { verbose?: boolean; ci?: boolean; color?: boolean };
  now(): number;
  note(line: string): void;
}

/** How often a CI job gets a progress line. */
const CI_PROGRESS_EVERY_MS = 5_000;

export interface Progress {
  /** True when a spinner is drawn (stderr is a terminal). */
  readonly live: boolean;
  /** Replace the spinner text (nothing when not live). */
  update(text: string): void;
  /** A line of its own on stderr, live or not. */
  line(text: string): void;
  /** Run `fn` (which writes to the terminal) with the spinner taken down, then draw it again. */
  around(fn: () => Promise<void>): Promise<void>;
  stop(): void;
}

function isLive(ctx: Pick<ProgressHost, 'io' | 'env' | 'globals'>): boolean {
  // A terminal that reports no width, or 0 columns (some pseudo-terminals, `script` without a
  // size), sends ora into an endless redraw loop.
  const columns = givenWidth((ctx.io.stderr as { columns?: unknown }).columns);
  // stdout to a pipe: its reader may print to the same terminal, into the spinner's line.
  return ctx.io.stderrIsTTY && !!columns && !ctx.globals.verbose && !inCi(ctx) && !ctx.io.stdoutIsPipe;
}

function inCi(ctx: Pick<ProgressHost, 'env' | 'globals'>): boolean {
  return detectCi(ctx.env, { disabled: ctx.globals.ci === false }) !== undefined;
}

export async function startProgress(ctx: ProgressHost, text: string): Promise<Progress> {
  if (!isLive(ctx)) {
    if (!inCi(ctx)) return { live: false, update: () => {}, line: (l) => ctx.note(l), around: (fn) => fn(), stop: () => {} };
    let last = ctx.now();
    return {
      live: false,
      update: (t) => {
        const now = ctx.now();
        if (now - last < CI_PROGRESS_EVERY_MS) return;
        last = now;
        ctx.note(t);
      },
      line: (l) => ctx.note(l),
      around: (fn) => fn(),
      stop: () => {},
    };
  }
  // ora (and its chalk, cli-cursor, spinners) is evaluated only when a spinner is shown on a terminal.
  const { ora } = await import('./ora-function.js');
  // NO_COLOR and --no-color hold for the spinner as for everything else on stderr.
  const color = useColor({ flag: ctx.globals.color, env: ctx.env, isTTY: true }) ? 'cyan' : false;
  const spinner = tracked(ora({ text, stream: ctx.io.stderr, color, isEnabled: true, discardStdin: false }).start());
  return {
    live: true,
    update: (t) => { spinner.text = t; },
    line: (l) => { spinner.clear(); ctx.note(l); spinner.render(); },
    around: async (fn) => { spinner.clear(); try { await fn(); } finally { if (spinner.isSpinning) spinner.render(); } },
    stop: () => { spinner.stop(); },
  };
}

/** 12345 -> "12,345" (what toLocaleString('en-US') gives, without the ~10 ms it takes to set up ICU). */
export function count(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Seconds as "45s", "3m 05s", "1h 02m". */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}
