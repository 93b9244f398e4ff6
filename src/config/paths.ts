/** Where the config file lives: SVC_CONFIG_DIR, else the OS's config directory (as conf/env-paths place it). */
import { join } from 'node:path';
import type { Env } from '../core/host.js';

/**
 * os.homedir(), which is $HOME on POSIX when that is set: node:os (~0.6 M instructions to load, a
 * tenth of a millisecond and more) is loaded only without it, or on Windows.
 */
function homedir(): string {
  return (process.platform !== 'win32' && process.env.HOME) || process.getBuiltinModule('node:os').homedir();
}

function configDir(env: Env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  if (env.SVC_CONFIG_DIR) return env.SVC_CONFIG_DIR;
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'svc');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'svc', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'svc');
}

export function configPath(env: Env, platform?: NodeJS.Platform): string {
  return join(configDir(env, platform), 'config.json');
}
