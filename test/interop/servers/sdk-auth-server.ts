/**
 * The official SDK v2 server (`@modelcontextprotocol/server` 2.4.0) protected as its docs show:
 * `requireBearerAuth` (its bearer gate: 401/403 challenges, scope and resource checks) in front
 * of `createMcpHandler`, and `oauthMetadataResponse` serving its Protected Resource Metadata. The
 * verifier is the app's part: here a JWT check against the issuer's JWKS with `jose`.
 * Run: node --import tsx test/interop/servers/sdk-auth-server.ts ISSUER_URL
 *      (prints "listening http://127.0.0.1:PORT/mcp")
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import {
  OAuthError,
  OAuthErrorCode,
  createMcpHandler,
  getOAuthProtectedResourceMetadataUrl,
  oauthMetadataResponse,
  requireBearerAuth,
  type AuthInfo,
  type OAuthMetadata,
  type OAuthTokenVerifier,
} from '@modelcontextprotocol/server';
import { toNodeHandler, type NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { createSdkServer } from './sdk-server.js';

/** The scope every request needs. */
export const SDK_AUTH_SCOPE = 'mcp';

/** A verifier for the issuer's JWT access tokens (RS256/ES256, its issuer, not expired). */
function jwtVerifier(issuer: string, jwksUri: string): OAuthTokenVerifier {
  const keys = createRemoteJWKSet(new URL(jwksUri));
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      let payload;
      try {
        ({ payload } = await jwtVerify(token, keys, { issuer, algorithms: ['RS256', 'ES256'] }));
      } catch {
        throw new OAuthError(OAuthErrorCode.InvalidToken, 'invalid access token');
      }
      const aud = Array.isArray(payload.aud) ? payload.aud[0] : payload.aud;
      return {
        token,
        clientId: String(payload['client_id'] ?? ''),
        scopes: String(payload['scope'] ?? '')
          .split(' ')
          .filter(Boolean),
        ...(payload.exp === undefined ? {} : { expiresAt: payload.exp }),
        ...(aud === undefined ? {} : { resource: new URL(aud) }),
        extra: { sub: payload.sub },
      };
    },
  };
}

async function main(issuer: string): Promise<void> {
  const res = await fetch(`${issuer}/.well-known/openid-configuration`);
  const metadata = (await res.json()) as OAuthMetadata & { jwks_uri: string };

  const handler = createMcpHandler(
    () => {
      const server = createSdkServer();
      // Shows what the bearer gate handed to the handlers.
      server.registerTool('whoami', { description: 'The caller, as the token says' }, (ctx) => {
        const auth = ctx.http?.authInfo;
        const who = { clientId: auth?.clientId, scopes: auth?.scopes, sub: auth?.extra?.['sub'] };
        return { content: [{ type: 'text', text: JSON.stringify(who) }] };
      });
      return server;
    },
    { legacy: 'stateless', responseMode: 'auto' },
  );

  const http = createHttpServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const mcpUrl = new URL(`http://127.0.0.1:${port}/mcp`);
  const metadataOptions = {
    oauthMetadata: metadata,
    resourceServerUrl: mcpUrl,
    scopesSupported: [SDK_AUTH_SCOPE],
    resourceName: 'SDK v2 interop (protected)',
    // The issuer is plain http on loopback, for the test.
    dangerouslyAllowInsecureIssuerUrl: true,
  };
  const gate = requireBearerAuth({
    verifier: jwtVerifier(metadata.issuer, metadata.jwks_uri),
    requiredScopes: [SDK_AUTH_SCOPE],
    resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl),
    expectedResource: mcpUrl,
  });
  const node = toNodeHandler({
    fetch: async (request) => {
      const documents = oauthMetadataResponse(request, metadataOptions);
      if (documents) return documents;
      if (new URL(request.url).pathname !== '/mcp') return new Response(null, { status: 404 });
      const auth = await gate(request);
      if (auth instanceof Response) return auth;
      return handler.fetch(request, { authInfo: auth });
    },
  });
  http.on('request', (req, res) => void node(req as NodeIncomingMessageLike, res));
  process.stdout.write(`listening ${mcpUrl.href}\n`);

  const stop = (): void => {
    void Promise.resolve(handler.close()).finally(() => {
      http.closeAllConnections();
      http.close(() => process.exit(0));
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // The parent went away without signalling: do not outlive it.
  process.stdin.on('end', stop);
  process.stdin.resume();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const issuer = process.argv[2];
  if (issuer === undefined) {
    process.stderr.write('usage: sdk-auth-server.ts ISSUER_URL\n');
    process.exit(2);
  }
  await main(issuer);
}
