/**
 * TLS and proxies, end to end: a private CA made with openssl at test time, an https loopback
 * server, and a small forward/CONNECT proxy of our own on 127.0.0.1 that records its use.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/host.js';
// NODE_EXTRA_CA_CERTS is read by node at start-up: the tests that trust the private CA spawn the built bin.
import { runSvc } from '../helpers/run-svc.js';
import { startFakeServer, type FakeServer } from '../helpers/fake-server.js';
import { tempDir } from '../helpers/temp.js';

const SECRET = 'network-secret-31ab9c';
const READ = ['orgs', 'list', '-o', 'json'];
const PATH = '/api/v1/orgs/list';
const creds = { SVC_API_TOKEN_ID: 'id-0001', SVC_API_TOKEN_SECRET: SECRET };

/** A CA and two server certificates signed by it: one for 127.0.0.1 / localhost, one for another name only. */
function makeCertificates(): { caFile: string; key: string; cert: string; otherKey: string; otherCert: string } {
  const dir = tempDir('svc-tls-');
  const f = (n: string) => join(dir, n);
  const ssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  ssl('req', '-x509', ...ec, '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '2', '-subj', '/CN=svc test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign');
  const leaf = (name: string, san: string) => {
    ssl('req', ...ec, '-keyout', f(`${name}.key`), '-out', f(`${name}.csr`), '-subj', `/CN=${name}`);
    writeFileSync(f(`${name}.cnf`), `subjectAltName=${san}\nextendedKeyUsage=serverAuth\n`);
    ssl('x509', '-req', '-in', f(`${name}.csr`), '-CA', f('ca.pem'), '-CAkey', f('ca.key'), '-CAcreateserial', '-out', f(`${name}.pem`), '-days', '2', '-extfile', f(`${name}.cnf`));
    return [readFileSync(f(`${name}.key`), 'utf8'), readFileSync(f(`${name}.pem`), 'utf8')];
  };
  const [key, cert] = leaf('server', 'IP:127.0.0.1,DNS:localhost');
  const [otherKey, otherCert] = leaf('other', 'DNS:api.other.example');
  return { caFile: f('ca.pem'), key, cert, otherKey, otherCert };
}

interface Proxy { url: string; used: string[]; close(): Promise<void> }

/** A forward proxy (absolute-URI requests) that also tunnels CONNECT, recording each use. */
async function startProxy(): Promise<Proxy> {
  const used: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    used.push(`${req.method} ${req.url}`);
    const target = new URL(req.url ?? '');
    const upstream = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: req.method, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on('error', () => { res.writeHead(502); res.end(); });
    req.pipe(upstream);
  });
  server.on('connect', (req, client: Socket, head: Buffer) => {
    used.push(`CONNECT ${req.url}`);
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  server.on('connection', (s: Socket) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    used,
    close: () => new Promise((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }),
  };
}

let tls: ReturnType<typeof makeCertificates>;
let https: FakeServer;
let http: FakeServer;
let proxy: Proxy;

beforeAll(async () => {
  tls = makeCertificates();
  https = await startFakeServer({ tls: { key: tls.key, cert: tls.cert } });
  http = await startFakeServer();
  proxy = await startProxy();
  for (const s of [https, http]) s.stub(PATH, [{ kind: 'ok', json: [{ id: 'org_1', name: 'Acme' }] }]);
});
afterAll(async () => { await Promise.all([https.close(), http.close(), proxy.close()]); });

describe('TLS with a private certificate authority', () => {
  it('without NODE_EXTRA_CA_CERTS: exit 6, one clear line, nothing sent, not retried', async () => {
    const before = https.requests.length;
    const r = await runCli(READ, { env: { ...creds, SVC_BASE_URL: https.url, NODE_EXTRA_CA_CERTS: undefined } });
    expect(r.code).toBe(6);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^svc: error: orgs\/list: TLS failure talking to https:\/\/127\.0\.0\.1:\d+: the server's certificate is not trusted \((UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_GET_ISSUER_CERT_LOCALLY)\); for a private certificate authority or a TLS-inspecting proxy, set NODE_EXTRA_CA_CERTS to its PEM file$/),
    ]);
    expect(https.requests.length).toBe(before);
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });

  it('with NODE_EXTRA_CA_CERTS: works', async () => {
    const r = await runSvc(READ, { env: { ...creds, SVC_BASE_URL: https.url, NODE_EXTRA_CA_CERTS: tls.caFile } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ id: 'org_1', name: 'Acme' }]);
  });

  it('a trusted certificate for another name fails clearly, and is not retried', async () => {
    const other = await startFakeServer({ tls: { key: tls.otherKey, cert: tls.otherCert } });
    const r = await runSvc(READ, { env: { ...creds, SVC_BASE_URL: other.url, NODE_EXTRA_CA_CERTS: tls.caFile } });
    await other.close();
    expect(r.code).toBe(6);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/the certificate is for another host name \(ERR_TLS_CERT_ALTNAME_INVALID\); check the host in the base URL$/)]);
    expect(other.requests).toHaveLength(0);
  });

  it('https:// to a plain http server says so', async () => {
    const r = await runCli(READ, { env: { ...creds, SVC_BASE_URL: http.url.replace('http:', 'https:') } });
    expect(r.code).toBe(6);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/TLS failure .*not speak TLS on this port/)]);
  });
});

