/** Terminal prompts: a line, a hidden secret, a yes/no confirmation. Only used when stdin is a terminal. */
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { IO } from '../core/host.js';
import { InterruptedError } from '../core/errors.js';

export function promptLine(io: IO, question: string, hidden = false): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _enc, done) {
      if (!muted) io.stderr.write(chunk);
      done();
    },
  });
  const rl = createInterface({ input: io.stdin, output, terminal: true });
  return new Promise((resolve, reject) => {
    rl.on('SIGINT', () => { rl.close(); io.stderr.write('\n'); reject(new InterruptedError('SIGINT')); });
    rl.question(question, (answer) => {
      rl.close();
      if (hidden) io.stderr.write('\n');
      resolve(answer.trim());
    });
    muted = hidden;
  });
}

export async function confirm(io: IO, question: string): Promise<boolean> {
  const answer = await promptLine(io, `${question} [y/N] `);
  return /^y(es)?$/i.test(answer);
}
