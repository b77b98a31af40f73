// Test support only: not part of the mcpkit package (excluded from the build and not published).
/**
 * One node:http server on 127.0.0.1 that is both a scripted authorization server (metadata,
 * DCR, an authorization endpoint that approves at once, a token endpoint that checks PKCE and
 * client assertions) and a protected MCP endpoint (`/mcp`, PRM at the path-suffixed well-known
 * URL). `config` changes its behaviour per test; `seen` records what the client sent.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify, type CryptoKey } from 'jose';
import type { AuthorizationRequest, OAuthProvider } from '../auth/client/provider.js';

export interface FakeOAuthConfig {
  /** The issuer the metadata names (default: the server's origin). */
  metadataIssuer?: string;
  /** What the authorization redirect carries as iss: the issuer, a wrong one, or none. */
  iss?: 'correct' | 'wrong' | 'omit';
  issSupported?: boolean;
  scopesSupported?: string[];
  /** Scope every /mcp request needs (403 insufficient_scope otherwise). */
  requiredScope?: string;
  /** expires_in of issued tokens (seconds). */
  expiresIn?: number;
  /** The token endpoint answers refresh_token grants with this status (503: it is down). */
  refreshStatus?: number;
  /** Refresh tokens rotate (OAuth 2.1 §4.3.1): one used again is refused with invalid_grant. */
  singleUseRefresh?: boolean;
  /** The token endpoint streams a body without end. */
  endlessToken?: boolean;
  /** Key that verifies private_key_jwt client assertions. */
  assertionKey?: CryptoKey;
  authMethods?: string[];
  /** The token endpoint answers invalid_client to this client id. */
  forgetClient?: string;
  /** /mcp refuses every token (401 invalid_token), as a server with the wrong audience would. */
  refuseTokens?: boolean;
  /** Serves authorized /mcp requests (e.g. `toNodeHandler(server)`); default: an empty result. */
  mcp?: (req: IncomingMessage, res: ServerResponse, body: unknown) => void;
}

export interface FakeOAuthSeen {
  registrations: Record<string, unknown>[];
  authorizations: URLSearchParams[];
  tokenRequests: { form: URLSearchParams; authorization: string | undefined }[];
  mcpAuthorizations: Array<string | undefined>;
}

export interface FakeOAuth {
  origin: string;
  url: string;
  config: FakeOAuthConfig;
  seen: FakeOAuthSeen;
  close(): Promise<void>;
}

function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

