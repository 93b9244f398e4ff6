/**
 * The config file: named profiles with base URLs, default organization, output format and the token.
 * Reads are plain (fast, never write) and checked with zod: a value of the wrong type fails (exit 2,
 * naming the file and the key) only the command that needs it, so commands whose settings all come
 * from flags and the environment still run. Writes lock the file (lock.ts), read it afresh, and go
 * through conf (atomic, mode 0600): concurrent updates are never lost. What a write does not change
 * is kept as written (rewrite.ts).
 */
import { promises } from 'node:fs';
import { dirname, basename } from 'node:path';
import { UsageError } from '../core/errors.js';
import { NotRegularFile, readRegularFileSync } from './regular-file.js';

export interface Profile {
  baseUrl?: string;
  devBaseUrl?: string;
  organization?: string;
  output?: string;
  tokenId?: string;
  tokenSecret?: string;
}

interface ConfigData {
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

/** Whether a profile field's value has its type; set by loadProfileSchema(). */
let fieldOk: ((field: string, value: unknown) => boolean) | undefined;
const PROFILE_FIELDS = ['baseUrl', 'devBaseUrl', 'organization', 'output', 'tokenId', 'tokenSecret'] as const satisfies ReadonlyArray<keyof Profile>;

/**
 * The zod schema of a profile (unknown fields are kept as they are). Loaded only when there is a
 * config file to check: most CI runs have none, and zod is not part of every invocation.
 */
export async function loadProfileSchema(): Promise<void> {
  if (fieldOk) return;
  // Through a module of one export (operations/profile-schema.ts says why), which imports zod by name.
  const { profileFieldCheck } = await import('../operations/profile-schema.js');
  fieldOk = profileFieldCheck(PROFILE_FIELDS);
}
const FIELD_KEY: Record<string, string> = Object.fromEntries(Object.entries(CONFIG_KEYS).map(([k, f]) => [f, k]));

/** The config file cannot be used as it is (corrupt, or a value of the wrong type): exit 2, the file and key named. */
class ConfigFileError extends UsageError {}

export const DEFAULT_PROFILE = 'default';
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function checkProfileName(name: string, from = '--profile'): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`invalid profile name '${name}' (from ${from})`, 'use letters, digits, ".", "_" or "-" (at most 64)');
  }
  return name;
}

export class ConfigStore {
  private data?: ConfigData;
  /** The file's text once read, without a leading BOM; null when there is no file. */
  private raw?: string | null;
  /** The file starts with a UTF-8 BOM (an editor's); kept when svc writes the file. */
  private bom = false;
  constructor(readonly path: string) {}

  /** The file's text, read once; undefined when there is no file. */
  private text(): string | undefined {
    if (this.raw !== undefined) return this.raw ?? undefined;
    try {
      // Never a plain readFileSync: a FIFO there would block every command, beyond the reach of Ctrl-C.
      const text = readRegularFileSync(this.path);
      // A BOM (Notepad, PowerShell's Out-File) is no part of the JSON: the file was called corrupt.
      this.bom = text.startsWith('\ufeff');
      return (this.raw = this.bom ? text.slice(1) : text);
    } catch (err) {
      if (err instanceof NotRegularFile) {
        // A link first: config reset removes a link (never what it points to), a directory too.
        const fix = err.kind.endsWith('a directory') && !err.kind.startsWith('a symbolic link')
          ? `move that directory away ('svc config reset --yes' removes it only when it is empty), or point SVC_CONFIG_DIR elsewhere`
          : `delete it with 'svc config reset --yes'${err.kind.startsWith('a symbolic link') ? ' (it removes the link, not what it points to)' : ''}, or point SVC_CONFIG_DIR elsewhere`;
        throw new ConfigFileError(`cannot read the config file ${this.path}: it is ${err.kind}, not a regular file`, fix);
      }
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') { this.raw = null; return undefined; }
      // A part of the path is a file (SVC_CONFIG_DIR naming a file): not "no config", which showed {}.
      if (code === 'ENOTDIR') throw new ConfigFileError(`cannot read the config file ${this.path}: a part of its path is not a directory (SVC_CONFIG_DIR, or the config folder, names a file?)`, 'point SVC_CONFIG_DIR at a folder, or move that file away');
      const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'ELOOP' ? 'too many symbolic links (a loop?)' : (err as Error).message;
      throw new ConfigFileError(`cannot read the config file ${this.path}: ${why}`, `fix it, run 'svc config reset --yes', or point SVC_CONFIG_DIR elsewhere`);
    }
  }

