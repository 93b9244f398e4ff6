/**
 * Listening for an abort without node's EventTarget (src/core/abort.ts): the process's interrupt
 * signal runs the listeners onAbort() listed when abortListed() aborts it, each once, and still
 * fires its own; any other signal gets the listener itself. AttemptAbort is what undici takes as a
 * request's signal: a request in flight is aborted by it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { AttemptAbort, abortListed, listedController, onAbort } from '../../../src/core/abort.js';
import { Agent, request } from '../../../src/http/undici.js';

describe('onAbort on a listed signal', () => {
  it('runs each listener once, after the signal is aborted, with its own listeners too', () => {
    const c = listedController();
    const seen: string[] = [];
    onAbort(c.signal, () => seen.push(`listed ${String(c.signal.reason)} ${c.signal.aborted}`));
    c.signal.addEventListener('abort', () => seen.push('own'));
    abortListed(c, 'SIGINT');
    abortListed(c, 'SIGTERM');
    expect(seen).toEqual(['own', 'listed SIGINT true']);
    expect(c.signal.reason).toBe('SIGINT');
  });

  it('stops listening when told, and never calls a listener added after the abort', () => {
    const c = listedController();
    let calls = 0;
    const stop = onAbort(c.signal, () => calls++);
    stop();
    abortListed(c, 'SIGINT');
    onAbort(c.signal, () => calls++);
    abortListed(c, 'SIGINT');
    expect(calls).toBe(0);
  });

  it('runs the other listeners when one throws, and reports the error', async () => {
    const c = listedController();
    let ran = false;
    onAbort(c.signal, () => { throw new Error('listener failed'); });
    onAbort(c.signal, () => { ran = true; });
    const reported = new Promise<unknown>((resolve) => {
      const listeners = process.listeners('uncaughtException');
      process.removeAllListeners('uncaughtException');
      process.once('uncaughtException', (err) => {
        for (const l of listeners) process.on('uncaughtException', l);
        resolve(err);
      });
    });
    abortListed(c, 'SIGINT');
    expect(ran).toBe(true);
    expect(String(await reported)).toContain('listener failed');
  });
});

describe('onAbort on any other signal', () => {
  it('listens to the signal itself', () => {
    const c = new AbortController();
    let calls = 0;
    onAbort(c.signal, () => calls++);
    c.abort('x');
    c.abort('y');
    expect(calls).toBe(1);
    const d = new AbortController();
    const stop = onAbort(d.signal, () => calls++);
    stop();
    d.abort();
    expect(calls).toBe(1);
  });
});

describe('AttemptAbort', () => {
  it('calls its listeners once, with aborted and reason set, and not those removed', () => {
    const a = new AttemptAbort();
    const seen: unknown[] = [];
    const gone = () => seen.push('removed');
    a.signal.addEventListener('abort', () => seen.push([a.signal.aborted, a.signal.reason]));
    a.signal.addEventListener('abort', gone);
    a.signal.removeEventListener('abort', gone);
    a.abort('deadline');
    a.abort('again');
    expect(seen).toEqual([[true, 'deadline']]);
  });

  it.each([['in flight', 50], ['before it is sent', -1]])('aborts an undici request %s, with its reason', async (_when, afterMs) => {
    const server = createServer(() => { /* never answers */ });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const agent = new Agent();
    try {
      const a = new AttemptAbort();
      if (afterMs < 0) a.abort(new Error('stopped here'));
      else setTimeout(() => a.abort(new Error('stopped here')), afterMs);
      await expect(request(agent, `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`, { method: 'POST', body: '{}', signal: a.signal })).rejects.toThrow('stopped here');
    } finally {
      await agent.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
