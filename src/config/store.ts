/**
 * The config file: named profiles with base URLs, default organization, output format and the token.
 * Reads are plain (fast, never write); writes go through conf (atomic, mode 0600).
 */
import { readFileSync } from 'node:fs';
import { chmod, mkdir } from 'node:fs/promises';
import { dirname, basename } from 'node:path';
import { UsageError } from '../errors.js';

export interface Profile {
  baseUrl?: string;
  devBaseUrl?: string;
  organization?: string;
  output?: string;
  tokenId?: string;
  tokenSecret?: string;
}

export interface ConfigData {
  profiles: Record<string, Profile>;
}

/** Settable keys (`svc config set KEY VALUE`) and the profile field each maps to. */
export const CONFIG_KEYS = {
  'base-url': 'baseUrl',
  'dev-base-url': 'devBaseUrl',
  organization: 'organization',
  output: 'output',
} as const satisfies Record<string, keyof Profile>;
export type ConfigKey = keyof typeof CONFIG_KEYS;

export const DEFAULT_PROFILE = 'default';
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function checkProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`invalid profile name '${name}'`, 'use letters, digits, ".", "_" or "-" (at most 64)');
  }
  return name;
}

export class ConfigStore {
  private data?: ConfigData;
  constructor(readonly path: string) {}

  /** The file's content; an absent file is an empty config. A corrupt file is an error, never overwritten. */
  read(): ConfigData {
    if (this.data) return this.data;
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return (this.data = { profiles: {} });
      throw new UsageError(`cannot read the config file ${this.path}: ${(err as Error).message}`, 'check its permissions, or point SVC_CONFIG_DIR elsewhere');
    }
    let parsed: unknown;
    try {
      parsed = text.trim() === '' ? {} : JSON.parse(text);
    } catch {
      throw corrupt(this.path, 'it is not valid JSON');
    }
    if (!isObject(parsed)) throw corrupt(this.path, 'it is not a JSON object');
    const profiles = parsed.profiles ?? {};
    if (!isObject(profiles) || Object.values(profiles).some((p) => !isObject(p))) throw corrupt(this.path, '"profiles" is not an object of profiles');
    return (this.data = { ...parsed, profiles: profiles as Record<string, Profile> });
  }

  profile(name: string): Profile | undefined {
    return this.read().profiles[name];
  }

  profileNames(): string[] {
    return Object.keys(this.read().profiles);
  }

  /** Apply a change to one profile and write the file atomically with mode 0600. */
  async update(name: string, change: (p: Profile) => Profile | undefined): Promise<void> {
    const data = this.read();
    const next = change({ ...(data.profiles[name] ?? {}) });
    const profiles = { ...data.profiles };
    if (next === undefined) delete profiles[name];
    else profiles[name] = stripUndefined(next);
    await this.write({ ...data, profiles });
  }

  /** Replace the whole file (used by `svc config reset` with an empty config). */
  async write(data: ConfigData): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const { default: Conf } = await import('conf');
    const conf = new Conf<Record<string, unknown>>({
      projectName: 'svc',
      cwd: dirname(this.path),
      configName: basename(this.path, '.json'),
      configFileMode: 0o600,
      clearInvalidConfig: true,
    });
    conf.store = data as unknown as Record<string, unknown>;
    await chmod(this.path, 0o600);
    this.data = data;
  }
}

function corrupt(path: string, why: string): UsageError {
  return new UsageError(`the config file ${path} is corrupt: ${why}`, `fix it by hand, or run 'svc config reset' to start afresh (this deletes the stored profiles)`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as T;
}
