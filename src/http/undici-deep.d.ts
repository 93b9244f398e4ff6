// Deep CommonJS modules of undici (see undici.ts); typed there from undici's own declarations.
declare module 'undici/lib/dispatcher/agent.js' { const Agent: unknown; export default Agent; }
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' { const EnvHttpProxyAgent: unknown; export default EnvHttpProxyAgent; }
declare module 'undici/lib/dispatcher/dispatcher.js' { const Dispatcher: { prototype: object }; export default Dispatcher; }
declare module 'undici/lib/api/index.js' { const api: Record<string, unknown>; export default api; }
