import { createServer, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { proxyFor, proxySettings } from '../../../src/http/proxy.js';
import { createDispatcher } from '../../../src/http/client.js';
import { UsageError } from '../../../src/core/errors.js';

describe('proxySettings', () => {
  it('prefers lower-case names, trims, ignores empty values', () => {
    expect(proxySettings({ http_proxy: 'http://a:1', HTTP_PROXY: 'http://b:2', HTTPS_PROXY: ' http://c:3 ', NO_PROXY: ' x ' }))
      .toEqual({ httpProxy: 'http://a:1', httpsProxy: 'http://c:3', noProxy: 'x' });
    expect(proxySettings({ HTTPS_PROXY: '' })).toEqual({ httpProxy: undefined, httpsProxy: undefined, noProxy: '' });
  });
  it.each(['abc', 'ftp://proxy:21', 'http://', 'proxy.corp:3128'])('refuses %s with a usage error', (bad) => {
    expect(() => proxySettings({ HTTPS_PROXY: bad })).toThrow(UsageError);
    expect(() => proxySettings({ HTTPS_PROXY: bad })).toThrow(/HTTPS_PROXY is not a valid proxy URL/);
  });
  it('does not repeat a proxy password in its message', () => {
    expect(() => proxySettings({ http_proxy: 'ftp://user:hunter22@proxy' })).toThrow(/^(?!.*hunter22)/);
  });
});

describe('proxyFor', () => {
  const s = (noProxy: string) => ({ httpProxy: 'http://hp:1', httpsProxy: 'http://sp:2', noProxy });
  it('picks the proxy by scheme, https falling back to the http proxy', () => {
    expect(proxyFor(new URL('https://api.example.com'), s(''))).toBe('http://sp:2');
    expect(proxyFor(new URL('http://127.0.0.1:9'), s(''))).toBe('http://hp:1');
    expect(proxyFor(new URL('https://api.example.com'), { httpProxy: 'http://hp:1', noProxy: '' })).toBe('http://hp:1');
    expect(proxyFor(new URL('http://api.example.com'), { httpsProxy: 'http://sp:2', noProxy: '' })).toBeUndefined();
  });
  it.each([
    ['*', 'https://api.example.com', false],
    ['api.example.com', 'https://api.example.com', false],
    ['example.com', 'https://api.example.com', false],
    ['.example.com', 'https://api.example.com', false],
    ['*.example.com', 'https://api.example.com', false],
    ['other.com,example.com', 'https://api.example.com', false],
    ['other.com example.com', 'https://api.example.com', false],
    ['api.example.com:443', 'https://api.example.com', false],
    ['api.example.com:8443', 'https://api.example.com', true],
    ['ample.com', 'https://api.example.com', true],
    ['other.com', 'https://api.example.com', true],
    ['', 'https://api.example.com', true],
  ])('NO_PROXY=%j for %s: proxied %s', (noProxy, url, proxied) => {
    expect(proxyFor(new URL(url), s(noProxy)) !== undefined).toBe(proxied);
  });
});

/** proxyFor() mirrors undici's EnvHttpProxyAgent: check both agree on real requests. */
describe('proxyFor agrees with the dispatcher', () => {
  let target: Server;
  let proxy: Server;
  let targetPort: number;
  let proxyPort: number;
  const proxied: string[] = [];
  beforeAll(async () => {
    target = createServer((_q, r) => r.end('"direct"'));
    // A forward proxy that answers itself (it never forwards): we only want to know it was asked.
    proxy = createServer((q, r) => { proxied.push(q.url ?? ''); r.end('"proxy"'); });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
    targetPort = (target.address() as AddressInfo).port;
    proxyPort = (proxy.address() as AddressInfo).port;
  });
  afterAll(() => { target.close(); proxy.close(); });

  it.each(['', '127.0.0.1', '*', 'localhost', 'TARGET_PORT', 'OTHER_PORT', '.0.0.1', 'example.com,127.0.0.1'])('NO_PROXY=%j', async (raw) => {
    const noProxy = raw.replace('TARGET_PORT', `127.0.0.1:${targetPort}`).replace('OTHER_PORT', `127.0.0.1:${targetPort + 1}`);
    const settings = proxySettings({ HTTP_PROXY: `http://127.0.0.1:${proxyPort}`, NO_PROXY: noProxy });
    const url = new URL(`http://127.0.0.1:${targetPort}/x`);
    const dispatcher = createDispatcher(settings, 5);
    try {
      const res = await request(url, { dispatcher, method: 'POST', body: '{}' });
      const answer = await res.body.json();
      expect(answer).toBe(proxyFor(url, settings) ? 'proxy' : 'direct');
    } finally {
      await dispatcher.destroy();
    }
  });
});

describe('a socks5:// proxy', () => {
  it('is used for requests (undici speaks SOCKS5)', async () => {
    const target = createServer((_q, r) => r.end('"direct"'));
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const targetPort = (target.address() as AddressInfo).port;
    const asked: number[] = [];
    // The smallest SOCKS5 server: no authentication, CONNECT to an IPv4 address, then a pipe.
    const socks = createTcpServer((client) => {
      client.once('data', () => {
        client.write(Buffer.from([5, 0]));
        client.once('data', (req) => {
          const port = req.readUInt16BE(req.length - 2);
          asked.push(port);
          const upstream = connect(port, '127.0.0.1', () => {
            client.write(Buffer.from([5, 0, 0, 1, 0, 0, 0, 0, 0, 0]));
            client.pipe(upstream).pipe(client);
          });
          upstream.on('error', () => client.destroy());
        });
      });
    });
    await new Promise<void>((r) => socks.listen(0, '127.0.0.1', r));
    const settings = proxySettings({ HTTP_PROXY: `socks5://127.0.0.1:${(socks.address() as AddressInfo).port}` });
    const dispatcher = createDispatcher(settings, 5);
    try {
      const res = await request(`http://127.0.0.1:${targetPort}/x`, { dispatcher, method: 'POST', body: '{}' });
      expect(await res.body.json()).toBe('direct');
      expect(asked).toEqual([targetPort]);
    } finally {
      await dispatcher.destroy();
      target.close();
      socks.close();
    }
  });
});
