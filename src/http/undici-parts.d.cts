import type { Agent, EnvHttpProxyAgent, buildConnector } from 'undici';

declare const parts: {
  Agent: typeof Agent;
  buildConnector: typeof buildConnector;
  kParser: symbol;
  /** The proxy agent's class, loaded on this call. */
  EnvHttpProxyAgent(): typeof EnvHttpProxyAgent;
};
export = parts;