export async function startFakeOAuth(config: FakeOAuthConfig = {}): Promise<FakeOAuth> {
  const seen: FakeOAuthSeen = {
    registrations: [],
    authorizations: [],
    tokenRequests: [],
    mcpAuthorizations: [],
  };
  const tokens = new Map<string, string>();
  const usedRefresh = new Set<string>();
  let challenge: string | undefined;
  let counter = 0;
  let origin = '';
  const issue = (scope: string | undefined) => {
    counter++;
    const access = `at-${counter}`;
    tokens.set(access, scope ?? '');
    return {
      access_token: access,
      token_type: 'Bearer',
      refresh_token: `rt-${counter}`,
      ...(config.expiresIn === undefined ? {} : { expires_in: config.expiresIn }),
      ...(scope === undefined ? {} : { scope }),
    };
  };
  const prm = `${'/.well-known/oauth-protected-resource'}/mcp`;
  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', origin);
      const body = await readBody(req);
      if (req.method === 'GET' && url.pathname === prm) {
        return json(res, 200, {
          resource: `${origin}/mcp`,
          authorization_servers: [origin],
          ...(config.scopesSupported ? { scopes_supported: config.scopesSupported } : {}),
        });
      }
      if (req.method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server') {
        return json(res, 200, {
          issuer: config.metadataIssuer ?? origin,
          authorization_endpoint: `${origin}/authorize`,
          token_endpoint: `${origin}/token`,
          registration_endpoint: `${origin}/register`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: config.authMethods ?? ['none'],
          authorization_response_iss_parameter_supported: config.issSupported ?? true,
          ...(config.scopesSupported ? { scopes_supported: config.scopesSupported } : {}),
        });
      }
      if (req.method === 'POST' && url.pathname === '/register') {
        const request = JSON.parse(body) as Record<string, unknown>;
        seen.registrations.push(request);
        return json(res, 201, { client_id: `client-${seen.registrations.length}`, ...request });
      }
      if (req.method === 'GET' && url.pathname === '/authorize') {
        seen.authorizations.push(url.searchParams);
        challenge = url.searchParams.get('code_challenge') ?? undefined;
        const back = new URL(url.searchParams.get('redirect_uri') ?? '');
        back.searchParams.set('code', `code-${url.searchParams.get('scope') ?? ''}`);
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        const iss = config.iss ?? 'correct';
        if (iss !== 'omit')
          back.searchParams.set('iss', iss === 'wrong' ? 'https://evil.example' : origin);
        res.writeHead(302, { location: back.href });
        return res.end();
      }
      if (req.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(body);
        seen.tokenRequests.push({ form, authorization: req.headers.authorization });
        if (config.endlessToken) {
          res.writeHead(200, { 'content-type': 'application/json' });
          const chunk = Buffer.alloc(64 * 1024, 0x20);
          const pump = () => {
            while (res.write(chunk));
          };
          res.on('drain', pump);
          res.on('error', () => undefined);
          return pump();
        }
        if (config.forgetClient !== undefined && form.get('client_id') === config.forgetClient) {
          return json(res, 401, { error: 'invalid_client' });
        }
        const grant = form.get('grant_type');
        if (grant === 'authorization_code') {
          const verifier = form.get('code_verifier') ?? '';
          const computed = createHash('sha256').update(verifier).digest('base64url');
          if (computed !== challenge) return json(res, 400, { error: 'invalid_grant' });
          const scope = (form.get('code') ?? '').slice('code-'.length) || undefined;
          return json(res, 200, issue(scope));
        }
        if (grant === 'refresh_token') {
          if (config.refreshStatus !== undefined)
            return json(res, config.refreshStatus, { error: 'temporarily_unavailable' });
          const refresh = form.get('refresh_token') ?? '';
          if (config.singleUseRefresh && usedRefresh.has(refresh))
            return json(res, 400, { error: 'invalid_grant' });
          usedRefresh.add(refresh);
          return json(res, 200, issue(form.get('scope') ?? undefined));
        }
        if (grant === 'client_credentials') {
          if (config.assertionKey !== undefined) {
            try {
              await jwtVerify(form.get('client_assertion') ?? '', config.assertionKey, {
                audience: origin,
              });
            } catch {
              return json(res, 401, { error: 'invalid_client' });
            }
          }
          return json(res, 200, issue(form.get('scope') ?? undefined));
        }
        return json(res, 400, { error: 'unsupported_grant_type' });
      }
      if (url.pathname === '/mcp') {
        const header = req.headers.authorization;
        seen.mcpAuthorizations.push(header);
        const token = header?.startsWith('Bearer ') ? header.slice(7) : undefined;
        const meta = `resource_metadata="${origin}${prm}"`;
        if (token === undefined || !tokens.has(token)) {
          return json(
            res,
            401,
            { error: 'invalid_token' },
            { 'www-authenticate': `Bearer ${meta}` },
          );
        }
        if (config.refuseTokens) {
          return json(
            res,
            401,
            { error: 'invalid_token' },
            { 'www-authenticate': `Bearer error="invalid_token", ${meta}` },
          );
        }
        const need = config.requiredScope;
        if (need !== undefined && !(tokens.get(token) ?? '').split(' ').includes(need)) {
          return json(
            res,
            403,
            { error: 'insufficient_scope' },
            {
              'www-authenticate': `Bearer error="insufficient_scope", scope="${need}", ${meta}`,
            },
          );
        }
        if (config.mcp) return config.mcp(req, res, body === '' ? undefined : JSON.parse(body));
        const request = JSON.parse(body || '{}') as { id?: unknown };
        return json(res, 200, { jsonrpc: '2.0', id: request.id ?? null, result: {} });
      }
      json(res, 404, { error: 'not_found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}/mcp`,
    config,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A provider that "approves" by reading the authorization endpoint's redirect. */
export class AutoApproveProvider implements OAuthProvider {
  readonly requests: AuthorizationRequest[] = [];
  constructor(readonly redirectUrl = 'http://127.0.0.1:1/callback') {}

  async authorize(request: AuthorizationRequest): Promise<string> {
    this.requests.push(request);
    const response = await fetch(request.url, { redirect: 'manual' });
    await response.body?.cancel();
    return response.headers.get('location') ?? '';
  }
}
