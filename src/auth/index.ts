/**
 * `mcpkit/auth`: a protected MCP server (OAuth 2.1 resource server as MCP specifies it).
 * Protected Resource Metadata (RFC 9728), bearer tokens checked on every request: JWT access
 * tokens against the issuer's keys (jose), opaque tokens by introspection (RFC 7662), or your own
 * `verify(token)`. The HTTP handler takes it as its `auth` option; handlers see the caller as
 * `ctx.auth`.
 *
 * @example
 * import { ResourceServer } from 'mcpkit/auth';
 * import { serveHttp } from 'mcpkit/node';
 *
 * const auth = new ResourceServer({
 *   resource: 'https://mcp.example.com/mcp',
 *   issuer: 'https://auth.example.com',
 *   requiredScopes: ['mcp'],
 * });
 * await serveHttp(server, { host: '0.0.0.0', port: 443, auth, allowedHosts: ['mcp.example.com'] });
 *
 * @module mcpkit/auth
 */
export * from './server/index.js';
export {
  authorizationServerMetadataUrls,
  PROTECTED_RESOURCE_WELL_KNOWN,
  protectedResourceMetadataUrl,
  type AuthorizationServerMetadata,
  type ProtectedResourceMetadata,
} from './metadata.js';
export type { AuthInfo } from '../server/transport.js';
