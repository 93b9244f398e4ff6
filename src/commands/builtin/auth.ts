/** `svc auth login|status|token|logout`: the token lives in the profile; the secret is never printed unless asked for on a terminal. */
import { terminalWidth } from '../../core/host.js';
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { AuthError, CliError, UsageError } from '../../core/errors.js';
import { SECRET_LIMIT } from '../../core/input-limit.js';
import { EXIT } from '../../core/exit-codes.js';
import { assertSafeTransport, normaliseBaseUrl, baseString } from '../../http/base-url.js';
import { loadClient } from '../../runtime.js';
import { proxyFor, proxySettings } from '../../http/proxy.js';
import { printJson } from '../../output/print-json.js';
import { csvHeader, csvRow } from '../../output/csv.js';
import { refuseColumns } from '../../output/columns.js';
import { baseUrlSource } from '../../config/resolve.js';
import { promptLine } from '../../terminal/prompt.js';
import type { Runner } from '../runner.js';
import { fitText } from '../../output/fit-text.js';
import { headerValueProblem } from '../../http/headers.js';
import { sendRow } from '../../http/row-call.js';
import { rowOf } from '../../operations/index.js';

export function authCommand(run: Runner, auth = new Command('auth')): Command {
  auth.description('Log in, check and log out (token stored in the config file, mode 0600)').helpCommand(false);
  auth.command('login')
    .description('Store an API token (id and secret) in the profile')
    .option('--token-id <id>', 'Token id (prompted for on a terminal)')
    .option('--with-secret-stdin', 'Read the token secret from stdin (for scripts); the secret is never a flag value')
    .option('--organization <id>', 'Also store a default organization')
    .option('--no-verify', 'Do not check the token against the service')
    .addHelpText('after', '\nExamples:\n  # Interactive: prompts for the id and, hidden, the secret\n  $ svc auth login --base-url https://api.example.com\n  # In a script\n  $ printf %s "$SECRET" | svc auth login --token-id "$TOKEN_ID" --with-secret-stdin\n')
    .action((o: { tokenId?: string; withSecretStdin?: boolean; organization?: string; verify: boolean }) => run((ctx) => login(ctx, o)));
  auth.command('status')
    .description('Show which credentials and base URL are used and from where, and check the token with the service')
    .option('--offline', 'Do not call the service: only show the settings and where they come from')
    .addHelpText('after', [
      '', 'Checks the token with one read (the list of organizations).', '',
      'Exit codes:',
      '  0  the token works (or --offline and credentials were found)',
      '  2  no base URL',
      '  3  no credentials, or the service refused them (401/403)',
      '  4  the token works, but the organization in use is not one it can see',
      '  6  the service could not be reached',
      '',
      '-o json gives {profile, configFile, baseUrl, tokenId, organization, verified}: each setting as {value, source} (with "problem" when it could not be resolved); verified is true, false, or null (not checked).',
      '', 'Examples:', '  $ svc auth status', '  # Only where the settings come from, no request', '  $ svc auth status --offline -o json', '',
    ].join('\n'))
    .action((o: { offline?: boolean }) => run((ctx) => status(ctx, o)));
  auth.command('token')
    .description('Print the token id in use, and where its secret is stored (never the secret, unless asked on a terminal)')
    .option('--show-secret', 'Also print the secret (on a terminal only; refused in pipes and files)')
    .addHelpText('after', '\nExit code 3 when no credentials are found.\n\nExamples:\n  $ svc auth token\n  $ TOKEN_ID=$(svc auth token)\n')
    .action((o: { showSecret?: boolean }) => run((ctx) => token(ctx, o)));
  auth.command('logout')
    .description("Remove the stored token from the profile (other settings stay)")
    .addHelpText('after', '\nExample:\n  $ svc auth logout --profile staging\n')
    .action(() => run(logout));
  return auth;
}

