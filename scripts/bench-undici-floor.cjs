'use strict';
// The undici floor of svc's one call: `issues search -o json` through undici's Agent and request()
// alone (no argument parsing, config, validation or retries), the parts of undici svc requires (see
// src/http/undici-parts.cjs). npm run bench bundles it with svc's own patches of undici and loads it
// through a V8 code cache as bin/svc.js loads svc, then times it beside svc and the node:http floor
// (bench-call-floor.cjs): what undici itself costs a call, which svc's design requires.
const Agent = require('undici/lib/dispatcher/agent.js');
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');

Dispatcher.prototype.request = require('undici/lib/api/api-request.js');

module.exports = async function call() {
  const env = process.env;
  const url = new URL(`${env.SVC_BASE_URL}/api/v1/issues/search`);
  const res = await new Agent().request({
    origin: url.origin,
    path: url.pathname,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-service-api-token-id': env.SVC_API_TOKEN_ID,
      'x-service-api-token-secret': env.SVC_API_TOKEN_SECRET,
    },
    body: JSON.stringify({}),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200) process.exit(1);
  // Leave once the output is written, as svc does (the agent's idle connection would keep node alive).
  process.stdout.write(`${JSON.stringify(JSON.parse(text))}\n`, () => process.exit(0));
};
