import type { AuthInfo } from '../../server/transport.js';
import type { IntrospectionOptions } from './introspection.js';

/** How a protected MCP endpoint checks its callers' tokens. */
export interface ResourceServerOptions {
  /**
   * The resource's canonical URL: exactly the MCP endpoint's URL, e.g. https://mcp.example.com/mcp
   * (served as PRM `resource`; the default audience). A function when it is known only once the
   * server listens (port 0).
   */
  resource: string | (() => string);
  /** The authorization server's issuer identifier (PRM `authorization_servers`, JWT `iss`). */
  issuer?: string;
  /** The audience tokens must carry (default: `resource`). */
  audience?: string;
  /** The JWKS URL; without it (and without `introspection` or `verify`), from the issuer's metadata. */
  jwksUri?: string;
  /** Opaque tokens: checked at the issuer's introspection endpoint (RFC 7662). */
  introspection?: IntrospectionOptions;
  /**
   * Checks a token some other way: its AuthInfo, or undefined (or a throw) when it is not valid.
   * Takes precedence over JWT and introspection.
   */
  verify?: (token: string) => AuthInfo | undefined | Promise<AuthInfo | undefined>;
  /** Scopes every request needs. */
  requiredScopes?: readonly string[];
  /** More scopes listed in PRM `scopes_supported` (besides required and per-entry scopes). */
  scopesSupported?: readonly string[];
  /**
   * Whether URLs learned from the network (a `jwks_uri` in metadata, a redirect) may point at
   * loopback: set it when this server itself listens on loopback (default false).
   */
  allowLoopback?: boolean;
  /** PRM `resource_name`. */
  resourceName?: string;
  /** Where refused tokens are reported, with why (never the token); default: nowhere. */
  onRejected?: (reason: string) => void;
}
