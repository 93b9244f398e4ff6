/**
 * Listening for an abort without node's EventTarget where svc can. A process's first
 * `addEventListener` (and `removeEventListener`) on an AbortSignal compiles some twenty functions of
 * node's own event_target.js, ~2 M instructions, and a plain API call would pay them only to learn
 * of a Ctrl-C that does not come: the client listens to the interrupt signal while a request is out,
 * and undici to each request's signal.
 *
 * So the process's interrupt signal (entry.ts) keeps the listeners that `onAbort()` adds in a list of
 * svc's own, run by `abortListed()` right after the signal is aborted; listeners of any other signal
 * (tests', the bulk engine's) are added to the signal itself. And a request's abort is an
 * `AttemptAbort`, which undici takes as its `signal`.
 */

/** The listeners onAbort() added to a listed signal, by signal. */
const lists = new WeakMap<AbortSignal, Set<() => void>>();

/** A controller whose signal's onAbort() listeners are kept in a list: abort it with abortListed(). */
export function listedController(): AbortController {
  const controller = new AbortController();
  lists.set(controller.signal, new Set());
  return controller;
}

/** Aborts a controller of listedController(): its signal's own listeners, then those onAbort() listed (each once). */
export function abortListed(controller: AbortController, reason: unknown): void {
  const wasAborted = controller.signal.aborted;
  controller.abort(reason);
  const list = lists.get(controller.signal);
  if (wasAborted || !list) return;
  const listeners = [...list];
  list.clear();
  // As EventTarget does: a listener that throws does not keep the others from running.
  for (const f of listeners) {
    try {
      f();
    } catch (err) {
      queueMicrotask(() => { throw err; });
    }
  }
}

/**
 * Calls `f` once when `signal` is aborted (never when it already is, as addEventListener); returns
 * what stops listening.
 */
export function onAbort(signal: AbortSignal, f: () => void): () => void {
  const list = lists.get(signal);
  if (list) {
    if (!signal.aborted) list.add(f);
    return () => { list.delete(f); };
  }
  signal.addEventListener('abort', f, { once: true });
  return () => signal.removeEventListener('abort', f);
}

/**
 * One request's abort, handed to undici as the request's `signal`: undici takes any object with
 * `aborted`, `reason` and add/removeEventListener (its api-request.js and abort-signal.js, through
 * util.addAbortListener), and an AbortController would make node compile its EventTarget (above).
 */
export class AttemptAbort {
  aborted = false;
  reason: unknown = undefined;
  private listeners: Array<() => void> = [];

  /** What undici is given as the request's signal. */
  get signal(): AbortSignal {
    return this as unknown as AbortSignal;
  }

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const listeners = this.listeners;
    this.listeners = [];
    for (const f of listeners) f();
  }

  addEventListener(type: string, f: () => void): void {
    if (type === 'abort' && !this.aborted && !this.listeners.includes(f)) this.listeners.push(f);
  }

  removeEventListener(type: string, f: () => void): void {
    if (type === 'abort') this.listeners = this.listeners.filter((g) => g !== f);
  }
}