async function login(ctx: Context, o: { tokenId?: string; withSecretStdin?: boolean; organization?: string; verify: boolean }): Promise<void> {
  const interactive = ctx.io.stdinIsTTY && !o.withSecretStdin;
  let tokenId = o.tokenId;
  let secret: string | undefined;
  if (o.withSecretStdin) {
    secret = (await ctx.readStdin('the secret on stdin (--with-secret-stdin)', SECRET_LIMIT)).replace(/\r?\n$/, '');
    if (!secret) throw new UsageError('--with-secret-stdin: stdin was empty', 'pipe the secret in: printf %s "$SECRET" | svc auth login --token-id ID --with-secret-stdin');
  }
  if (!tokenId && interactive) tokenId = await promptLine(ctx.io, 'Token id: ');
  if (!secret && interactive) secret = await promptLine(ctx.io, 'Token secret (hidden): ', true);
  if (!tokenId) throw new UsageError('no token id given', 'pass --token-id ID (with --with-secret-stdin when not on a terminal)');
  if (!secret) throw new UsageError('no token secret given', 'pipe it in with --with-secret-stdin; the secret is never taken as a flag value');
  for (const [value, what] of [[tokenId, 'the token id'], [secret, 'the token secret']] as const) {
    const problem = headerValueProblem(value);
    if (problem) throw new UsageError(`${what} ${problem}; nothing was saved`, 'copy it again from the dashboard (visible ASCII characters only)');
  }
  ctx.addSecret?.(secret);

  const profile = ctx.profile() ?? {};
  // The base URL every command would use (config/resolve.ts), checked as they check it; none at all
  // is fine here: the token is saved and the note says how to set one.
  const source = baseUrlSource(ctx.globals, ctx.env, ctx.profile(), ctx.profileName);
  const normalised = source.raw ? normaliseBaseUrl(source.raw, source.from) : undefined;
  if (normalised?.warning) ctx.warn(normalised.warning);
  const target = normalised ? baseString(normalised.url) : undefined;
  if (o.verify && target) {
    const { createClient } = await loadClient();
    const url = new URL(target);
    assertSafeTransport(url, source.from, proxyFor(url, proxySettings(ctx.env)));
    const client = createClient({
      baseUrl: baseString(url), tokenId, tokenSecret: secret, userAgent: `svc/${ctx.version}`,
      timeoutSec: ctx.timeoutSec(), retries: 1, env: ctx.env, signal: ctx.signal, now: ctx.now, random: ctx.random, sleep: ctx.sleep,
    });
    try {
      await ctx.spin('Checking the token', async () => sendRow(client, await rowOf('orgs', 'list'), {}));
    } catch (err) {
      if (err instanceof AuthError || (err as { exitCode?: number }).exitCode === 3) {
        throw new AuthError(`the service refused this token (${(err as Error).message}); nothing was saved`, 'check the id and secret, or create a new token in the dashboard');
      }
      throw err;
    } finally {
      await client.close();
    }
  }
  // The token is bound to the URL it is for: --base-url becomes the profile's; a profile without one
  // takes the URL used here (e.g. SVC_BASE_URL).
  const own = ctx.globals.dev ? profile.devBaseUrl : profile.baseUrl;
  const bind = source.from === '--base-url' || !own ? target : undefined;
  if (own && !bind && target && sameOrigin(target, own) === false) {
    ctx.warn(`the token was checked against ${target} (${source.from}) but is stored for the profile's ${own}; commands sent to ${target} will not use it`);
  }
  await ctx.config.update(ctx.profileName, (p) => ({
    ...p,
    tokenId,
    tokenSecret: secret,
    ...(bind ? (ctx.globals.dev ? { devBaseUrl: bind } : { baseUrl: bind }) : {}),
    ...(o.organization ? { organization: o.organization } : {}),
  }));
  ctx.note(`Logged in: profile "${ctx.profileName}" now holds token ${maskId(tokenId)}${target ? ` for ${target}` : ''} (${ctx.config.path}).`);
  if (!target) ctx.note(`Next: svc config set base-url URL${ctx.profileName === 'default' ? '' : ` --profile ${ctx.profileName}`}`);
  if (ctx.env.SVC_API_TOKEN_ID) ctx.warn('SVC_API_TOKEN_ID/SVC_API_TOKEN_SECRET are set and take precedence over the stored token.');
}

/** One setting as data: its value and where it came from; `problem` when it could not be resolved. */
interface Setting { value: string | null; source: string | null; problem?: string; name?: string; choices?: string[]; hint?: string }

/** Where the organization comes from when none is set: the service picks the token's default. */
const TOKEN_DEFAULT = "the token's default";

interface AuthStatus {
  profile: Setting;
  configFile: string;
  baseUrl: Setting;
  tokenId: Setting;
  organization: Setting;
  /** true: the service accepted the token; false: it refused it, or there is none; null: not checked (--offline, or the check failed). */
  verified: boolean | null;
}

const setting = (value: string | undefined, source: string | undefined): Setting => ({ value: value ?? null, source: source ?? null });
const problem = (err: unknown): Setting => ({ value: null, source: null, problem: (err as Error).message });

