import type { Agent, EnvHttpProxyAgent } from 'undici';

declare const parts: {
  Agent: typeof Agent;
  /** The proxy agent's class, loaded on this call. */
  EnvHttpProxyAgent(): typeof EnvHttpProxyAgent;
};
export = parts;
