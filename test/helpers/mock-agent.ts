/**
 * An undici MockAgent for in-process command tests (Host.dispatcher): svc sends its requests to it,
 * it answers what the test intercepts and refuses anything else (no network).
 */
import { afterEach, beforeEach } from 'vitest';
import { MockAgent } from 'undici';

/** The base URL the mocked service answers on. */
export const MOCK_BASE = 'https://api.svc.test';
/** The environment that points svc at it, with a token. */
export const MOCK_ENV = { SVC_BASE_URL: MOCK_BASE, SVC_API_TOKEN_ID: 'tid_1', SVC_API_TOKEN_SECRET: 'secret-1' };

/**
 * For a test file: a fresh MockAgent for each test, returned by the getter; after the test every
 * interception must have been used (a request svc failed to send fails the test) and it is closed.
 */
export function useMockAgent(): () => MockAgent {
  let agent: MockAgent | undefined;
  beforeEach(() => {
    agent = new MockAgent();
    agent.disableNetConnect();
  });
  afterEach(async () => {
    const a = agent!;
    agent = undefined;
    try { a.assertNoPendingInterceptors(); } finally { await a.close(); }
  });
  return () => {
    if (!agent) throw new Error('useMockAgent: the agent exists only inside a test');
    return agent;
  };
}