async function status(ctx: Context, o: { offline?: boolean }): Promise<void> {
  refuseColumns(ctx.globals.columns, 'auth status');
  const view: AuthStatus = {
    profile: setting(ctx.profileName, ctx.globals.profile ? '--profile' : ctx.env.SVC_PROFILE ? 'SVC_PROFILE' : 'default'),
    configFile: ctx.config.path,
    baseUrl: problem(new Error('not resolved')),
    tokenId: problem(new Error('not resolved')),
    organization: setting(undefined, undefined),
    verified: null,
  };
  // The first failure decides the exit code: no base URL 2, no token 3, refused token 3, network 6.
  let failure: unknown;
  try {
    const t = ctx.target();
    view.baseUrl = setting(t.baseUrl, t.from);
  } catch (err) {
    failure = err;
    view.baseUrl = problem(err);
  }
  const noBaseUrl = failure !== undefined;
  try {
    if (noBaseUrl) throw new AuthError('not logged in: no API token');
    const c = ctx.credentials();
    view.tokenId = setting(maskId(c.tokenId), c.from);
  } catch (err) {
    failure ??= err;
    // Without a base URL the token cannot be checked against it, but where it would come from is still worth showing.
    const envId = ctx.env.SVC_API_TOKEN_ID;
    const stored = ctx.profile()?.tokenId;
    const found = envId ? setting(maskId(envId), 'environment') : stored ? setting(maskId(stored), `profile "${ctx.profileName}"`) : undefined;
    view.tokenId = found ? { ...found, problem: noBaseUrl ? 'not checked: no base URL' : (err as Error).message } : problem(err);
  }
  const org = ctx.organization();
  // Without one, every command still works: the service acts on the token's default organization.
  view.organization = org.id ? setting(org.id, org.from) : { value: null, source: TOKEN_DEFAULT };
  if (failure) view.verified = failure instanceof AuthError ? false : null;
  else if (!o.offline) {
    try {
      const client = await ctx.client();
      const orgs = await ctx.spin('Checking the token', async () => sendRow(client, await rowOf('orgs', 'list'), {}));
      view.verified = true;
      const seen = Array.isArray(orgs) ? orgs.filter((x): x is { id: string; name?: unknown } => !!x && typeof x === 'object' && typeof (x as { id?: unknown }).id === 'string') : [];
      const named = seen.find((x) => x.id === org.id);
      if (named && typeof named.name === 'string') view.organization.name = named.name;
      if (!org.id && seen.length > 1) {
        view.organization.choices = seen.map((x) => `${x.id}${typeof x.name === 'string' ? ` (${x.name})` : ''}`);
        view.organization.hint = 'choose one: svc config set organization ID, or --org ID on a command';
      }
      if (org.id && Array.isArray(orgs) && orgs.every((x) => x && typeof x === 'object' && typeof (x as { id?: unknown }).id === 'string')) {
        if (!orgs.some((x) => (x as { id: string }).id === org.id)) {
          view.organization.problem = 'not among the organizations this token can see (svc orgs list)';
        }
      }
    } catch (err) {
      failure = err;
      view.verified = (err as { exitCode?: number }).exitCode === EXIT.AUTH ? false : null;
    }
  }
  await printStatus(ctx, view, o.offline === true);
  if (failure) throw failure instanceof CliError ? failure : new AuthError((failure as Error).message);
  // The token works, but every command would act on an organization it cannot see: a check that
  // scripts run before a job must not pass on that (the commands themselves would exit 4).
  if (org.id && view.organization.problem && view.verified) {
    throw new CliError(`organization ${view.organization.value}${org.from ? ` (from ${org.from})` : ''} is not among the organizations this token can see`, EXIT.NOT_FOUND, 'svc orgs list shows them; set another with --org, SVC_ORGANIZATION_ID or svc config set organization ID');
  }
}

/** `org_1 Acme (from profile)`, or what the service acts on when none is set and how to pick one. */
function organizationLine(o: Setting): string {
  if (o.value === null) {
    const base = "none set: the service acts on the token's default organization";
    return o.choices ? `${base}; this token sees ${o.choices.length}: ${o.choices.join(', ')}; ${o.hint}` : base;
  }
  return `${o.value}${o.name ? ` ${o.name}` : ''}${o.source ? ` (from ${o.source})` : ''}${o.problem ? `: ${o.problem}` : ''}`;
}

