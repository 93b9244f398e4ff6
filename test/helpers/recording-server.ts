/** A node:http server on 127.0.0.1 that records every request and answers from a route table. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
  raw: string;
}

export type Reply =
  | { status?: number; json?: unknown; text?: string; headers?: Record<string, string>; delayMs?: number }
  | ((req: Recorded, res: ServerResponse) => void);

export interface RecordingServer {
  url: string;
  requests: Recorded[];
  /** Answer for a path (`/api/v1/issues/search`); the default is `{ ok: true }`. */
  route(path: string, reply: Reply): void;
  close(): Promise<void>;
}

export async function startRecordingServer(defaultReply: Reply = { json: { ok: true } }): Promise<RecordingServer> {
  const routes = new Map<string, Reply>();
  const requests: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try { body = raw ? JSON.parse(raw) : undefined; } catch { /* keep the text */ }
      const rec: Recorded = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, raw };
      requests.push(rec);
      const reply = routes.get(rec.path) ?? defaultReply;
      if (typeof reply === 'function') return reply(rec, res);
      const send = () => {
        res.writeHead(reply.status ?? 200, { 'content-type': reply.text !== undefined ? 'text/plain' : 'application/json', ...reply.headers });
        res.end(reply.text ?? JSON.stringify(reply.json ?? { ok: true }));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    route: (path, reply) => routes.set(path, reply),
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
