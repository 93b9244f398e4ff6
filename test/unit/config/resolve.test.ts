import { describe, expect, it } from 'vitest';
import { checkEnvironment, resolveCredentials, resolveOrganization, resolveTarget } from '../../../src/config/resolve.js';
import { AuthError, UsageError } from '../../../src/core/errors.js';
import type { Profile } from '../../../src/config/store.js';

const prod: Profile = { baseUrl: 'https://api.example.com', devBaseUrl: 'https://dev.example.com', tokenId: 'pid', tokenSecret: 'psecret', organization: 'org_p' };
const envCreds = { SVC_API_TOKEN_ID: 'eid', SVC_API_TOKEN_SECRET: 'esecret' };

describe('resolveTarget', () => {
  it('flag, then --dev, then SVC_BASE_URL, then the profile', () => {
    expect(resolveTarget({ baseUrl: 'https://flag.example' }, { SVC_BASE_URL: 'https://env.example' }, prod, 'default')).toEqual({ baseUrl: 'https://flag.example', from: '--base-url' });
    expect(resolveTarget({}, { SVC_BASE_URL: 'https://env.example/' }, prod, 'default')).toEqual({ baseUrl: 'https://env.example', from: 'SVC_BASE_URL' });
    expect(resolveTarget({ dev: true }, {}, prod, 'default').baseUrl).toBe('https://dev.example.com');
    expect(resolveTarget({ dev: true }, { SVC_DEV_BASE_URL: 'https://d2.example' }, prod, 'default').from).toBe('SVC_DEV_BASE_URL');
    expect(resolveTarget({}, {}, prod, 'default')).toEqual({ baseUrl: 'https://api.example.com', from: 'profile "default" base-url' });
  });
  it('says how to set one when none is set', () => {
    expect(() => resolveTarget({}, {}, undefined, 'default')).toThrow(/no API base URL is set/);
    expect(() => resolveTarget({ dev: true }, {}, {}, 'ci')).toThrow(/no development base URL is set/);
  });
  it('names where a bad one came from', () => {
    expect(() => resolveTarget({}, { SVC_BASE_URL: 'not a url' }, undefined, 'default')).toThrow(/invalid base URL 'not a url' \(from SVC_BASE_URL\)/);
  });
});

describe('resolveCredentials: a profile token goes only to its own base URL', () => {
  const t = (baseUrl: string, from = '--base-url') => ({ baseUrl, from });
  it('environment credentials go anywhere and win over the profile', () => {
    expect(resolveCredentials(envCreds, prod, 'default', t('https://other.example'))).toEqual({ tokenId: 'eid', tokenSecret: 'esecret', from: 'environment' });
  });
  it('the profile token goes to its base URL and its dev URL (same origin, any path)', () => {
    expect(resolveCredentials({}, prod, 'default', t('https://api.example.com')).tokenSecret).toBe('psecret');
    expect(resolveCredentials({}, prod, 'default', t('https://api.example.com:443/v2')).tokenSecret).toBe('psecret');
    expect(resolveCredentials({}, prod, 'default', t('https://dev.example.com')).tokenSecret).toBe('psecret');
  });
  it.each([
    'https://evil.example', 'http://api.example.com', 'https://api.example.com:8443', 'https://api.example.com.evil.example',
  ])('but never to %s (--base-url elsewhere needs env credentials or a matching --profile)', (url) => {
    expect(() => resolveCredentials({}, prod, 'default', t(url))).toThrow(AuthError);
    expect(() => resolveCredentials({}, prod, 'default', t(url))).toThrow(/stored token of profile "default" belongs to https:\/\/api\.example\.com \/ https:\/\/dev\.example\.com, not .*; not sending it/);
  });
  it('a profile with a token but no base URL sends it nowhere', () => {
    expect(() => resolveCredentials({}, { tokenId: 'a', tokenSecret: 'b' }, 'x', t('https://api.example.com'))).toThrow(/belongs to no base URL/);
  });
  it('half-set environment credentials are an auth error naming the missing one', () => {
    expect(() => resolveCredentials({ SVC_API_TOKEN_ID: 'x' }, prod, 'default', t('https://api.example.com'))).toThrow(/SVC_API_TOKEN_SECRET is not set, but SVC_API_TOKEN_ID is/);
    expect(() => resolveCredentials({ SVC_API_TOKEN_SECRET: 'x' }, prod, 'default', t('https://api.example.com'))).toThrow(/SVC_API_TOKEN_ID is not set, but SVC_API_TOKEN_SECRET is/);
  });
  it('no credentials at all', () => {
    expect(() => resolveCredentials({}, undefined, 'default', t('https://api.example.com'))).toThrow(/not logged in/);
    expect(() => resolveCredentials({}, { tokenId: 'only-id' }, 'default', t('https://api.example.com'))).toThrow(/not logged in/);
  });
  it('refuses clear text to another machine, also through a proxy', () => {
    expect(() => resolveCredentials(envCreds, undefined, 'default', t('http://api.example.com'))).toThrow(UsageError);
    expect(() => resolveCredentials(envCreds, undefined, 'default', t('http://127.0.0.1:9'))).not.toThrow();
    expect(() => resolveCredentials({ ...envCreds, HTTP_PROXY: 'http://proxy.corp:3128' }, undefined, 'default', t('http://127.0.0.1:9'))).toThrow(/through the proxy/);
    expect(() => resolveCredentials({ ...envCreds, HTTP_PROXY: 'http://proxy.corp:3128', NO_PROXY: '127.0.0.1' }, undefined, 'default', t('http://127.0.0.1:9'))).not.toThrow();
    expect(() => resolveCredentials({ ...envCreds, HTTPS_PROXY: 'nonsense' }, undefined, 'default', t('https://api.example.com'))).toThrow(/HTTPS_PROXY is not a valid proxy URL/);
  });
});

