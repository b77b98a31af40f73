/**
 * The authorization server of the auth e2e and interop tests: oidc-provider 8.8 (a certified
 * OpenID Provider, pinned) on 127.0.0.1, with open Dynamic Client Registration, JWT access tokens
 * per resource indicator (RFC 8707), refresh tokens for `offline_access`, a machine client for
 * the client credentials grant, and a scripted "login page": `/interaction/UID` answers which step
 * is due (login or consent) and where to post it; `userAgent` plays the person with a browser
 * (cookies, redirects, the login form, the consent button). No browser, no network.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

/** The user the login page accepts. */
export const USER = { login: 'alice', password: 'wonderland' };

/** The little of oidc-provider used here (it ships no types). */
interface Interaction {
  uid: string;
  prompt: { name: string; details: Record<string, unknown> };
  params: Record<string, unknown>;
  session?: { accountId?: string };
  grantId?: string;
}
interface GrantInstance {
  addOIDCScope(scope: string): void;
  addResourceScope(resource: string, scope: string): void;
  save(): Promise<string>;
}
interface OidcProvider {
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
  interactionFinished(
    req: IncomingMessage,
    res: ServerResponse,
    result: Record<string, unknown>,
    options?: { mergeWithLastSubmission?: boolean },
  ): Promise<void>;
  Grant: {
    new (init: { accountId: string; clientId: string }): GrantInstance;
    find(id: string): Promise<GrantInstance | undefined>;
  };
  on(event: string, listener: (...args: unknown[]) => void): void;
}
type ProviderClass = new (issuer: string, configuration: Record<string, unknown>) => OidcProvider;
// Through a variable: the package has no declarations, and this keeps the test's own.
const OIDC_PROVIDER = 'oidc-provider';

export interface TestIssuer {
  /** The issuer URL, `http://127.0.0.1:PORT` (no trailing slash). */
  url: string;
  /** `grant_type` of every successful token request, in order. */
  grants: string[];
  /** Every login the login page accepted or refused (`login` as typed, and whether accepted). */
  logins: Array<{ login: string; accepted: boolean }>;
  /** Client ids registered by DCR. */
  registered: string[];
  /**
   * The `aud` put in access tokens for a resource indicator (default: the resource itself).
   * Tests swap it to issue tokens for the wrong audience.
   */
  audienceFor: (resource: string) => string;
  /** A JWT access token for `resource` by the client credentials grant (client `machine`). */
  clientCredentialsToken(resource: string, scope: string): Promise<string>;
  stop(): Promise<void>;
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return new URLSearchParams(text);
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** The issuer's own RS256 signing key (oidc-provider's built-in one is for quick starts only). */
async function signingKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: 'test-rs256', alg: 'RS256', use: 'sig' };
}

export interface IssuerOptions {
  /** The scopes of the resource servers (default `mcp other`). */
  scopes?: string[];
  /** Lifetime of access tokens, in seconds (default 600). */
  accessTokenTtlS?: number;
}

/** Starts oidc-provider on 127.0.0.1 with the login page in front of it. */
export async function startIssuer(options: IssuerOptions = {}): Promise<TestIssuer> {
  // Listening first, on a port of its own choosing (0): the issuer's URL names it.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const stop = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
  try {
    return await issuerOn(server, url, stop, options);
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The provider and its login page, answering on `server` (which no request reached yet). */
async function issuerOn(
  server: Server,
  url: string,
  stop: () => Promise<void>,
  options: IssuerOptions,
): Promise<TestIssuer> {
  const scopes = options.scopes ?? ['mcp', 'other'];
  const { default: Provider } = (await import(OIDC_PROVIDER)) as { default: ProviderClass };
  const state: TestIssuer = {
    url,
    grants: [],
    logins: [],
    registered: [],
    audienceFor: (resource) => resource,
    clientCredentialsToken: (resource, scope) => clientCredentials(url, resource, scope),
    stop,
  };
  const provider = new Provider(url, {
    clients: [
      {
        client_id: 'machine',
        client_secret: 'machine-secret',
        grant_types: ['client_credentials'],
        redirect_uris: [],
        response_types: [],
        scope: scopes.join(' '),
      },
    ],
    scopes: ['openid', 'offline_access', ...scopes],
    cookies: { keys: ['mcpkit-test-cookie-key'] },
    jwks: { keys: [await signingKey()] },
    findAccount: (_ctx: unknown, accountId: string) => ({
      accountId,
      claims: () => ({ sub: accountId }),
    }),
    ttl: {
      AccessToken: options.accessTokenTtlS ?? 600,
      ClientCredentials: options.accessTokenTtlS ?? 600,
      Grant: 3600,
      Interaction: 600,
      RefreshToken: 3600,
      Session: 3600,
    },
    features: {
      devInteractions: { enabled: false },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: (_ctx: unknown, resource: string) => ({
          scope: scopes.join(' '),
          audience: state.audienceFor(resource),
          accessTokenFormat: 'jwt',
          accessTokenTTL: options.accessTokenTtlS ?? 600,
          jwt: { sign: { alg: 'RS256' } },
        }),
      },
    },
  });
  provider.on('grant.success', (ctx) => {
    const params = (ctx as { oidc: { params: { grant_type?: string } } }).oidc.params;
    state.grants.push(String(params.grant_type));
  });
  provider.on('registration_create.success', (_ctx, client) => {
    state.registered.push(String((client as { clientId: string }).clientId));
  });
  const oidc = provider.callback();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', url).pathname;
    if (!path.startsWith('/interaction/')) return oidc(req, res);
    void loginPage(provider, state, req, res, path).catch((error: unknown) =>
      json(res, 500, { error: String(error) }),
    );
  });
  return state;
}

