/** Builds the run-time Context from the host and the parsed global options. */
import type { Context } from './context.js';
import type { GlobalOptions } from './core/global-options.js';
import { terminalWidth, type Host } from './core/host.js';
import { fitText } from './output/fit-text.js';
import { ConfigStore, DEFAULT_PROFILE, checkProfileName } from './config/store.js';
import { configPath } from './config/paths.js';
import { checkEnvironment, credentialHint, resolveCredentials, resolveOrganization, resolveTarget, type Credentials, type Target } from './config/resolve.js';
import type { Client, createClient as CreateClient } from './http/client.js';
import { InterruptedError, UsageError } from './core/errors.js';
import { tooLarge } from './core/input-limit.js';
import { chooseFormat, useColor } from './output/formats.js';
import { numberFlag, parseNumberFlag } from './request/number-flag.js';
import { startProgress } from './terminal/progress.js';
import { stripControls } from './core/sanitize.js';
import { scrub } from './http/redact.js';
import { checkControls } from './request/values.js';
import { guardHost, writeCommand } from './ci/log-guard.js';
import { Doubts } from './answers/doubts.js';

const DEFAULT_TIMEOUT_SEC = 30;
const DEFAULT_RETRIES = 2;
const MAX_RESPONSE_MB_LIMIT = 16_384;


/**
 * The HTTP layer's lazy edge: undici and the client (with node:net and the code that builds
 * dispatchers) are evaluated on the first request, not by help, --dry-run, config or `auth token`.
 */
export async function loadClient(): Promise<{ createClient: typeof CreateClient; DEFAULT_MAX_RESPONSE_MB: number }> {
  const { createClient, DEFAULT_MAX_RESPONSE_MB } = await import('./http/client.js');
  return { createClient, DEFAULT_MAX_RESPONSE_MB };
}
export function createContext(given: Host, globals: GlobalOptions): Context {
  // main() guarded the streams already; a run step called on its own (tests) gets the same.
  const host = guardHost(given);
  // --org "" and SVC_ORGANIZATION_ID="" alike (and the profile, the config directory): exit 2, never a fallback.
  checkEnvironment(host.env);
  const profileName = checkProfileName(globals.profile ?? host.env.SVC_PROFILE ?? DEFAULT_PROFILE, globals.profile !== undefined ? '--profile' : 'SVC_PROFILE');
  const config = new ConfigStore(configPath(host.env, host.platform));
  // Values typed on this command line are checked now, before anything else happens.
  if (globals.timeout !== undefined) positive(globals.timeout, '--timeout', DEFAULT_TIMEOUT_SEC);
  if (globals.retries !== undefined) wholeNumber(globals.retries, '--retries', DEFAULT_RETRIES);
  if (globals.maxResponseMb !== undefined) maxResponseMb(globals.maxResponseMb, undefined);
  // The organization is an id sent with most requests: no control characters (a `\r` from CRLF output).
  if (globals.org !== undefined) {
    // `--org "$ORG"` with ORG unset would fall back to another organization: refuse it.
    if (globals.org.trim() === '') throw new UsageError('--org got an empty value', 'give an organization id, or leave --org out (an unset CI variable expands to "")');
    checkControls('--org', globals.org);
  }
  if (host.env.SVC_ORGANIZATION_ID) checkControls('SVC_ORGANIZATION_ID', host.env.SVC_ORGANIZATION_ID);
  let target: Target | undefined;
  let creds: Credentials | undefined;
  let client: Client | undefined;
  let stdinText: Promise<string> | undefined;
  const extraSecrets: string[] = [];
  const errColor = useColor({ flag: globals.color, env: host.env, isTTY: host.io.stderrIsTTY });
  // On a terminal a note or warning is fitted to its width (between words, by the one fitter); in a
  // pipe it stays one line, for logs and grep. The colour of the prefix is added after fitting.
  const stderrWidth = terminalWidth(host, 'stderr');
  const toStderr = (prefix: string, line: string, painted = prefix) => {
    const text = prefix + scrub(stripControls(line), ctx.secrets());
    const fitted = stderrWidth ? fitText(text, stderrWidth) : text;
    host.io.stderr.write(painted + fitted.slice(prefix.length) + '\n');
  };

  const ctx: Context = {
    ...host,
    globals,
    profileName,
    config,
    color: useColor({ flag: globals.color, env: host.env, isTTY: host.io.stdoutIsTTY }),
    doubts: new Doubts('read'),
    profile: () => config.profile(profileName),
    out: (text) => { host.io.stdout.write(text); },
    command: (text) => { writeCommand(host.io.stdout, text); },
    note: (line) => toStderr('', line),
    // The colour is added after the line is cleaned (cleaning would remove it).
    warn: (line) => toStderr('warning: ', line, errColor ? '\u001b[33mwarning:\u001b[39m ' : 'warning: '),
    format: () => chooseFormat({
      output: globals.output, json: globals.json, jq: globals.jq !== undefined, env: host.env.SVC_OUTPUT,
      profile: () => ctx.profile()?.output, stdoutIsTTY: host.io.stdoutIsTTY,
    }),
    target: () => {
      if (target) return target;
      target = resolveTarget(globals, host.env, ctx.profile(), profileName);
      if (target.warning) ctx.warn(target.warning);
      return target;
    },
    credentials: () => (creds ??= resolveCredentials(host.env, ctx.profile(), profileName, ctx.target())),
    organization: () => resolveOrganization(globals, host.env, ctx.profile()),
    timeoutSec: () => positive(globals.timeout, '--timeout', DEFAULT_TIMEOUT_SEC, host.env.SVC_TIMEOUT, 'SVC_TIMEOUT'),
    async client() {
      if (client) return client;
      // Settings that would only fail after the answer (the output format) are checked before sending.
      ctx.format();
      const t = ctx.target();
      const c = ctx.credentials();
      const timeoutSec = ctx.timeoutSec();
      const retries = wholeNumber(globals.retries, '--retries', DEFAULT_RETRIES);
      const { createClient, DEFAULT_MAX_RESPONSE_MB } = await loadClient();
      const maxMb = maxResponseMb(globals.maxResponseMb, host.env.SVC_MAX_RESPONSE_MB) ?? DEFAULT_MAX_RESPONSE_MB;
      // Callers running at once (pages fetched in parallel) get the one client, not one each.
      client ??= createClient({
        baseUrl: t.baseUrl,
        tokenId: c.tokenId,
        tokenSecret: c.tokenSecret,
        userAgent: `svc/${host.version} node/${host.nodeVersion.replace(/^v/, '')} (${host.platform})`,
        timeoutSec,
        retries,
        maxResponseBytes: Math.round(maxMb * 1024 * 1024),
        env: host.env,
        signal: host.signal,
        now: host.now,
        random: host.random,
        sleep: host.sleep,
        verbose: globals.verbose ? (line) => ctx.note(line) : undefined,
        notice: (line) => ctx.warn(line),
        report: ctx.doubts.report,
        authHint: credentialHint(c, profileName, config.path),
        dispatcher: host.dispatcher,
      });
      return client;
    },
    progress: (text) => startProgress(ctx, text),
    async spin(text, fn) {
      // Not a terminal: nothing is drawn (and in CI nothing is said) while it runs (terminal/progress.ts).
      if (!host.io.stderrIsTTY) return fn();
      const progress = await ctx.progress(text);
      try {
        return await fn();
      } finally {
        progress.stop();
      }
    },
    readStdin(source, limit) {
      return (stdinText ??= (async () => {
        if (host.io.stdinIsTTY) throw new UsageError('expected input on stdin, but stdin is a terminal', 'pipe the input in, e.g. `cat body.json | svc ... --input -`');
        const chunks: Buffer[] = [];
        let total = 0;
        // Ctrl-C while waiting for stdin ends the wait at once; so does passing the limit (`yes |`
        // or /dev/zero never ends: all of it was kept until memory ran out).
        const stop = () => host.io.stdin.destroy();
        host.signal.addEventListener('abort', stop, { once: true });
        try {
          for await (const chunk of host.io.stdin) {
            const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
            total += bytes.length;
            if (total > limit.bytes) {
              stop();
              throw tooLarge(source, limit);
            }
            chunks.push(bytes);
          }
        } catch (err) {
          if (!host.signal.aborted) throw err;
        } finally {
          host.signal.removeEventListener('abort', stop);
        }
        if (host.signal.aborted) throw new InterruptedError(host.signal.reason === 'SIGTERM' ? 'SIGTERM' : 'SIGINT');
        return Buffer.concat(chunks).toString('utf8');
      })());
    },
    addSecret(secret) {
      if (secret) extraSecrets.push(secret);
    },
    secrets() {
      const s = [host.env.SVC_API_TOKEN_SECRET, ...extraSecrets, ...config.storedSecrets()];
      if (creds) s.push(creds.tokenSecret);
      return [...new Set(s.filter((x): x is string => !!x))];
    },
    async close() {
      await client?.close();
    },
  };
  return ctx;
}

