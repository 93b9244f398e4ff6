'use strict';
// The parts of undici svc uses, required one by one: the package's index pulls in fetch, WebSocket,
// caches and mocks, which cost ~25 ms of start-up on every call for nothing.
const Agent = require('undici/lib/dispatcher/agent.js');
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');
const api = require('undici/lib/api/index.js');

// What undici's index does: give every dispatcher request(), connect() and friends. The proxy agent
// relies on connect() for CONNECT tunnels.
Object.assign(Dispatcher.prototype, api);

module.exports = {
  Agent,
  // Only when a proxy is configured: it brings the SOCKS and proxy code with it.
  EnvHttpProxyAgent: () => require('undici/lib/dispatcher/env-http-proxy-agent.js'),
};
