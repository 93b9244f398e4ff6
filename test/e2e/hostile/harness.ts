/**
 * The hostile suite's two tools: svc run in-process (the shared runCli), and a loopback server that answers with raw bytes, so that it can break HTTP the way a
 * broken or hostile server does (interim 1xx, 8-bit header bytes, endless bodies).
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { runCli } from '../../helpers/host.js';

export { tempDir } from '../../helpers/temp.js';

export const TOKEN_ID = 'hostile-token-id-0001';
export const TOKEN_SECRET = 'hostile-token-secret-0001';

export interface Ran { code: number; stdout: string; stderr: string }

/** Runs svc in-process (runCli): a fresh config dir unless `env` names one; pipes unless `tty`. */
export async function run(argv: string[], o: { env?: Record<string, string | undefined>; tty?: boolean; stdin?: string; cwd?: string } = {}): Promise<Ran> {
  const r = await runCli(argv, { env: o.env, stdin: o.stdin, cwd: o.cwd, ...(o.tty ? { tty: { stdout: true }, columns: 200 } : {}) });
  return { code: r.code, stdout: r.stdout, stderr: r.stderr };
}

export interface RawRequest { method: string; path: string; headers: Record<string, string>; body: string }
/** Writes the answer to one request on the raw socket (the server closes it afterwards unless told not to). */
export type RawHandler = (req: RawRequest, socket: Socket) => void | 'keep-open';

export interface RawServer { url: string; port: number; requests: RawRequest[]; handle(path: string, h: RawHandler): void; close(): Promise<void> }

/** A loopback (127.0.0.1) server speaking just enough HTTP/1.1 to read requests; answers are raw bytes. */
export async function rawServer(): Promise<RawServer> {
  const handlers = new Map<string, RawHandler>();
  const requests: RawRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buf.subarray(0, end).toString('latin1').split('\r\n');
      const [method, path] = head[0].split(' ');
      const headers = Object.fromEntries(head.slice(1).map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      const length = Number(headers['content-length'] ?? 0);
      if (buf.length < end + 4 + length) return;
      const req = { method, path, headers, body: buf.subarray(end + 4, end + 4 + length).toString('utf8') };
      buf = buf.subarray(end + 4 + length);
      requests.push(req);
      const h = handlers.get(path) ?? ((_r, s) => s.end(response(200, '{"ok":true}')));
      if (h(req, socket) !== 'keep-open') socket.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`, port, requests,
    handle: (path, h) => handlers.set(path, h),
    close: () => new Promise((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }),
  };
}

/** A complete HTTP/1.1 response (Connection: close) as bytes; `extra` is raw header text. */
export function response(status: number, body: string | Buffer = '', extra = '', type = 'application/json'): Buffer {
  const b = typeof body === 'string' ? Buffer.from(body) : body;
  return Buffer.concat([Buffer.from(`HTTP/1.1 ${status} X\r\ncontent-type: ${type}\r\ncontent-length: ${b.length}\r\nconnection: close\r\n${extra}\r\n`, 'latin1'), b]);
}

/** The environment of a run against `url` with a token from the environment. */
export function envFor(url: string, more: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  return { SVC_BASE_URL: url, SVC_API_TOKEN_ID: TOKEN_ID, SVC_API_TOKEN_SECRET: TOKEN_SECRET, SVC_ORGANIZATION_ID: 'org_1', ...more };
}