const TIMEOUT_RULE = { min: 0, aboveMin: true, max: 3600, unit: 'seconds', hint: 'for example --timeout 30' } as const;

function positive(raw: string | undefined, name: string, dflt: number, envRaw?: string, envName?: string): number {
  // An empty environment variable counts as unset (CI templates often leave them empty).
  const [v, from] = raw !== undefined ? [raw, name] : envRaw !== undefined && envRaw !== '' ? [envRaw, envName!] : [undefined, name];
  return numberFlag(v, { ...TIMEOUT_RULE, flag: from }, dflt);
}

/** --max-response-mb, else SVC_MAX_RESPONSE_MB (empty counts as unset); undefined for the default. */
function maxResponseMb(flag: string | undefined, env: string | undefined): number | undefined {
  const [v, from] = flag !== undefined ? [flag, '--max-response-mb'] : env !== undefined && env !== '' ? [env, 'SVC_MAX_RESPONSE_MB'] : [undefined, ''];
  if (v === undefined) return undefined;
  // The one check of every number flag (Number() took 0x10 and 0b11, which --timeout refuses).
  return parseNumberFlag(v, { flag: from, min: 1, max: MAX_RESPONSE_MB_LIMIT, unit: 'MiB', hint: 'for example --max-response-mb 256' });
}

function wholeNumber(raw: string | undefined, name: string, dflt: number): number {
  return numberFlag(raw, { flag: name, whole: true, min: 0, max: 10, hint: 'for example --retries 3, or --retries 0 for none' }, dflt);
}
