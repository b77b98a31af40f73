/**
 * How `inspect` and `audit` authenticate to an http(s) target: `--auth` (OAuth sign-in through
 * a loopback redirect listener, tokens kept 0600 under the config directory), `--token-env` or
 * `--token-file` (a ready bearer token), or nothing: then a server that answers 401 ends the
 * run at once with a message naming those options. Tokens are never printed.
 */
import { readFile } from 'node:fs/promises';
import { FileOAuthStore } from '../auth/client/file-store.js';
import { LoopbackRedirectProvider } from '../auth/client/loopback-provider.js';
import { OAuthClient } from '../auth/client/oauth-client.js';
import { McpKitError } from '../errors/index.js';
import type { AuthChallenge, HttpClientAuth } from '../transports/http/client/index.js';
import type { HostArgs } from './host-args.js';
import { shownText } from './terminal-text.js';

export interface TargetAuth {
  auth: HttpClientAuth;
  close(): Promise<void>;
}

const HOW = 'sign in with --auth, or pass a token with --token-env VAR or --token-file FILE';

/** A fixed Authorization header (or none), and a clear failure on a 401. */
function staticAuth(
  header: string | undefined,
  refused: (url: URL) => McpKitError,
): HttpClientAuth {
  return {
    authorization: () => Promise.resolve(header),
    challenge: (challenge: AuthChallenge) =>
      challenge.status === 401 ? Promise.reject(refused(challenge.url)) : Promise.resolve(false),
  };
}

/** A token as a header carries it: visible ASCII only (no CR/LF to split the request). */
function headerSafe(token: string, from: string): { token: string; from: string } {
  if (/[^\x21-\x7e]/.test(token)) {
    throw new McpKitError(
      'BAD_ARGUMENTS',
      `${from}: the token has characters a header cannot carry`,
    );
  }
  return { token, from };
}

/** The ready token of `--token-env` or `--token-file`, checked before any request. */
export async function readToken(
  args: HostArgs,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ token: string; from: string }> {
  if (args.tokenEnv !== undefined) {
    const from = `--token-env ${args.tokenEnv}`;
    const token = env[args.tokenEnv]?.trim() ?? '';
    if (token === '')
      throw new McpKitError('BAD_ARGUMENTS', `${from}: the variable is not set or empty`);
    return headerSafe(token, from);
  }
  const file = args.tokenFile as string;
  const from = `--token-file ${shownText(file)}`;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unreadable';
    throw new McpKitError('BAD_ARGUMENTS', `${from}: cannot read the file (${code})`);
  }
  const token = text.split(/\r?\n/, 1)[0]?.trim() ?? '';
  if (token === '')
    throw new McpKitError('BAD_ARGUMENTS', `${from}: the file's first line is empty`);
  return headerSafe(token, from);
}

/** The auth hook for an http(s) target; with `--auth`, signs in before the first request. */
export async function targetAuth(
  args: HostArgs,
  url: string,
  show: (line: string) => void,
): Promise<TargetAuth> {
  const where = shownText(url);
  if (args.tokenEnv !== undefined || args.tokenFile !== undefined) {
    const { token, from } = await readToken(args);
    const auth = staticAuth(
      `Bearer ${token}`,
      () => new McpKitError('AUTH_FAILED', `${where} refused the token of ${from} (401)`),
    );
    return { auth, close: () => Promise.resolve() };
  }
  if (!args.auth) {
    const auth = staticAuth(
      undefined,
      () => new McpKitError('AUTH_REQUIRED', `${where} requires authorization (401): ${HOW}`),
    );
    return { auth, close: () => Promise.resolve() };
  }
  const provider = await LoopbackRedirectProvider.start({
    show,
    open: args.open,
    store: new FileOAuthStore(),
  });
  // --allow-address exempts from the guard every fetch of the run, signing in's included (the
  // target's metadata on a private network, an authorization server there).
  const allow = args.allowAddresses ?? [];
  const oauth = new OAuthClient({
    provider,
    clientName: 'mcpkit',
    ...(allow.length > 0 ? { allow } : {}),
  });
  try {
    await oauth.signIn(url);
  } catch (error) {
    await provider.close();
    throw error;
  }
  return { auth: oauth, close: () => provider.close() };
}