async function printStatus(ctx: Context, view: AuthStatus, offline: boolean): Promise<void> {
  if (ctx.format() === 'csv') {
    // One row a setting, the same values as -o json (not JSON in a CSV file).
    const columns = ['setting', 'value', 'source', 'problem'];
    const rows = [
      { setting: 'profile', ...view.profile },
      { setting: 'configFile', value: view.configFile },
      { setting: 'baseUrl', ...view.baseUrl },
      { setting: 'tokenId', ...view.tokenId },
      { setting: 'organization', ...view.organization, value: view.organization.value },
      { setting: 'verified', value: view.verified === null ? '' : String(view.verified) },
    ];
    ctx.out(csvHeader(columns) + rows.map((r) => csvRow(r, columns)).join(''));
    return;
  }
  if (ctx.format() !== 'table') {
    await printJson(ctx, view);
    return;
  }
  const line = (s: Setting, none: string) => (s.value !== null ? `${s.value}${s.source && s.source !== 'default' ? ` (from ${s.source})` : ''}` : none) + (s.problem && s.value !== null ? `: ${s.problem}` : '');
  const rows: Array<[string, string]> = [
    ['profile', line(view.profile, '')],
    ['config file', view.configFile],
    ['base url', line(view.baseUrl, `not set: ${view.baseUrl.problem}`)],
    ['token id', line(view.tokenId, `none: ${view.tokenId.problem}`)],
    ['token secret', view.tokenId.problem ? '-' : 'set (hidden; `svc auth token` says where it is stored)'],
    ['organization', organizationLine(view.organization)],
    ['verified', view.verified === true ? 'yes: the service accepted the token' : view.verified === false ? 'no' : offline ? 'not checked (--offline)' : 'not checked'],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  // Long values (the organizations a token sees) wrap under their column at the terminal's width.
  ctx.out(fitText(rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`).join('\n'), terminalWidth(ctx) ?? 100) + '\n');
}

/** `svc auth token`: the token id on stdout; where the secret lives on stderr; the secret only on request, on a terminal. */
async function token(ctx: Context, o: { showSecret?: boolean }): Promise<void> {
  if (o.showSecret && !ctx.io.stdoutIsTTY) {
    throw new UsageError('--show-secret prints the secret only on a terminal, never into a pipe or file', 'scripts should read SVC_API_TOKEN_SECRET from their secret store instead');
  }
  const c = ctx.target() && ctx.credentials();
  const where = c.from === 'environment'
    ? 'the environment variable SVC_API_TOKEN_SECRET'
    : `${ctx.config.path} (${c.from}, file mode 0600)`;
  // Plain text unless JSON is asked for on this command line: `TOKEN_ID=$(svc auth token)` in a pipe.
  if (ctx.globals.json || ctx.globals.jq !== undefined || ctx.globals.output === 'json' || ctx.globals.output === 'ndjson') {
    await printJson(ctx, { tokenId: { value: c.tokenId, source: c.from }, secret: { location: where, shown: o.showSecret === true } });
  } else {
    ctx.out(`${c.tokenId}\n`);
  }
  ctx.note(o.showSecret
    ? `The secret, stored in ${where}:`
    : `The secret is stored in ${where}; it is not printed (--show-secret prints it, on a terminal only).`);
  if (o.showSecret) {
    ctx.out(`${c.tokenSecret}\n`);
    ctx.warn('the token secret is now on your screen: clear it (Ctrl-L) and the scrollback when you are done.');
  }
}

async function logout(ctx: Context): Promise<void> {
  // Asked of the file, not of profile(): a token of the wrong type is still one to remove.
  if (!ctx.config.isSet(ctx.profileName, 'tokenId') && !ctx.config.isSet(ctx.profileName, 'tokenSecret')) {
    ctx.note(`Profile "${ctx.profileName}" holds no token; nothing to do.`);
  } else {
    await ctx.config.update(ctx.profileName, ({ tokenId: _i, tokenSecret: _s, ...rest }) => rest);
    ctx.note(`Removed the token of profile "${ctx.profileName}".`);
  }
  if (ctx.env.SVC_API_TOKEN_ID || ctx.env.SVC_API_TOKEN_SECRET) ctx.warn('SVC_API_TOKEN_ID/SVC_API_TOKEN_SECRET are still set in the environment.');
}

function maskId(id: string): string {
  return id.length <= 8 ? '****' : `${id.slice(0, 4)}…${id.slice(-4)}`;
}

function sameOrigin(a: string, b: string): boolean | undefined {
  try { return new URL(a).origin === new URL(b).origin; } catch { return undefined; }
}
