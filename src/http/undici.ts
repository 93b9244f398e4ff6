/**
 * The parts of undici svc uses, required one by one: the package's index pulls in fetch, WebSocket,
 * caches and mocks, which cost ~25 ms of start-up on every call for nothing.
 */
import { setFlagsFromString } from 'node:v8';
import type { Dispatcher } from 'undici';
import AgentModule from 'undici/lib/dispatcher/agent.js';
import EnvHttpProxyAgentModule from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import apiRequest from 'undici/lib/api/api-request.js';

// undici parses HTTP with a WebAssembly module. V8 re-compiles it with its optimizing tier in the
// background, and node waits for that before exiting: ~70 ms on every call for code that runs once.
setFlagsFromString('--no-wasm-tier-up');

export type { Dispatcher };
export const Agent = AgentModule as unknown as typeof import('undici').Agent;
export const EnvHttpProxyAgent = EnvHttpProxyAgentModule as unknown as typeof import('undici').EnvHttpProxyAgent;

/** `dispatcher.request(...)`, without patching undici's Dispatcher prototype. */
export function request(dispatcher: Dispatcher, url: string, opts: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>): Promise<Dispatcher.ResponseData> {
  const u = new URL(url);
  return (apiRequest as unknown as (this: Dispatcher, o: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>)
    .call(dispatcher, { ...opts, origin: u.origin, path: u.pathname + u.search });
}
