'use strict';
// The parts of undici svc uses, required one by one: the package's index pulls in fetch, WebSocket,
// caches and mocks, which cost ~25 ms of start-up on every call for nothing.
const Agent = require('undici/lib/dispatcher/agent.js');
// Loaded by the agent anyway (its default factory): svc makes the proxy agent's pools itself.
const Pool = require('undici/lib/dispatcher/pool.js');
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');
// Loaded by the agent's clients anyway: svc wraps the connector to check where a socket went.
const buildConnector = require('undici/lib/core/connect.js');
const { kParser } = require('undici/lib/core/symbols.js');

// What undici's index does (lib/api/index.js): give every dispatcher request(), connect() and
// friends. request() is what svc calls; the others are loaded on their first call (the proxy agent
// uses connect() for CONNECT tunnels).
const proto = Dispatcher.prototype;
proto.request = require('undici/lib/api/api-request.js');
proto.stream = function stream (...args) { return require('undici/lib/api/api-stream.js').apply(this, args); };
proto.pipeline = function pipeline (...args) { return require('undici/lib/api/api-pipeline.js').apply(this, args); };
proto.upgrade = function upgrade (...args) { return require('undici/lib/api/api-upgrade.js').apply(this, args); };
proto.connect = function connect (...args) { return require('undici/lib/api/api-connect.js').apply(this, args); };

module.exports = {
  Agent,
  Pool,
  buildConnector,
  kParser,
  // Only when a proxy is configured: it brings the SOCKS and proxy code with it.
  EnvHttpProxyAgent: () => require('undici/lib/dispatcher/env-http-proxy-agent.js'),
};