  /**
   * Every token secret written in the file, found even when the file is corrupt, so that they can
   * be scrubbed from anything printed. Never throws.
   */
  storedSecrets(): string[] {
    let text: string | undefined;
    try { text = this.text(); } catch { return []; }
    if (!text) return [];
    const found: string[] = [];
    for (const m of text.matchAll(/"tokenSecret"\s*:\s*"((?:[^"\\]|\\.)*)"/g)) {
      try { found.push(JSON.parse(`"${m[1]}"`) as string); } catch { found.push(m[1]); }
    }
    return found;
  }

  /** The file's content; an absent file is an empty config. A corrupt file is an error, never overwritten. */
  read(): ConfigData {
    if (this.data) return this.data;
    const text = this.text();
    if (text === undefined) return (this.data = { profiles: {} });
    let parsed: unknown;
    try {
      // An empty (or blank) file is an empty config, for reading and writing alike.
      parsed = text.trim() === '' ? {} : JSON.parse(text);
    } catch (err) {
      throw corrupt(this.path, `it is not valid JSON (${jsonWhere(err, text)})`);
    }
    if (!isObject(parsed)) throw corrupt(this.path, 'it is not a JSON object');
    // svc writes "profiles" in every file it writes: an object of other keys is some other file
    // (a report written over it), never read as an empty config.
    const foreign = Object.keys(parsed).filter((k) => !k.startsWith('__'));
    if (!Object.hasOwn(parsed, 'profiles') && foreign.length > 0) {
      throw corrupt(this.path, `it is not svc's config (no "profiles"; it holds ${foreign.slice(0, 3).map((k) => JSON.stringify(k)).join(', ')}${foreign.length > 3 ? ', ...' : ''})`);
    }
    const profiles = parsed.profiles ?? {};
    if (!isObject(profiles) || Object.values(profiles).some((p) => !isObject(p))) throw corrupt(this.path, '"profiles" is not an object of profiles');
    return (this.data = { ...parsed, profiles: profiles as Record<string, Profile> });
  }

  /** Loads what checking the file needs, when there is a file (before profile() is used). */
  async prepare(): Promise<void> {
    let text: string | undefined;
    try { text = this.text(); } catch { return; /* reported by read() */ }
    if (text !== undefined && text.trim() !== '') await loadProfileSchema();
  }

  /** Fields of a profile whose values have the wrong type, each with the error its use raises. */
  private invalid(name: string, p: Record<string, unknown>): Map<string, UsageError> {
    const bad = new Map<string, UsageError>();
    if (Object.keys(p).length === 0) return bad;
    if (!fieldOk) throw new Error('internal: the config file was read before prepare()');
    for (const field of PROFILE_FIELDS) {
      if (p[field] === undefined || fieldOk(field, p[field])) continue;
      const got = p[field] === null ? 'null' : Array.isArray(p[field]) ? 'a list' : typeof p[field];
      const key = FIELD_KEY[field];
      const fix = key ? `set it again with 'svc config set ${key} VALUE${name === DEFAULT_PROFILE ? '' : ` --profile ${name}`}'` : `log in again with 'svc auth login'`;
      bad.set(field, new ConfigFileError(
        `the config file ${this.path} has a wrong value at profiles.${name}.${field}: expected a string, got ${got}`,
        `${fix}, fix the file by hand, or run 'svc config reset' to start afresh`,
      ));
    }
    return bad;
  }

  /**
   * One profile. A field of the wrong type is there as a getter that throws (exit 2, naming the file
   * and the key): only a command that uses it fails.
   */
  profile(name: string): Profile | undefined {
    const { profiles } = this.read();
    // Own keys only: a profile called "constructor" or "toString" must not find Object's.
    if (!Object.hasOwn(profiles, name)) return undefined;
    const raw = profiles[name] as Record<string, unknown>;
    const bad = this.invalid(name, raw);
    if (bad.size === 0) return raw as Profile;
    const view: Record<string, unknown> = { ...raw };
    for (const [field, err] of bad) Object.defineProperty(view, field, { enumerable: true, get: () => { throw err; } });
    return view as Profile;
  }

  profileNames(): string[] {
    return Object.keys(this.read().profiles);
  }

  /**
   * Whether profile `name` holds a value at `field`, of whatever type: a value of the wrong type can
   * always be removed (`svc config unset`), though profile() refuses to hand it out.
   */
  isSet(name: string, field: keyof Profile): boolean {
    const { profiles } = this.read();
    return Object.hasOwn(profiles, name) && (profiles[name] as Record<string, unknown>)[field] !== undefined;
  }

  /**
   * Apply a change to one profile and write the file atomically with mode 0600, under the lock and on
   * the file as it is now (another svc may have changed it since this one read it). `change` gets the
   * profile as the file holds it, values of the wrong type too: what it does not touch is written back
   * as it was, so one key can be set or unset whatever the others hold.
   */
  async update(name: string, change: (p: Profile) => Profile | undefined): Promise<void> {
    const dir = dirname(this.path);
    try {
      await promises.mkdir(dir, { recursive: true, mode: 0o700 });
    } catch (err) {
      // A file where the folder should be is reported by the write, naming the config file.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw folderError(this.path, dir, err);
    }
    await loadProfileSchema();
    // Only writes lock: the lock module (and node:os, for the owner's host name) loads with the first.
    const { withLock } = await import('./lock.js');
    const { rewrite } = await import('./rewrite.js');
    await withLock(this.path, async () => {
      this.data = undefined;
      this.raw = undefined;
      const data = this.read();
      const current = Object.hasOwn(data.profiles, name) ? data.profiles[name] : {};
      const next = change({ ...current });
      const profiles = { ...data.profiles };
      if (next === undefined) delete profiles[name];
      else profiles[name] = stripUndefined(next);
      const written = { ...data, profiles };
      await this.write(written, (this.bom ? '\ufeff' : '') + rewrite(this.raw ?? undefined, data, written));
    }).catch((err: unknown) => {
      if (err instanceof UsageError) throw err;
      throw writeError(this.path, err);
    });
  }

  /**
   * Replace the whole file: conf writes a temp file (mode 0600) and renames it over the old one,
   * so a reader sees the old file or the new one, never a part.
   */
  private async write(data: ConfigData, text: string): Promise<void> {
    try {
      // fs.promises is read here: loading it costs ~1 ms, and only writes need it.
      await promises.mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
      const { Conf } = await import('./conf-class.js');
      const conf = new Conf<Record<string, unknown>>({
        projectName: 'svc',
        cwd: dirname(this.path),
        configName: basename(this.path, '.json'),
        configFileMode: 0o600,
        // conf reads the file before writing it: update() has read and checked it under the lock just
        // now (a corrupt file is reported there, never replaced), so what conf cannot parse here is an
        // empty file, which is an empty config.
        clearInvalidConfig: true,
        // The text rewrite() made: what the change did not touch, byte for byte as it was.
        serialize: () => text,
      });
      conf.store = data as unknown as Record<string, unknown>;
      await promises.chmod(this.path, 0o600);
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw writeError(this.path, err);
    }
    this.data = data;
    this.raw = undefined;
  }
}

