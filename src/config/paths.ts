/** Where the config file lives: SVC_CONFIG_DIR, else the OS's config directory (as conf/env-paths place it). */
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '../core/host.js';

function configDir(env: Env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR;
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'svc');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'svc', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'svc');
}

export function configPath(env: Env, platform?: NodeJS.Platform): string {
  return join(configDir(env, platform), 'config.json');
}
