/**
 * The spinners on screen, so that a process that must leave at once (the reader of stdout went
 * away, a second Ctrl-C) can erase them first instead of leaving a spinner line behind.
 */
interface Stoppable { stop(): unknown }

const live = new Set<Stoppable>();

/** Track a started spinner until its own stop(). */
export function tracked<T extends Stoppable>(spinner: T): T {
  live.add(spinner);
  const stop = spinner.stop.bind(spinner);
  spinner.stop = () => {
    live.delete(spinner);
    return stop();
  };
  return spinner;
}

/** Stop (and so erase) every spinner still drawn. */
export function eraseSpinners(): void {
  for (const spinner of [...live]) {
    try { spinner.stop(); } catch { /* the terminal is gone too */ }
  }
}
