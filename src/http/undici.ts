/**
 * The parts of undici svc uses, required one by one: the package's index pulls in fetch, WebSocket,
 * caches and mocks, which cost ~25 ms of start-up on every call for nothing.
 */
import { setFlagsFromString } from 'node:v8';
import type { Dispatcher } from 'undici';
import AgentModule from 'undici/lib/dispatcher/agent.js';
import EnvHttpProxyAgentModule from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import DispatcherModule from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';

// undici parses HTTP with a WebAssembly module. V8 re-compiles it with its optimizing tier in the
// background, and node waits for that before exiting: ~70 ms on every call for code that runs once.
setFlagsFromString('--no-wasm-tier-up');

// What undici's index does: give every dispatcher request(), connect() and friends. The proxy agent
// relies on connect() for CONNECT tunnels.
Object.assign((DispatcherModule as { prototype: object }).prototype, api);

export type { Dispatcher };
export const Agent = AgentModule as unknown as typeof import('undici').Agent;
export const EnvHttpProxyAgent = EnvHttpProxyAgentModule as unknown as typeof import('undici').EnvHttpProxyAgent;

/** `request(url, {dispatcher, ...})` of undici's index, as a call on the dispatcher. */
export function request(dispatcher: Dispatcher, url: string, opts: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>): Promise<Dispatcher.ResponseData> {
  const u = new URL(url);
  return dispatcher.request({ ...opts, origin: u.origin, path: u.pathname + u.search });
}