/**
 * The interaction pages: GET says which step is due and where to post it; POST `login` checks
 * the password, POST `consent` grants what was asked (the OIDC scopes and the resource's scopes).
 */
async function loginPage(
  provider: OidcProvider,
  state: TestIssuer,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const [, , uid, step] = path.split('/');
  const details = await provider.interactionDetails(req, res);
  if (details.uid !== uid) return json(res, 400, { error: 'wrong interaction' });
  if (req.method === 'GET' && step === undefined) {
    const prompt = details.prompt.name;
    return json(res, 200, { prompt, action: `/interaction/${uid}/${prompt}` });
  }
  if (req.method === 'POST' && step === 'login' && details.prompt.name === 'login') {
    const form = await formBody(req);
    const login = form.get('login') ?? '';
    const accepted = login === USER.login && form.get('password') === USER.password;
    state.logins.push({ login, accepted });
    if (!accepted) return json(res, 401, { error: 'wrong login or password' });
    return provider.interactionFinished(
      req,
      res,
      { login: { accountId: login } },
      { mergeWithLastSubmission: false },
    );
  }
  if (req.method === 'POST' && step === 'consent' && details.prompt.name === 'consent') {
    const accountId = details.session?.accountId;
    if (accountId === undefined) return json(res, 400, { error: 'not logged in' });
    const clientId = String(details.params['client_id']);
    const grant =
      (details.grantId === undefined ? undefined : await provider.Grant.find(details.grantId)) ??
      new provider.Grant({ accountId, clientId });
    const missing = details.prompt.details;
    const oidcScopes = missing['missingOIDCScope'];
    if (Array.isArray(oidcScopes)) grant.addOIDCScope(oidcScopes.join(' '));
    const resourceScopes = missing['missingResourceScopes'];
    if (typeof resourceScopes === 'object' && resourceScopes !== null) {
      for (const [resource, list] of Object.entries(resourceScopes)) {
        if (Array.isArray(list)) grant.addResourceScope(resource, list.join(' '));
      }
    }
    const grantId = await grant.save();
    return provider.interactionFinished(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
  }
  return json(res, 400, {
    error: `no ${req.method} ${step ?? ''} for prompt ${details.prompt.name}`,
  });
}

async function clientCredentials(issuer: string, resource: string, scope: string): Promise<string> {
  const res = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('machine:machine-secret').toString('base64')}`,
    },
    body: new URLSearchParams({ grant_type: 'client_credentials', resource, scope }).toString(),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`no token: ${JSON.stringify(body)}`);
  return body.access_token;
}

/** The claims of a JWT (no verification: the test reads what the issuer put in it). */
export function jwtClaims(token: string): Record<string, unknown> {
  const payload = token.split('.')[1];
  if (payload === undefined) throw new Error('not a JWT');
  return JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
}

/**
 * A person with a browser: opens `authorizationUrl`, follows redirects with cookies, logs in as
 * `user` and consents, and resolves with the URL the issuer finally redirects to under
 * `redirectUrl` (`…?code=…&state=…&iss=…`), which is never fetched.
 */
export async function userAgent(
  authorizationUrl: string | URL,
  redirectUrl: string,
  user: { login: string; password: string } = USER,
): Promise<string> {
  const cookies = new Map<string, string>();
  const keep = (res: Response): void => {
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a));
      if (value === '' || expired) cookies.delete(name);
      else cookies.set(name, value);
    }
  };
  const send = async (target: URL, init: RequestInit = {}): Promise<Response> => {
    const header = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(target, {
      ...init,
      redirect: 'manual',
      headers: {
        ...(init.headers as Record<string, string>),
        ...(header ? { cookie: header } : {}),
      },
    });
    keep(res);
    return res;
  };
  let next = new URL(authorizationUrl);
  for (let hops = 0; hops < 20; hops++) {
    if (next.href.startsWith(redirectUrl)) return next.href;
    let res = await send(next);
    if (res.status === 200 && next.pathname.startsWith('/interaction/')) {
      const page = (await res.json()) as { prompt: string; action: string };
      const form = page.prompt === 'login' ? new URLSearchParams(user) : new URLSearchParams();
      res = await send(new URL(page.action, next), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
      });
    }
    const location = res.headers.get('location');
    if (res.status < 300 || res.status > 399 || location === null) {
      throw new Error(`the sign-in stopped at ${next.href}: ${res.status} ${await res.text()}`);
    }
    await res.body?.cancel();
    next = new URL(location, next);
  }
  throw new Error('the sign-in redirected more than 20 times');
}
