/**
 * Discovery (MCP authorization, RFC 9728, RFC 8414, OpenID Connect Discovery): the protected
 * resource metadata of an MCP endpoint, then the metadata of its authorization server.
 */
import { McpKitError } from '../../errors/index.js';
import { authRequest, jsonObject, type AuthHttpAnswer } from './auth-http.js';
import type { AuthHttpPolicy } from './auth-http.js';
import type { ResolvedOptions } from '../../guard/options.js';
import { PROTECTED_RESOURCE_WELL_KNOWN, protectedResourceMetadataUrl } from '../metadata.js';
import type { AuthorizationServerMetadata, ProtectedResourceMetadata } from './types.js';

export interface Http {
  policy: AuthHttpPolicy;
  guard: ResolvedOptions;
}

function fail(message: string): McpKitError {
  return new McpKitError('AUTH_FAILED', message);
}

function trimSlash(path: string): string {
  return path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * Where to look for the PRM: the `resource_metadata` of the challenge alone when given, else the
 * path-suffixed well-known URL and then the root one.
 */
export function resourceMetadataUrls(serverUrl: URL, fromChallenge?: string): string[] {
  if (fromChallenge !== undefined) return [new URL(fromChallenge, serverUrl).href];
  const root = `${serverUrl.origin}${PROTECTED_RESOURCE_WELL_KNOWN}`;
  const suffixed = protectedResourceMetadataUrl(serverUrl.href);
  return suffixed === root ? [root] : [suffixed, root];
}

/**
 * True when `resource` (the PRM's) identifies `serverUrl`: same origin, and the server's path is
 * the resource's path or below it (RFC 9728 §3.3 allows a resource above the endpoint).
 */
export function resourceCovers(resource: string, serverUrl: URL): boolean {
  let parsed: URL;
  try {
    parsed = new URL(resource);
  } catch {
    return false;
  }
  if (parsed.origin !== serverUrl.origin || parsed.search !== '' || parsed.hash !== '') {
    return false;
  }
  const base = trimSlash(parsed.pathname);
  const path = trimSlash(serverUrl.pathname);
  return path === base || path.startsWith(`${base}/`);
}

async function getJson(http: Http, url: string): Promise<AuthHttpAnswer | undefined> {
  const answer = await authRequest(http.policy, http.guard, { method: 'GET', url, follow: true });
  if (answer.status >= 200 && answer.status < 300) return answer;
  // 4xx: not there, try the next place; anything else is the server failing.
  if (answer.status >= 400 && answer.status < 500) return undefined;
  throw fail(`GET ${url} answered ${answer.status}`);
}

/** The PRM of `serverUrl`, its `resource` checked against it. */
export async function discoverResource(
  http: Http,
  serverUrl: URL,
  fromChallenge?: string,
): Promise<ProtectedResourceMetadata> {
  const urls = resourceMetadataUrls(serverUrl, fromChallenge);
  for (const url of urls) {
    const answer = await getJson(http, url);
    if (answer === undefined) continue;
    const body = jsonObject(answer, 'protected resource metadata');
    if (typeof body['resource'] !== 'string') {
      throw fail(`protected resource metadata at ${url} has no "resource"`);
    }
    const servers = body['authorization_servers'];
    if (
      servers !== undefined &&
      (!Array.isArray(servers) || !servers.every((s) => typeof s === 'string'))
    ) {
      throw fail(`protected resource metadata at ${url}: "authorization_servers" is not a list`);
    }
    if (!resourceCovers(body['resource'], serverUrl)) {
      throw fail(
        `protected resource metadata at ${url} is for "${body['resource']}", not for ${serverUrl.href}: refused (RFC 9728 §3.3)`,
      );
    }
    return body as ProtectedResourceMetadata;
  }
  throw fail(
    `${serverUrl.href} requires authorization but publishes no protected resource metadata (tried ${urls.join(', ')})`,
  );
}

/**
 * The metadata URLs of an issuer, in the order MCP asks for: RFC 8414 then OpenID Connect
 * Discovery with the path inserted after the well-known prefix, then OIDC appended to the path.
 */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = trimSlash(url.pathname);
  const oauth = `${url.origin}/.well-known/oauth-authorization-server`;
  const oidc = `${url.origin}/.well-known/openid-configuration`;
  if (path === '') return [oauth, oidc];
  return [
    `${oauth}${path}`,
    `${oidc}${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}

/** The metadata of `issuer`, whose `issuer` must be the same string (RFC 8414 §3.3). */
export async function discoverAuthorizationServer(
  http: Http,
  issuer: string,
): Promise<AuthorizationServerMetadata> {
  const urls = authorizationServerMetadataUrls(issuer);
  for (const url of urls) {
    const answer = await getJson(http, url);
    if (answer === undefined) continue;
    const body = jsonObject(answer, 'authorization server metadata');
    if (body['issuer'] !== issuer) {
      throw fail(
        `authorization server metadata at ${url} names issuer ${JSON.stringify(body['issuer'])}, not "${issuer}": refused (RFC 8414 §3.3)`,
      );
    }
    for (const field of ['authorization_endpoint', 'token_endpoint', 'registration_endpoint']) {
      if (body[field] !== undefined && typeof body[field] !== 'string') {
        throw fail(`authorization server metadata at ${url}: "${field}" is not a string`);
      }
    }
    return body as AuthorizationServerMetadata;
  }
  throw fail(`authorization server ${issuer} publishes no metadata (tried ${urls.join(', ')})`);
}
