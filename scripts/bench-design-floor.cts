// The design floor of svc's one call: `issues search -o json` made by the libraries the design card
// fixes and nothing else of svc's. commander parses the command line (a program with this one
// command), the search row of the operation table checks the body and the answer with its zod
// schemas, undici makes the call (the undici floor's request, bench-undici-floor.cjs). No config
// file, credentials check, retries, distrust checks of the answer, output formats or exit codes.
// npm run bench bundles and loads it as the undici floor and times it beside svc: what remains
// between it and svc is svc's own work; what lies between it and the node:http floor
// (bench-call-floor.cjs) is the libraries'.
import { Command } from 'commander';
import { issues } from '../src/operations/issues.js';

const floor = require('./bench-undici-floor.cjs') as {
  search(body: string): Promise<{ status: number; text: string }>;
  print(data: unknown): void;
};

module.exports = async function call(): Promise<void> {
  const op = issues.find((o) => o.name === 'search')!;
  let output = 'table';
  const program = new Command('svc');
  program.command('issues').command('search').option('-o, --output <format>').option('--page <n>').option('--page-size <n>')
    .action((o: { output?: string }) => { output = o.output ?? output; });
  program.parse(process.argv);
  const { status, text } = await floor.search(JSON.stringify(op.request.parse({})));
  if (status !== 200 || output !== 'json') process.exit(1);
  floor.print(op.response.parse(JSON.parse(text)));
};
