// The design floor of svc's one call: `issues search -o json` made by the libraries the design card
// fixes and nothing else of svc's. commander parses the command line (a program with this one
// command), the search row of the operation table checks the body and the answer with its zod
// schemas, undici's Agent makes the call (the parts svc requires, src/http/undici-parts.cjs). No
// config file, credentials check, retries, distrust checks of the answer, output formats or exit
// codes. npm run bench bundles and loads it as the undici floor (bench-undici-floor.cjs) and times
// it beside svc: what remains between it and svc is svc's own work; what lies between it and the
// node:http floor (bench-call-floor.cjs) is the libraries'.
import { Command } from 'commander';
import { issues } from '../src/operations/issues.js';

const Agent = require('undici/lib/dispatcher/agent.js');
const Dispatcher = require('undici/lib/dispatcher/dispatcher.js');

Dispatcher.prototype.request = require('undici/lib/api/api-request.js');

module.exports = async function call(): Promise<void> {
  const env = process.env;
  const op = issues.find((o) => o.name === 'search')!;
  let output = 'table';
  const program = new Command('svc');
  program.command('issues').command('search').option('-o, --output <format>').option('--page <n>').option('--page-size <n>')
    .action((o: { output?: string }) => { output = o.output ?? output; });
  program.parse(process.argv);
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
    body: JSON.stringify(op.request.parse({})),
  });
  const text = await res.body.text();
  if (res.statusCode !== 200 || output !== 'json') process.exit(1);
  // Leave once the output is written, as svc does (the agent's idle connection would keep node alive).
  process.stdout.write(`${JSON.stringify(op.response.parse(JSON.parse(text)))}\n`, () => process.exit(0));
};
