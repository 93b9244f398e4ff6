/**
 * undici, as svc uses it: the agent, the proxy agent (its code runs only when a proxy is configured)
 * and request(). The parts are required one by one in undici-parts.cjs: the package's index pulls in
 * fetch, WebSocket, caches and mocks.
 */
import type { Dispatcher, buildConnector as BuildConnector } from 'undici';
import parts from './undici-parts.cjs';

export type { Dispatcher };
export const Agent = parts.Agent;
export const Pool = parts.Pool;
export const buildConnector: typeof BuildConnector = parts.buildConnector;
/** The symbol under which undici keeps a socket's HTTP/1.1 parser. */
export const kParser: symbol = parts.kParser;

/** undici's EnvHttpProxyAgent, whose code is only run when a proxy is configured. */
export function envHttpProxyAgent(opts: ConstructorParameters<ReturnType<typeof parts.EnvHttpProxyAgent>>[0]): Dispatcher {
  return new (parts.EnvHttpProxyAgent())(opts);
}

/** `request(url, {dispatcher, ...})` of undici's index, as a call on the dispatcher. */
export function request(dispatcher: Dispatcher, url: string, opts: Omit<Dispatcher.RequestOptions, 'origin' | 'path'>): Promise<Dispatcher.ResponseData> {
  const u = new URL(url);
  return dispatcher.request({ ...opts, origin: u.origin, path: u.pathname + u.search });
}
