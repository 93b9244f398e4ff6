/**
 * Run the built bin on a pseudo-terminal (python3's pty module: no native node dependency), answer
 * prompts as a person would, and return everything the terminal showed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { BIN, cleanEnv } from './run-svc.js';

const DRIVER = String.raw`
import fcntl, json, os, pty, select, signal, struct, sys, termios, time
spec = json.loads(sys.argv[1])
pid, fd = pty.fork()
if pid == 0:
    os.chdir(spec['cwd'])
    os.execve(spec['argv'][0], spec['argv'], spec['env'])
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', spec['rows'], spec['cols'], 0, 0))
out = b''
pos = 0
steps = spec['steps']
deadline = time.time() + spec['timeout']
while time.time() < deadline:
    # Wakes only for output (or the deadline): a step waits for text, so there is nothing to do between.
    ready, _, _ = select.select([fd], [], [], max(0, deadline - time.time()))
    if fd in ready:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    while steps:
        at = out.find(steps[0][0].encode(), pos)
        if at < 0:
            break
        pos = at + len(steps[0][0])
        time.sleep(0.05)
        keys = steps[0][1]
        if keys.startswith('\x00resize:'):
            cols, rows = (int(n) for n in keys[len('\x00resize:'):].split('x'))
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack('HHHH', rows, cols, 0, 0))
            os.kill(pid, signal.SIGWINCH)
        else:
            os.write(fd, keys.encode())
        steps.pop(0)
else:
    os.kill(pid, 9)
_, status = os.waitpid(pid, 0)
print(json.dumps({'output': out.decode('utf8', 'replace'), 'code': os.waitstatus_to_exitcode(status), 'unanswered': [s[0] for s in steps]}))
`;

export interface PtyResult {
  /** Everything written to the terminal (stdout and stderr, and the echo of what was typed). */
  output: string;
  code: number;
  /** Prompts that never appeared. */
  unanswered: string[];
}

/**
 * The driver runs with `-I -S`: it needs only the standard library, and without `site` (the
 * site-packages' .pth files: one on this machine imports certifi) the interpreter starts in ~0.02
 * CPU-s instead of ~0.07, on each of the suite's ~40 pty runs. `-I` keeps PYTHON* variables and the
 * working folder off its path.
 *
 * The interpreter `python3` on PATH runs, asked once per worker: where `python3` is a version
 * manager's shim (pyenv's is a bash script that runs a dozen more), each driver started through it
 * cost ~0.1 s more CPU and ~0.3 s more wall than the interpreter itself. undefined: no python3.
 */
let python: string | null | undefined;
function python3(): string | undefined {
  if (python === undefined) {
    const r = spawnSync('python3', ['-I', '-S', '-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
    python = r.status === 0 && r.stdout.trim() ? r.stdout.trim() : null;
  }
  return python ?? undefined;
}

export function ptyAvailable(): boolean {
  if (python3()) return true;
  if (process.env.CI) throw new Error('python3 is not installed, but CI is set: .ci/run installs it');
  return false;
}

/** `steps`: [text to wait for, keys to type] in order; keys `resize(cols, rows)` resize the terminal instead (SIGWINCH). */
/** `cols`/`rows`: the terminal's size (default 100 x 24). `command`: run this argv instead of svc (`args` then unused). */
export function runOnPty(args: string[], steps: Array<[string, string]>, opts: { env?: Record<string, string | undefined>; cwd?: string; timeoutMs?: number; cols?: number; rows?: number; command?: string[] } = {}): Promise<PtyResult> {
  const spec = {
    argv: opts.command ?? [process.execPath, BIN, ...args],
    env: { ...cleanEnv(opts.env), TERM: 'xterm' },
    cwd: opts.cwd ?? process.cwd(),
    steps,
    cols: opts.cols ?? 100,
    rows: opts.rows ?? 24,
    timeout: (opts.timeoutMs ?? 15_000) / 1000,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(python3() ?? 'python3', ['-I', '-S', '-c', DRIVER, JSON.stringify(spec)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`pty driver failed (${code}): ${stderr}`));
      resolve(JSON.parse(stdout) as PtyResult);
    });
  });
}

/** A step's keys that resize the terminal to cols x rows (the program gets SIGWINCH). */
export function resize(cols: number, rows: number): string {
  return `\u0000resize:${cols}x${rows}`;
}
