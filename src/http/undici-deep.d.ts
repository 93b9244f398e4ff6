// Deep CommonJS modules of undici (see undici.ts); typed there from undici's own declarations.
declare module 'undici/lib/dispatcher/agent.js' { const Agent: unknown; export default Agent; }
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' { const EnvHttpProxyAgent: unknown; export default EnvHttpProxyAgent; }
declare module 'undici/lib/api/api-request.js' { const request: unknown; export default request; }
