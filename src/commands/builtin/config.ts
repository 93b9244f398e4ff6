/** `svc config get|set|unset|list|path|reset`: profile settings in the config file. */
import { Argument, Command, InvalidArgumentError } from 'commander';
import { editDistance } from '../../core/edit-distance.js';
import type { ConfigContext, Context } from '../../context.js';
import type { IoContext } from '../../output/io-context.js';
import { UsageError } from '../../core/errors.js';
import { CONFIG_KEYS, type ConfigKey } from '../../config/store.js';
import { removeConfigFile } from '../../config/remove.js';
import { baseString, normaliseBaseUrl } from '../../http/base-url.js';
import { parseFormat } from '../../output/formats.js';
import { confirm } from '../../terminal/prompt.js';
import type { Runner } from '../runner.js';
import { printJson } from '../../output/print-json.js';
import { csvHeader, csvRow } from '../../output/csv.js';
import { refuseColumns } from '../../output/columns.js';

const KEYS = Object.keys(CONFIG_KEYS) as ConfigKey[];

function checkKey(key: string): ConfigKey {
  if ((KEYS as string[]).includes(key)) return key as ConfigKey;
  throw new UsageError(`unknown config key '${key}'`, `keys: ${KEYS.join(', ')}`);
}

function normalise(ctx: Context, key: ConfigKey, value: string): string {
  if (key === 'base-url' || key === 'dev-base-url') {
    const { url, warning } = normaliseBaseUrl(value, `config ${key}`);
    if (warning) ctx.warn(warning);
    return baseString(url);
  }
  if (key === 'output') return parseFormat(value, 'config output');
  if (!value.trim()) throw new UsageError(`config ${key}: the value is empty`, `use 'svc config unset ${key}' to remove it`);
  return value;
}

/** Names people type for a setting (`org`, as the --org flag says it), and the key they mean. */
const KEY_SYNONYMS: Record<string, ConfigKey> = {
  org: 'organization', 'org-id': 'organization', 'organization-id': 'organization', organisation: 'organization',
  url: 'base-url', 'base_url': 'base-url', baseurl: 'base-url', format: 'output', 'dev-url': 'dev-base-url',
};

/** The setting name, checked (and completed) as one of the known keys; a near name is suggested. */
const keyArgument = () => {
  const arg = new Argument('<key>', 'setting name').choices(KEYS);
  return arg.argParser((key: string) => {
    if ((KEYS as string[]).includes(key)) return key;
    const meant = KEY_SYNONYMS[key.toLowerCase()] ?? KEYS.find((k) => editDistance(k, key.toLowerCase()) <= 2);
    throw new InvalidArgumentError(`unknown setting '${key}'${meant ? ` (did you mean '${meant}'?)` : ''}; settings: ${KEYS.join(', ')}`);
  });
};