describe('proxies (HTTPS_PROXY, HTTP_PROXY, NO_PROXY)', () => {
  it('https:// goes through HTTPS_PROXY with CONNECT (and TLS end to end)', async () => {
    proxy.used.length = 0;
    const r = await runSvc(READ, { env: { ...creds, SVC_BASE_URL: https.url, HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: tls.caFile } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(proxy.used).toEqual([`CONNECT 127.0.0.1:${https.port}`]);
  });

  it('http:// goes through HTTP_PROXY as a forward request (proxy on loopback, so clear text stays on this machine)', async () => {
    proxy.used.length = 0;
    const before = http.hits(PATH);
    const r = await runCli(READ, { env: { ...creds, SVC_BASE_URL: http.url, http_proxy: proxy.url } });
    expect(r.code).toBe(0);
    expect(proxy.used).toEqual([`POST ${http.url}${PATH}`]);
    expect(http.hits(PATH)).toBe(before + 1);
  });

  it('NO_PROXY bypasses the proxy', async () => {
    proxy.used.length = 0;
    const before = http.hits(PATH);
    for (const noProxy of ['127.0.0.1', `127.0.0.1:${http.port}`, '*', 'example.com, 127.0.0.1']) {
      const r = await runCli(READ, { env: { ...creds, SVC_BASE_URL: http.url, HTTP_PROXY: proxy.url, NO_PROXY: noProxy } });
      expect(r.code, noProxy).toBe(0);
    }
    expect(proxy.used).toEqual([]);
    expect(http.hits(PATH)).toBe(before + 4);
  });

  it('a NO_PROXY entry for another port does not bypass it', async () => {
    proxy.used.length = 0;
    const r = await runCli(READ, { env: { ...creds, SVC_BASE_URL: http.url, HTTP_PROXY: proxy.url, NO_PROXY: `127.0.0.1:${http.port + 1}` } });
    expect(r.code).toBe(0);
    expect(proxy.used).toHaveLength(1);
  });

  it('a proxy that is down: exit 6 naming the proxy, without its password', async () => {
    const r = await runCli([...READ, '--retries', '0'], { env: { ...creds, SVC_BASE_URL: https.url, HTTPS_PROXY: 'http://bob:proxy-pw-77@127.0.0.1:1' } });
    expect(r.code).toBe(6);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^svc: error: orgs\/list: cannot reach the proxy http:\/\/127\.0\.0\.1:1 \(for https:\/\/127\.0\.0\.1:\d+\) \(ECONNREFUSED\); check HTTPS_PROXY/)]);
    expect(r.stderr).not.toContain('proxy-pw-77');
  });

  it('a socks5:// proxy that is down, from the real bin: one line on stderr, without node\'s ExperimentalWarning (it printed two more)', async () => {
    const r = await runSvc([...READ, '--retries', '0'], { env: { ...creds, SVC_BASE_URL: https.url, HTTPS_PROXY: 'socks5://127.0.0.1:1' } });
    expect(r.code).toBe(6);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^svc: error: orgs\/list: cannot reach the proxy socks5:\/\/127\.0\.0\.1:1 .*\(ECONNREFUSED\)/)]);
  });

  it('plain http through a proxy on another machine is refused before anything is sent (exit 2)', async () => {
    const before = http.requests.length;
    const r = await runCli(READ, { env: { ...creds, SVC_BASE_URL: http.url, HTTP_PROXY: 'http://proxy.invalid:3128' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/refusing to send API tokens over plain http:\/\/ through the proxy http:\/\/proxy\.invalid:3128 .*; add 127\.0\.0\.1 to NO_PROXY/);
    expect(http.requests.length).toBe(before);
  });
});