describe('resolveOrganization', () => {
  it('flag, then env, then profile', () => {
    expect(resolveOrganization({ org: 'f' }, { SVC_ORGANIZATION_ID: 'e' }, prod)).toEqual({ id: 'f', from: '--org' });
    expect(resolveOrganization({}, { SVC_ORGANIZATION_ID: 'e' }, prod)).toEqual({ id: 'e', from: 'SVC_ORGANIZATION_ID' });
    expect(resolveOrganization({}, {}, prod)).toEqual({ id: 'org_p', from: 'profile' });
    expect(resolveOrganization({}, {}, undefined)).toEqual({});
  });
});

describe('a setting given as empty (an unset CI variable expands to "") is never taken as unset', () => {
  it('SVC_ORGANIZATION_ID, SVC_PROFILE, SVC_CONFIG_DIR: exit 2 naming it (checked as every command starts)', () => {
    for (const name of ['SVC_ORGANIZATION_ID', 'SVC_PROFILE', 'SVC_CONFIG_DIR']) {
      for (const value of ['', '  ']) {
        expect(() => checkEnvironment({ [name]: value }), name).toThrow(UsageError);
        expect(() => checkEnvironment({ [name]: value }), name).toThrow(`${name} is set but empty`);
      }
    }
    expect(() => checkEnvironment({ SVC_ORGANIZATION_ID: 'org_1', SVC_PROFILE: 'ci', SVC_CONFIG_DIR: '/tmp/x' })).not.toThrow();
    expect(() => resolveOrganization({}, { SVC_ORGANIZATION_ID: '' }, prod)).toThrow(/SVC_ORGANIZATION_ID is set but empty/);
    expect(() => resolveOrganization({ org: '' }, {}, prod)).toThrow(/--org got an empty value/);
  });

  it('SVC_BASE_URL, SVC_DEV_BASE_URL (with --dev) and --base-url: exit 2, not the profile\'s URL', () => {
    expect(() => resolveTarget({}, { SVC_BASE_URL: '' }, prod, 'default')).toThrow(/SVC_BASE_URL is set but empty/);
    expect(() => resolveTarget({ dev: true }, { SVC_DEV_BASE_URL: '' }, prod, 'default')).toThrow(/SVC_DEV_BASE_URL is set but empty/);
    expect(() => resolveTarget({ baseUrl: '' }, { SVC_BASE_URL: 'https://env.example' }, prod, 'default')).toThrow(/--base-url got an empty value/);
    // Without --dev the development URL is not used, and its variable not read.
    expect(resolveTarget({}, { SVC_DEV_BASE_URL: '' }, prod, 'default').from).toBe('profile "default" base-url');
  });

  it('SVC_API_TOKEN_ID or _SECRET: exit 3, never the stored login instead', () => {
    const t = { baseUrl: 'https://api.example.com', from: 'profile' };
    for (const env of [{ SVC_API_TOKEN_ID: '', SVC_API_TOKEN_SECRET: '' }, { SVC_API_TOKEN_ID: '' }, { SVC_API_TOKEN_SECRET: ' ' }, { SVC_API_TOKEN_ID: 'eid', SVC_API_TOKEN_SECRET: '' }]) {
      expect(() => resolveCredentials(env, prod, 'default', t), JSON.stringify(env)).toThrow(AuthError);
      expect(() => resolveCredentials(env, prod, 'default', t), JSON.stringify(env)).toThrow(/is set but empty/);
    }
  });
});
