'use strict';
// The undici floor of svc's one call: `issues search -o json` through undici's Agent and request()
// alone (no argument parsing, config, validation or retries), the parts of undici svc requires (see
// src/http/undici-parts.cjs). npm run bench bundles it with svc's own patches of undici and loads it
// through a V8 code cache as bin/svc.js loads svc, then times it beside svc and the node:http floor
// (bench-call-floor.cjs): what undici itself costs a call, which svc's design requires.
const Agent = require('undici/lib/dispatcher/agent.js');
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');

Dispatcher.prototype.request = require('undici/lib/api/api-request.js');

/** POST `body` to the search of the service in the environment; its status and text. */
async function search(body) {
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
    body,
  });
  return { status: res.statusCode, text: await res.body.text() };
}

/** Print the answer's JSON and leave once it is written, as svc does (the agent's idle connection would keep node alive). */
function print(data) {
  process.stdout.write(`${JSON.stringify(data)}\n`, () => process.exit(0));
}

module.exports = async function call() {
  const { status, text } = await search(JSON.stringify({}));
  if (status !== 200) process.exit(1);
  print(JSON.parse(text));
};
// The design floor (bench-design-floor.cts) makes the same request.
module.exports.search = search;
module.exports.print = print;
