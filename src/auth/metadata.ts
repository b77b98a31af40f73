/** Metadata documents of OAuth as MCP uses it, shared by the resource server and the client. */

/** Protected Resource Metadata (RFC 9728 §2), as served at `/.well-known/oauth-protected-resource`. */
export interface ProtectedResourceMetadata {
  /** The resource's canonical URL: exactly the MCP endpoint's URL. */
  resource: string;
  /** Issuers of the authorization servers that issue tokens for it. */
  authorization_servers?: string[];
  scopes_supported?: string[];
  bearer_methods_supported?: string[];
  resource_name?: string;
  resource_documentation?: string;
  [key: string]: unknown;
}

/** Authorization Server Metadata (RFC 8414 §2; OIDC discovery has the same fields). */
export interface AuthorizationServerMetadata {
  issuer: string;
  authorization_endpoint?: string;
  token_endpoint?: string;
  jwks_uri?: string;
  registration_endpoint?: string;
  introspection_endpoint?: string;
  scopes_supported?: string[];
  response_types_supported?: string[];
  grant_types_supported?: string[];
  code_challenge_methods_supported?: string[];
  token_endpoint_auth_methods_supported?: string[];
  token_endpoint_auth_signing_alg_values_supported?: string[];
  client_id_metadata_document_supported?: boolean;
  authorization_response_iss_parameter_supported?: boolean;
  [key: string]: unknown;
}

/** The well-known path prefix of RFC 9728. */
export const PROTECTED_RESOURCE_WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * Where the metadata of `resource` is served: the well-known prefix inserted between the origin
 * and the path (RFC 9728 §3.1), e.g. https://h/mcp → https://h/.well-known/oauth-protected-resource/mcp.
 */
export function protectedResourceMetadataUrl(resource: string): string {
  const url = new URL(resource);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return `${url.origin}${PROTECTED_RESOURCE_WELL_KNOWN}${path}`;
}

/**
 * The discovery URLs of an issuer, in the order tried: RFC 8414 (well-known inserted before the
 * issuer's path), then OpenID Connect discovery (appended to it).
 */
export function authorizationServerMetadataUrls(issuer: string): string[] {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/$/, '');
  return [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}${path}/.well-known/openid-configuration`,
  ];
}
