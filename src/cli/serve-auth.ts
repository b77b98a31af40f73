/**
 * `mcpkit serve --auth-*`: the command line of a protected server (mcpkit/auth), and the refusal
 * to serve a non-loopback address to anyone without `--insecure-no-auth`.
 */
import { ResourceServer } from '../auth/index.js';
import { UsageError } from './usage-error.js';

/** The `--auth-*` options as given. */
export interface ServeAuthArgs {
  issuer?: string;
  audience?: string;
  jwks?: string;
  introspect?: string;
  clientId?: string;
  clientSecretEnv?: string;
  scopes?: string[];
}

/** Value options of this file, by flag. */
export const AUTH_VALUE_FLAGS: Record<string, keyof ServeAuthArgs> = {
  '--auth-issuer': 'issuer',
  '--auth-audience': 'audience',
  '--auth-jwks': 'jwks',
  '--auth-introspect': 'introspect',
  '--auth-client-id': 'clientId',
  '--auth-client-secret-env': 'clientSecretEnv',
  '--auth-scopes': 'scopes',
};

const URL_FLAGS = new Set(['--auth-issuer', '--auth-audience', '--auth-jwks', '--auth-introspect']);

/** Sets one `--auth-*` value; a message naming the flag when it cannot be used. */
export function setAuthValue(auth: ServeAuthArgs, flag: string, raw: string): string | undefined {
  const key = AUTH_VALUE_FLAGS[flag];
  if (key === undefined) return `unknown option ${JSON.stringify(flag)}`;
  if (URL_FLAGS.has(flag)) {
    let url: URL | undefined;
    try {
      url = new URL(raw);
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
      return `${flag} expects an http(s) URL, got ${JSON.stringify(raw)}`;
  }
  if (key === 'scopes') {
    const scopes = raw.split(',').map((s) => s.trim());
    if (scopes.some((s) => s === '' || /[\s"\\]/.test(s)))
      return `${flag} expects scopes separated by commas, e.g. ${flag} mcp:read,mcp:write`;
    auth.scopes = scopes;
  } else if (key === 'clientSecretEnv') {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(raw))
      return `${flag} expects the NAME of an environment variable holding the secret, got ${JSON.stringify(raw)}`;
    auth.clientSecretEnv = raw;
  } else auth[key] = raw;
  return undefined;
}

/** What the `--auth-*` options together cannot mean, or undefined. */
export function authProblem(auth: ServeAuthArgs, insecureNoAuth: boolean): string | undefined {
  const given = Object.keys(auth).length > 0;
  if (given && auth.issuer === undefined)
    return '--auth-audience, --auth-jwks, --auth-introspect, --auth-client-id, --auth-client-secret-env and --auth-scopes apply with --auth-issuer only';
  if (given && insecureNoAuth) return 'choose one of --auth-issuer and --insecure-no-auth';
  if (auth.jwks !== undefined && auth.introspect !== undefined)
    return 'choose one of --auth-jwks (JWT access tokens) and --auth-introspect (opaque tokens)';
  const client = auth.clientId !== undefined || auth.clientSecretEnv !== undefined;
  if (client && auth.introspect === undefined)
    return '--auth-client-id and --auth-client-secret-env apply with --auth-introspect only';
  if (
    auth.introspect !== undefined &&
    (auth.clientId === undefined || auth.clientSecretEnv === undefined)
  )
    return '--auth-introspect needs --auth-client-id ID and --auth-client-secret-env VAR (the introspection credentials)';
  return undefined;
}

/** Whether `host` (as given to --http) is a loopback address. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** Whether `host` (as given to --http) is a wildcard address: every interface. */
export function isWildcardHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === '0.0.0.0' || h === '::' || h === '0:0:0:0:0:0:0:0' || h === '';
}

/**
 * The resource server of `auth` for an endpoint listening on `host` (its URL known once it
 * listens); undefined without `--auth-issuer`. Refuses a non-loopback host without auth unless
 * `--insecure-no-auth`.
 */
export function resourceServerOf(
  auth: ServeAuthArgs,
  insecureNoAuth: boolean,
  host: string,
  url: () => string,
  env: NodeJS.ProcessEnv = process.env,
  onRejected?: (reason: string) => void,
): ResourceServer | undefined {
  if (auth.issuer === undefined) {
    if (!insecureNoAuth && !isLoopbackHost(host))
      throw new UsageError(
        `refusing to serve ${host} without authorization: anyone who can reach it could use it. ` +
          'Protect it with --auth-issuer URL (OAuth), or pass --insecure-no-auth to serve it to anyone',
      );
    return undefined;
  }
  // The bound URL of a wildcard host (http://0.0.0.0:PORT/mcp) is no URL a client uses: the
  // resource (and audience) must be said.
  if (auth.audience === undefined && isWildcardHost(host))
    throw new UsageError(
      `--auth-audience URL is required with --http ${host}: the resource URL would be http://${host.includes(':') ? `[${host.replace(/^\[|\]$/g, '')}]` : host}:PORT/mcp, which no client can reach; give the URL clients use, e.g. --auth-audience https://mcp.example.com/mcp`,
    );
  let introspection;
  if (auth.introspect !== undefined) {
    const name = auth.clientSecretEnv as string;
    const secret = env[name];
    if (secret === undefined || secret === '')
      throw new UsageError(
        `--auth-client-secret-env ${name}: the environment variable ${name} is not set`,
      );
    introspection = {
      url: auth.introspect,
      clientId: auth.clientId as string,
      clientSecret: secret,
    };
  }
  const resource = auth.audience ?? url;
  return new ResourceServer({
    resource,
    issuer: auth.issuer,
    ...(auth.audience !== undefined ? { audience: auth.audience } : {}),
    ...(auth.jwks !== undefined ? { jwksUri: auth.jwks } : {}),
    ...(introspection ? { introspection } : {}),
    ...(auth.scopes ? { requiredScopes: auth.scopes } : {}),
    allowLoopback: isLoopbackHost(host),
    ...(onRejected ? { onRejected } : {}),
  });
}

/** The banner's line about authorization. */
export function authBannerLine(auth: ServeAuthArgs, resource: ResourceServer | undefined): string {
  if (!resource) return 'auth       none: anyone who can reach it may use it';
  const how =
    auth.introspect !== undefined
      ? `opaque tokens introspected at ${auth.introspect}`
      : `JWT access tokens signed by ${auth.issuer}${auth.jwks ? ` (keys ${auth.jwks})` : ''}`;
  const scopes = auth.scopes ? `, scopes ${auth.scopes.join(' ')}` : '';
  return `auth       bearer tokens for ${resource.resource}: ${how}${scopes}`;
}
