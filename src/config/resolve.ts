/**
 * Which base URL, credentials and organization a command uses, and where each came from.
 * Precedence: flags, then environment, then the profile. A profile's tokens go only to that
 * profile's own base URL (or its development URL).
 */
import { AuthError, UsageError } from '../errors.js';
import type { Env } from '../context.js';
import { assertSafeTransport, baseString, normaliseBaseUrl } from '../http/base-url.js';
import { proxyFor, proxySettings } from '../http/proxy.js';
import { checkHeaderValue } from '../http/headers.js';
import type { Profile } from './store.js';

export interface Target {
  baseUrl: string;
  from: string;
  /** What was changed in the URL as given (a trailing /api/v1 taken off), to tell the user once. */
  warning?: string;
}

export interface Credentials {
  tokenId: string;
  tokenSecret: string;
  from: 'environment' | string;
}

export function resolveTarget(o: { baseUrl?: string; dev?: boolean }, env: Env, profile: Profile | undefined, profileName: string): Target {
  let raw: string | undefined;
  let from: string;
  if (o.baseUrl) [raw, from] = [o.baseUrl, '--base-url'];
  else if (o.dev && env.SVC_DEV_BASE_URL) [raw, from] = [env.SVC_DEV_BASE_URL, 'SVC_DEV_BASE_URL'];
  else if (o.dev) [raw, from] = [profile?.devBaseUrl, `profile "${profileName}" dev-base-url`];
  else if (env.SVC_BASE_URL) [raw, from] = [env.SVC_BASE_URL, 'SVC_BASE_URL'];
  else [raw, from] = [profile?.baseUrl, `profile "${profileName}" base-url`];
  if (!raw && profile === undefined && profileName !== 'default' && !o.baseUrl) {
    throw new UsageError(`profile "${profileName}" does not exist`, `list the profiles with 'svc config list', or create it with 'svc config set base-url URL --profile ${profileName}'`);
  }
  if (!raw) {
    if (o.dev) throw new UsageError('no development base URL is set', `run 'svc config set dev-base-url URL${profileName === 'default' ? '' : ` --profile ${profileName}`}' or set SVC_DEV_BASE_URL`);
    throw new UsageError('no API base URL is set', `pass --base-url URL, set SVC_BASE_URL, or run 'svc config set base-url URL' (no account yet? 'svc sandbox' runs a local stand-in of the service)`);
  }
  const { url, warning } = normaliseBaseUrl(raw, from);
  return { baseUrl: baseString(url), from, ...(warning ? { warning } : {}) };
}

export function resolveCredentials(env: Env, profile: Profile | undefined, profileName: string, target: Target): Credentials {
  const id = env.SVC_API_TOKEN_ID;
  const secret = env.SVC_API_TOKEN_SECRET;
  let creds: Credentials | undefined;
  if (id || secret) {
    if (!id || !secret) {
      throw new AuthError(`${id ? 'SVC_API_TOKEN_SECRET' : 'SVC_API_TOKEN_ID'} is not set, but ${id ? 'SVC_API_TOKEN_ID' : 'SVC_API_TOKEN_SECRET'} is`, 'set both, or unset both to use the stored login');
    }
    checkHeaderValue(id, 'SVC_API_TOKEN_ID', 'set it again to the token id from the dashboard (visible ASCII characters only)');
    checkHeaderValue(secret, 'SVC_API_TOKEN_SECRET', 'set it again to the token secret from the dashboard (visible ASCII characters only)');
    creds = { tokenId: id, tokenSecret: secret, from: 'environment' };
  } else if (profile?.tokenId && profile.tokenSecret) {
    const own = [profile.baseUrl, profile.devBaseUrl].filter(Boolean).map((u) => origin(u!));
    if (!own.includes(origin(target.baseUrl))) {
      throw new AuthError(
        `the stored token of profile "${profileName}" belongs to ${own.join(' / ') || 'no base URL'}, not ${origin(target.baseUrl)}; not sending it`,
        'set SVC_API_TOKEN_ID and SVC_API_TOKEN_SECRET, or use --profile with a profile for that URL',
      );
    }
    const relogin = `log in again with 'svc auth login${profileName === 'default' ? '' : ` --profile ${profileName}`}'`;
    checkHeaderValue(profile.tokenId, `the stored token id of profile "${profileName}"`, relogin);
    checkHeaderValue(profile.tokenSecret, `the stored token secret of profile "${profileName}"`, relogin);
    creds = { tokenId: profile.tokenId, tokenSecret: profile.tokenSecret, from: `profile "${profileName}"` };
  }
  if (!creds) {
    throw new AuthError('not logged in: no API token', `run 'svc auth login', or set SVC_API_TOKEN_ID and SVC_API_TOKEN_SECRET`);
  }
  const url = new URL(target.baseUrl);
  assertSafeTransport(url, target.from, proxyFor(url, proxySettings(env)));
  return creds;
}

/**
 * What to do when the service refuses these credentials (401/403), naming where they came from:
 * the environment overrides the stored login, which users often forget.
 */
export function credentialHint(creds: Pick<Credentials, 'from'>, profileName: string, configFile: string): string {
  const check = '`svc auth status` checks them';
  if (creds.from === 'environment') {
    return `the token in use comes from SVC_API_TOKEN_ID/SVC_API_TOKEN_SECRET in the environment (they override any stored login): fix or unset them; ${check}`;
  }
  const flag = profileName === 'default' ? '' : ` --profile ${profileName}`;
  return `the token in use is the one stored in profile "${profileName}" (${configFile}): log in again with \`svc auth login${flag}\`, or set SVC_API_TOKEN_ID/SVC_API_TOKEN_SECRET; ${check}`;
}

export function resolveOrganization(o: { org?: string }, env: Env, profile: Profile | undefined): { id?: string; from?: string } {
  if (o.org) return { id: o.org, from: '--org' };
  if (env.SVC_ORGANIZATION_ID) return { id: env.SVC_ORGANIZATION_ID, from: 'SVC_ORGANIZATION_ID' };
  if (profile?.organization) return { id: profile.organization, from: 'profile' };
  return {};
}

function origin(u: string): string {
  try {
    return new URL(u).origin;
  } catch {
    return u;
  }
}
