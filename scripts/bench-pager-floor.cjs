'use strict';
// The floor of any node program doing what `svc issues search --all -o ndjson` does: every page of
// the issue search written against node:http alone (one kept-alive connection, a page at a time,
// 500 issues a page in createdAt order as svc asks), each page parsed and its items printed one per
// line. No argument parsing, config, retries, duplicate checks or total checks beyond the count.
// npm run bench times it beside svc's --all, so that ratio can be read against it.
const http = require('node:http');

const env = process.env;
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const PAGE_SIZE = 500;

function page(n) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${env.SVC_BASE_URL}/api/v1/issues/search`, {
      method: 'POST', agent,
      headers: {
        'content-type': 'application/json',
        'x-service-api-token-id': env.SVC_API_TOKEN_ID,
        'x-service-api-token-secret': env.SVC_API_TOKEN_SECRET,
      },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        if (res.statusCode !== 200) return reject(new Error(`HTTP ${res.statusCode}`));
        resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      });
    });
    req.on('error', reject);
    req.end(JSON.stringify({ page: n, pageSize: PAGE_SIZE, sortBy: 'createdAt', sortOrder: 'asc' }));
  });
}

(async () => {
  let written = 0;
  for (let n = 1; ; n++) {
    const answer = await page(n);
    let text = '';
    for (const item of answer.issues) text += `${JSON.stringify(item)}\n`;
    written += answer.issues.length;
    if (!process.stdout.write(text)) await new Promise((r) => process.stdout.once('drain', r));
    if (answer.issues.length === 0 || written >= answer.totalCount) break;
  }
  agent.destroy();
})().catch((err) => { process.stderr.write(`${err.message}\n`); process.exit(1); });