function writeError(path: string, err: unknown): Error {
  const code = (err as NodeJS.ErrnoException).code;
  // Not a file-system error: a bug, not the directory's fault.
  if (typeof code !== 'string') return err instanceof Error ? err : new Error(String(err));
  const at = (err as NodeJS.ErrnoException).path;
  const where = at && at !== path ? ` (${at})` : '';
  const why = code === 'EACCES' || code === 'EPERM' ? `permission denied${where}` : code === 'ENOTDIR' || code === 'EEXIST' ? 'a part of the path is not a directory' : code === 'EROFS' ? 'read-only file system' : code === 'ENOSPC' ? 'no space left' : (err as Error).message;
  return new UsageError(`cannot write the config file ${path}: ${why}`, 'check the directory and its permissions, or point SVC_CONFIG_DIR elsewhere');
}

/** The config file's folder could not be made (its parent not writable, ...): the folder named, not the lock file. */
function folderError(path: string, dir: string, err: unknown): Error {
  const code = (err as NodeJS.ErrnoException).code;
  if (typeof code !== 'string') return err instanceof Error ? err : new Error(String(err));
  const at = (err as NodeJS.ErrnoException).path ?? dir;
  const why = code === 'EACCES' || code === 'EPERM' ? `permission denied creating ${at}` : code === 'ENOTDIR' ? `a part of ${dir} is not a directory` : code === 'EROFS' ? `${at} is on a read-only file system` : `${(err as Error).message}`;
  return new UsageError(`cannot write the config file ${path}: its folder ${dir} cannot be created (${why})`, `create that folder yourself, or point SVC_CONFIG_DIR at a folder you can write to`);
}

/** Where JSON.parse stopped, as line and column (never the text there: it may hold a secret). */
function jsonWhere(err: unknown, text: string): string {
  const message = (err as Error).message;
  const m = /at position (\d+)/.exec(message);
  // V8 names no position for a bad first token (`Unexpected token 'o', "not json"...`): the message
  // quotes the text, so it is not shown; only the end of the input is said as such.
  if (!m) return /Unexpected end|end of JSON/i.test(message) ? 'it ends before the JSON does: cut short?' : 'an unexpected character where a JSON value should start';
  const pos = Number(m[1]);
  const before = text.slice(0, pos);
  return `line ${before.split('\n').length}, column ${pos - before.lastIndexOf('\n')}`;
}

function corrupt(path: string, why: string): UsageError {
  return new ConfigFileError(`the config file ${path} is corrupt: ${why}`, `fix it by hand, or run 'svc config reset' to start afresh (this deletes the stored profiles)`);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '')) as T;
}