export function configCommand(run: Runner, config = new Command('config')): Command {
  config.description(`Read and change profile settings (${KEYS.join(', ')})`).helpCommand(false);
  config.command('get').addArgument(keyArgument()).description('Print one setting of the profile')
    .addHelpText('after', '\nExample:\n  $ svc config get base-url\n')
    .action((key: string) => run(async (ctx) => {
      const field = CONFIG_KEYS[checkKey(key)];
      const v = ctx.profile()?.[field];
      // The profile named in the hint: without it, following the hint set the default profile.
      if (v === undefined) throw new UsageError(`'${key}' is not set in profile "${ctx.profileName}"`, `set it with 'svc config set ${key} VALUE${ctx.profileName === 'default' ? '' : ` --profile ${ctx.profileName}`}'`);
      ctx.out(`${v}\n`);
    }));
  config.command('set').addArgument(keyArgument()).argument('<value>', 'the new value').description('Change one setting of the profile')
    .addHelpText('after', '\nExamples:\n  $ svc config set base-url https://api.example.com\n  $ svc config set organization org_123 --profile staging\n')
    .action((key: string, value: string) => run(async (ctx) => {
      const k = checkKey(key);
      const v = normalise(ctx, k, value);
      await ctx.config.update(ctx.profileName, (p) => ({ ...p, [CONFIG_KEYS[k]]: v }));
      ctx.note(`Set ${k} = ${v} in profile "${ctx.profileName}".`);
    }));
  config.command('unset').addArgument(keyArgument()).description('Remove one setting of the profile')
    .addHelpText('after', '\nExample:\n  $ svc config unset organization\n')
    .action((key: string) => run(async (ctx) => {
      const k = checkKey(key);
      // Asked of the file, not of profile(): a value of the wrong type is set, and unsetting is its fix.
      if (!ctx.config.isSet(ctx.profileName, CONFIG_KEYS[k])) { ctx.note(`'${k}' was not set.`); return; }
      await ctx.config.update(ctx.profileName, (p) => ({ ...p, [CONFIG_KEYS[k]]: undefined }));
      ctx.note(`Removed ${k} from profile "${ctx.profileName}".`);
    }));
  config.command('list').description('Show the settings of every profile (token secrets hidden)')
    .addHelpText('after', '\nExample:\n  $ svc config list -o json\n')
    .action(() => run(list));
  config.command('path').description('Print the path of the config file')
    .action(() => run(async (ctx) => ctx.out(`${ctx.config.path}\n`)));
  config.command('reset').description('Delete the config file, every profile and stored token with it (works on a corrupt file)')
    .option('-y, --yes', 'Do not ask for confirmation (required when not on a terminal)')
    .addHelpText('after', '\nExample:\n  $ svc config reset --yes\n')
    .action((o: { yes?: boolean }) => run(async (ctx) => {
      if (!o.yes) {
        if (!ctx.io.stdinIsTTY) throw new UsageError('config reset deletes every profile and needs --yes when not on a terminal', 'add --yes');
        if (!(await confirm(ctx.io, `Delete ${ctx.config.path} with every profile and token?`))) throw new UsageError('cancelled: nothing was changed');
      }
      const path = ctx.config.path;
      const gone = await removeConfigFile(path);
      ctx.note(
        gone.kind === 'absent' ? `Nothing to delete: there is no config file at ${path}.`
          : gone.kind === 'link' ? `Deleted the symbolic link ${path} (what it pointed to was left as it was).`
            : gone.kind === 'empty directory' ? `Deleted ${path}, an empty directory in place of the config file.`
              : gone.kind === 'special' ? `Deleted ${path} (it was ${gone.what}, not a config file).`
                : `Deleted ${path}.`,
      );
    }));
  return config;
}

async function list(ctx: IoContext & ConfigContext): Promise<void> {
  refuseColumns(ctx.globals.columns, 'config list');
  // Each profile through profile(): a value of the wrong type is reported (exit 2, file and key), not shown.
  const view = Object.fromEntries(ctx.config.profileNames().map((name) => [name, ctx.config.profile(name)!] as const).map(([name, p]) => [name, {
    'base-url': p.baseUrl, 'dev-base-url': p.devBaseUrl, organization: p.organization, output: p.output,
    token: p.tokenId ? `${p.tokenId.slice(0, 4)}… (secret hidden)` : undefined,
  }]));
  const format = ctx.format();
  if (format === 'json') { await printJson(ctx, view); return; }
  if (format === 'ndjson') {
    ctx.out(Object.entries(view).map(([profile, settings]) => `${JSON.stringify({ profile, ...settings })}\n`).join(''));
    return;
  }
  if (format === 'csv') {
    // One row a setting that is set, as the table shows them.
    const columns = ['profile', 'key', 'value'];
    const rows = Object.entries(view).flatMap(([profile, settings]) => Object.entries(settings).filter(([, v]) => v !== undefined).map(([key, value]) => ({ profile, key, value })));
    ctx.out(csvHeader(columns) + rows.map((r) => csvRow(r, columns)).join(''));
    return;
  }
  if (Object.keys(view).length === 0) { ctx.note(`No profiles yet (${ctx.config.path}). Start with 'svc auth login'.`); return; }
  for (const [name, settings] of Object.entries(view)) {
    ctx.out(`[${name}]${name === ctx.profileName ? ' (active)' : ''}\n`);
    for (const [k, v] of Object.entries(settings)) if (v !== undefined) ctx.out(`  ${k} = ${v}\n`);
  }
}
