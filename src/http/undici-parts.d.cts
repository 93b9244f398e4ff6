import type { Agent, EnvHttpProxyAgent, Pool, buildConnector } from 'undici';

declare const parts: {
  Agent: typeof Agent;
  Pool: typeof Pool;
  buildConnector: typeof buildConnector;
  kParser: symbol;
  /** The proxy agent's class, loaded on this call. */
  EnvHttpProxyAgent(): typeof EnvHttpProxyAgent;
};
export = parts;
