/**
 * Which proxy (if any) a request to a URL goes through, by the same rules as undici's
 * EnvHttpProxyAgent (which does the actual dispatching): lower-case names win over upper-case,
 * https falls back to the http proxy, NO_PROXY lists host names (a leading "." or "*." and
 * sub-domains match), optionally with a port, or "*". Used to check the settings before any
 * request, to refuse sending tokens in clear text to a proxy, and to name the proxy in messages.
 */
import { UsageError } from '../core/errors.js';
import type { Env } from '../core/host.js';
import { redactUrl } from './redact.js';

export interface ProxySettings {
  httpProxy?: string;
  httpsProxy?: string;
  noProxy: string;
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

function pick(env: Env, lower: string, upper: string): [string, string] | undefined {
  const v = env[lower] ?? env[upper];
  if (v === undefined || v.trim() === '') return undefined;
  return [v.trim(), env[lower] !== undefined ? lower : upper];
}

/** The proxy settings of the environment, each URL checked (exit 2 on a bad one). */
export function proxySettings(env: Env): ProxySettings {
  const http = pick(env, 'http_proxy', 'HTTP_PROXY');
  const https = pick(env, 'https_proxy', 'HTTPS_PROXY');
  for (const p of [http, https]) if (p) checkProxyUrl(p[0], p[1]);
  return { httpProxy: http?.[0], httpsProxy: https?.[0], noProxy: (env.no_proxy ?? env.NO_PROXY ?? '').trim() };
}

function checkProxyUrl(raw: string, name: string): void {
  let url: URL | undefined;
  try { url = new URL(raw); } catch { /* reported below */ }
  if (!url || !['http:', 'https:', 'socks5:', 'socks:'].includes(url.protocol) || !url.hostname) {
    throw new UsageError(`${name} is not a valid proxy URL: '${redactUrl(raw)}'`, `give it as http://host:port (https:// and socks5:// work too), or unset ${name}`);
  }
}

/** The proxy a request to `target` goes through, or undefined when it goes direct. */
export function proxyFor(target: URL, s: ProxySettings): string | undefined {
  const proxy = target.protocol === 'https:' ? (s.httpsProxy ?? s.httpProxy) : s.httpProxy;
  if (!proxy) return undefined;
  const host = target.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(target.port, 10) || DEFAULT_PORTS[target.protocol] || 0;
  if (s.noProxy === '*') return undefined;
  for (const entry of s.noProxy.split(/[,\s]/)) {
    if (!entry) continue;
    const m = /^(.+):(\d+)$/.exec(entry);
    const name = (m ? m[1] : entry).replace(/^\*?\./, '').toLowerCase();
    if (m && Number.parseInt(m[2], 10) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return undefined;
  }
  return proxy;
}
