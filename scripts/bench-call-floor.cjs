'use strict';
// The floor of any node CLI making svc's one call: `issues search -o json` written against node:http
// alone (no argument parsing, config, validation or retries): POST the body, parse the answer, print
// it compactly. npm run bench times it beside svc, so the one-call ratio can be read against it.
const http = require('node:http');

const env = process.env;
const body = JSON.stringify({});
const req = http.request(`${env.SVC_BASE_URL}/api/v1/issues/search`, {
  method: 'POST',
  headers: {
    'content-type': 'application/json',
    'x-service-api-token-id': env.SVC_API_TOKEN_ID,
    'x-service-api-token-secret': env.SVC_API_TOKEN_SECRET,
  },
}, (res) => {
  const chunks = [];
  res.on('data', (c) => chunks.push(c));
  res.on('end', () => {
    if (res.statusCode !== 200) process.exit(1);
    process.stdout.write(`${JSON.stringify(JSON.parse(Buffer.concat(chunks).toString('utf8')))}\n`);
  });
});
req.on('error', () => process.exit(1));
req.end(body);
