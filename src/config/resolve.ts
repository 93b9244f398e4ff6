/**
 * Which base URL, credentials and organization a command uses, and where each came from.
 * Precedence: flags, then environment, then the profile. A profile's tokens go only to that
 * profile's own base URL (or its development URL).
 */
import { AuthError, UsageError } from '../core/errors.js';
import type { Env } from '../core/host.js';
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

/**
 * The one precedence of the base URL (every command, `auth login` too): --base-url, then with
 * --dev SVC_DEV_BASE_URL and the profile's dev-base-url, else SVC_BASE_URL and the profile's
 * base-url. `raw` is undefined when none is set; the URL is not checked here.
 */
export function baseUrlSource(o: { baseUrl?: string; dev?: boolean }, env: Env, profile: Profile | undefined, profileName: string): { raw?: string; from: string } {
  if (o.baseUrl !== undefined) return { raw: notEmpty(o.baseUrl, '--base-url', 'give the API base URL, or leave --base-url out'), from: '--base-url' };
  if (o.dev && env.SVC_DEV_BASE_URL !== undefined) return { raw: notEmpty(env.SVC_DEV_BASE_URL, 'SVC_DEV_BASE_URL', 'set it to the development base URL, or unset it'), from: 'SVC_DEV_BASE_URL' };
  if (o.dev) return { raw: profile?.devBaseUrl, from: `profile "${profileName}" dev-base-url` };
  if (env.SVC_BASE_URL !== undefined) return { raw: notEmpty(env.SVC_BASE_URL, 'SVC_BASE_URL', 'set it to the API base URL, or unset it to use the profile\'s'), from: 'SVC_BASE_URL' };
  return { raw: profile?.baseUrl, from: `profile "${profileName}" base-url` };
}

export function resolveTarget(o: { baseUrl?: string; dev?: boolean }, env: Env, profile: Profile | undefined, profileName: string): Target {
  const { raw, from } = baseUrlSource(o, env, profile, profileName);
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
  // Set but empty (a CI secret that is not defined expands to ""): never the stored login instead.
  for (const [name, value] of [['SVC_API_TOKEN_ID', id], ['SVC_API_TOKEN_SECRET', secret]] as const) {
    if (value !== undefined && value.trim() === '') {
      throw new AuthError(`${name} is set but empty (a CI secret that is not defined expands to "")`, 'set SVC_API_TOKEN_ID and SVC_API_TOKEN_SECRET to the token, or unset both to use the stored login');
    }
  }
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

/**
 * A setting given as empty: `--org "$ORG"` or `SVC_ORGANIZATION_ID: ${{ vars.ORG }}` with the variable
 * not defined in this CI. Taken as unset, svc would act on another organization, profile or service
 * than the job meant: exit 2 naming it.
 */
function notEmpty(value: string, name: string, hint: string): string {
  if (value.trim() === '') {
    const what = name.startsWith('-') ? `${name} got an empty value` : `${name} is set but empty`;
    throw new UsageError(what, `${hint} (an unset CI variable expands to "")`);
  }
  return value;
}

/** The settings of the environment that choose what every command acts on, checked when the command starts. */
export function checkEnvironment(env: Env): void {
  if (env.SVC_ORGANIZATION_ID !== undefined) notEmpty(env.SVC_ORGANIZATION_ID, 'SVC_ORGANIZATION_ID', 'give an organization id, or unset it');
  if (env.SVC_PROFILE !== undefined) notEmpty(env.SVC_PROFILE, 'SVC_PROFILE', 'name a profile, or unset it for "default"');
  if (env.SVC_CONFIG_DIR !== undefined) notEmpty(env.SVC_CONFIG_DIR, 'SVC_CONFIG_DIR', 'give the directory of config.json, or unset it for the default one');
}

export function resolveOrganization(o: { org?: string }, env: Env, profile: Profile | undefined): { id?: string; from?: string } {
  if (o.org !== undefined) return { id: notEmpty(o.org, '--org', 'give an organization id, or leave --org out'), from: '--org' };
  if (env.SVC_ORGANIZATION_ID !== undefined) return { id: notEmpty(env.SVC_ORGANIZATION_ID, 'SVC_ORGANIZATION_ID', 'give an organization id, or unset it'), from: 'SVC_ORGANIZATION_ID' };
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
