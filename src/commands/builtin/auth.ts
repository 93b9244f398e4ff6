/** `svc auth login|status|logout`: the token lives in the profile; the secret is never printed. */
import { Command } from 'commander';
import type { Context } from '../../context.js';
import { AuthError, UsageError } from '../../errors.js';
import { parseBaseUrl, baseString } from '../../http/base-url.js';
import { promptLine } from '../../terminal/prompt.js';
import type { Runner } from '../runner.js';
import { headerValueProblem } from '../../http/headers.js';
import { ConfigFileError } from '../../config/store.js';

export function authCommand(run: Runner): Command {
  const auth = new Command('auth').description('Log in, check and log out (token stored in the config file, mode 0600)').helpCommand(false);
  auth.command('login')
    .description('Store an API token (id and secret) in the profile')
    .option('--token-id <id>', 'Token id (prompted for on a terminal)')
    .option('--with-secret-stdin', 'Read the token secret from stdin (for scripts); the secret is never a flag value')
    .option('--organization <id>', 'Also store a default organization')
    .option('--no-verify', 'Do not check the token against the service')
    .addHelpText('after', '\nExamples:\n  # Interactive: prompts for the id and, hidden, the secret\n  $ svc auth login --base-url https://api.example.com\n  # In a script\n  $ printf %s "$SECRET" | svc auth login --token-id "$TOKEN_ID" --with-secret-stdin\n')
    .action((o: { tokenId?: string; withSecretStdin?: boolean; organization?: string; verify: boolean }) => run((ctx) => login(ctx, o)));
  auth.command('status')
    .description('Show which credentials and base URL would be used, and from where')
    .addHelpText('after', '\nExit code 3 when no credentials are found.\n\nExample:\n  $ svc auth status\n')
    .action(() => run(status));
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
    secret = (await ctx.readStdin()).replace(/\r?\n$/, '');
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

  const baseUrl = ctx.globals.baseUrl ? baseString(parseBaseUrl(ctx.globals.baseUrl, '--base-url')) : undefined;
  const profile = ctx.profile() ?? {};
  const target = baseUrl ?? (ctx.globals.dev ? profile.devBaseUrl : profile.baseUrl) ?? ctx.env.SVC_BASE_URL;
  if (o.verify && target) {
    const { createClient } = await import('../../http/client.js');
    const { assertSafeTransport } = await import('../../http/base-url.js');
    const { proxyFor, proxySettings } = await import('../../http/proxy.js');
    const url = parseBaseUrl(target, 'login');
    assertSafeTransport(url, 'login', proxyFor(url, proxySettings(ctx.env)));
    const client = createClient({
      baseUrl: baseString(url), tokenId, tokenSecret: secret, userAgent: `svc/${ctx.version}`,
      timeoutSec: ctx.timeoutSec(), retries: 1, env: ctx.env, signal: ctx.signal, now: ctx.now, random: ctx.random, sleep: ctx.sleep,
    });
    try {
      await ctx.spin('Checking the token', () => client.call('/api/v1/orgs/list', {}, { safe: true }));
    } catch (err) {
      if (err instanceof AuthError || (err as { exitCode?: number }).exitCode === 3) {
        throw new AuthError(`the service refused this token (${(err as Error).message}); nothing was saved`, 'check the id and secret, or create a new token in the dashboard');
      }
      throw err;
    } finally {
      await client.close();
    }
  }
  // The token is bound to the URL it is for: a profile without one takes the URL used here (e.g. SVC_BASE_URL).
  const own = ctx.globals.dev ? profile.devBaseUrl : profile.baseUrl;
  const bind = baseUrl ?? (target && !own ? baseString(parseBaseUrl(target, 'SVC_BASE_URL')) : undefined);
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

async function status(ctx: Context): Promise<void> {
  const view: Record<string, string> = {
    profile: `${ctx.profileName}${ctx.globals.profile ? ' (--profile)' : ctx.env.SVC_PROFILE ? ' (SVC_PROFILE)' : ''}`,
    configFile: ctx.config.path,
  };
  let failure: Error | undefined;
  try {
    const t = ctx.target();
    view.baseUrl = `${t.baseUrl} (from ${t.from})`;
  } catch (err) {
    view.baseUrl = `not set: ${(err as Error).message}`;
  }
  try {
    const c = ctx.target() && ctx.credentials();
    view.tokenId = `${maskId(c.tokenId)} (from ${c.from})`;
    view.tokenSecret = 'set (hidden)';
  } catch (err) {
    failure = err as Error;
    const id = ctx.env.SVC_API_TOKEN_ID ?? ctx.profile()?.tokenId;
    view.token = id ? `${maskId(id)}: ${(err as Error).message}` : 'none: not logged in';
  }
  const org = ctx.organization();
  view.organization = org.id ? `${org.id} (from ${org.from})` : 'none (commands need --org or --organization-id)';
  if (ctx.format() === 'table') {
    const label = (k: string) => k.replace(/([A-Z])/g, ' $1').toLowerCase();
    const width = Math.max(...Object.keys(view).map((k) => label(k).length));
    ctx.out(Object.entries(view).map(([k, v]) => `${label(k).padEnd(width)}  ${v}`).join('\n') + '\n');
  } else {
    ctx.out(JSON.stringify(view, null, ctx.io.stdoutIsTTY ? 2 : undefined) + '\n');
  }
  // A broken config file is reported as such (exit 2, naming the file and key), not as "not logged in".
  if (failure) throw failure instanceof AuthError || failure instanceof ConfigFileError ? failure : new AuthError(failure.message);
}

async function logout(ctx: Context): Promise<void> {
  const p = ctx.profile();
  if (!p?.tokenId && !p?.tokenSecret) {
    ctx.note(`Profile "${ctx.profileName}" holds no token; nothing to do.`);
  } else {
    await ctx.config.update(ctx.profileName, ({ tokenId: _i, tokenSecret: _s, ...rest }) => rest);
    ctx.note(`Removed the token of profile "${ctx.profileName}".`);
  }
  if (ctx.env.SVC_API_TOKEN_ID || ctx.env.SVC_API_TOKEN_SECRET) ctx.warn('SVC_API_TOKEN_ID/SVC_API_TOKEN_SECRET are still set in the environment.');
}

export function maskId(id: string): string {
  return id.length <= 8 ? '****' : `${id.slice(0, 4)}…${id.slice(-4)}`;
}
