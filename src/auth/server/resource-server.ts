/**
 * A protected MCP endpoint's authorization layer (OAuth 2.1 resource server), framework-neutral:
 * it serves Protected Resource Metadata (RFC 9728) and turns a request's `Authorization` header
 * into an AuthInfo or into the 401/403/503 answer with its `WWW-Authenticate` challenge.
 */
import { createHash } from 'node:crypto';
import type { AuthInfo } from '../../server/transport.js';
import { missingScopes } from '../../server/transport.js';
import {
  authorizationServerMetadataUrls,
  PROTECTED_RESOURCE_WELL_KNOWN,
  protectedResourceMetadataUrl,
  type ProtectedResourceMetadata,
} from '../metadata.js';
import { bearerChallenge, type BearerError } from './challenge.js';
import { Introspector } from './introspection.js';
import { JwtVerifier } from './jwt-verifier.js';
import { KeySet } from './key-set.js';
import type { ResourceServerOptions } from './options.js';
import { RemoteJson } from './remote-json.js';
import { TokenRejected, TokenUnverifiable } from './token-errors.js';

/** What a request presents: its Authorization header(s) and its query string. */
export interface AuthRequest {
  authorization: string | undefined;
  /** The raw query string (without `?`), to refuse a token sent there. */
  query?: string;
}

/** A refusal as HTTP: status, headers (the challenge) and a short message for the body. */
export interface AuthRefusal {
  status: 401 | 403 | 503;
  headers: Record<string, string>;
  message: string;
}

export type AuthOutcome = { auth: AuthInfo } | { refused: AuthRefusal };

// RFC 6750 §2.1 b64token.
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

function check(name: string, url: string | undefined): void {
  if (url === undefined) return;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new TypeError(`auth: ${name} must be an absolute URL, got ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw new TypeError(`auth: ${name} must be an http(s) URL, got ${JSON.stringify(url)}`);
}

export class ResourceServer {
  private readonly verifyToken: (token: string) => Promise<AuthInfo | undefined>;
  private readonly required: readonly string[];
  /** Where PRM is served, worked out once per resource URL (it is known late with port 0). */
  private located: { resource: string; url: string; paths: readonly string[] } | undefined;

  constructor(private readonly options: ResourceServerOptions) {
    check('issuer', options.issuer);
    check('audience', options.audience);
    check('jwksUri', options.jwksUri);
    check('introspection.url', options.introspection?.url);
    if (typeof options.resource === 'string') check('resource', options.resource);
    this.required = options.requiredScopes ?? [];
    const audience = () => options.audience ?? this.resource;
    if (options.verify) {
      const hook = options.verify;
      this.verifyToken = async (token) => hook(token);
    } else if (options.introspection) {
      const introspector = new Introspector(options.introspection, options.issuer, audience);
      this.verifyToken = (token) => introspector.verify(token);
    } else {
      if (options.issuer === undefined)
        throw new TypeError('auth: issuer is required to verify JWT access tokens');
      const documents = new RemoteJson(
        [
          ...authorizationServerMetadataUrls(options.issuer),
          ...(options.jwksUri ? [options.jwksUri] : []),
        ],
        options.allowLoopback === true,
      );
      const keys = new KeySet({
        issuer: options.issuer,
        documents,
        ...(options.jwksUri ? { jwksUri: options.jwksUri } : {}),
      });
      const jwt = new JwtVerifier(keys, options.issuer, audience);
      this.verifyToken = (token) => jwt.verify(token);
    }
  }

  /** The resource's canonical URL. */
  get resource(): string {
    const r = this.options.resource;
    return typeof r === 'string' ? r : r();
  }

  /** The scopes every request needs. */
  get requiredScopes(): readonly string[] {
    return this.required;
  }

  /** Where PRM is served: the path-suffixed form for the endpoint's path, then the root form. */
  metadataPaths(): string[] {
    return [...this.location().paths];
  }

  private location(): { url: string; paths: readonly string[] } {
    const resource = this.resource;
    if (this.located?.resource !== resource) {
      const url = protectedResourceMetadataUrl(resource);
      const path = new URL(url).pathname;
      const paths =
        path === PROTECTED_RESOURCE_WELL_KNOWN ? [path] : [path, PROTECTED_RESOURCE_WELL_KNOWN];
      this.located = { resource, url, paths };
    }
    return this.located;
  }

  /** The PRM document; `scopes` adds the scopes tools, prompts and resources ask for. */
  metadata(scopes: readonly string[] = []): ProtectedResourceMetadata {
    const supported = [
      ...new Set([...this.required, ...(this.options.scopesSupported ?? []), ...scopes]),
    ];
    return {
      resource: this.resource,
      ...(this.options.issuer ? { authorization_servers: [this.options.issuer] } : {}),
      ...(supported.length > 0 ? { scopes_supported: supported } : {}),
      bearer_methods_supported: ['header'],
      ...(this.options.resourceName ? { resource_name: this.options.resourceName } : {}),
    };
  }

  /** A refusal with the challenge; `scopes` default to the scopes every request needs. */
  refusal(
    status: 401 | 403 | 503,
    error: BearerError | undefined,
    message: string,
    scopes: readonly string[] = this.required,
  ): AuthRefusal {
    const headers: Record<string, string> = {
      'www-authenticate': bearerChallenge(this.location().url, error, scopes),
    };
    if (status === 503) headers['retry-after'] = '5';
    return { status, headers, message };
  }

  /** The caller's AuthInfo, or how to refuse the request. */
  async authenticate(request: AuthRequest): Promise<AuthOutcome> {
    if (request.query !== undefined && hasQueryToken(request.query))
      return {
        refused: this.refusal(
          401,
          'invalid_request',
          'Unauthorized: send the access token in the Authorization header, never in the URL',
        ),
      };
    const header = request.authorization;
    if (header === undefined || header === '')
      return { refused: this.refusal(401, undefined, 'Unauthorized: a bearer token is required') };
    const match = /^Bearer +(\S+) *$/i.exec(header);
    const token = match?.[1];
    if (token === undefined || !B64TOKEN.test(token))
      return {
        refused: this.refusal(401, 'invalid_token', 'Unauthorized: the bearer token is invalid'),
      };
    let auth: AuthInfo | undefined;
    try {
      auth = await this.verifyToken(token);
    } catch (error) {
      if (error instanceof TokenUnverifiable) {
        this.options.onRejected?.(error.message);
        return {
          refused: this.refusal(
            503,
            undefined,
            'Service unavailable: the token cannot be checked now; try again later',
          ),
        };
      }
      // A hook may reject with anything, an Error or not: the token is refused all the same.
      this.options.onRejected?.(
        error instanceof TokenRejected
          ? error.reason
          : error instanceof Error
            ? error.message
            : String(error),
      );
      auth = undefined;
    }
    if (!auth)
      return {
        refused: this.refusal(401, 'invalid_token', 'Unauthorized: the bearer token is invalid'),
      };
    // A token naming no subject nor client (a verify hook's, introspection's): keyed on itself.
    if (auth.subject === undefined && auth.clientId === undefined)
      auth = { ...auth, tokenKey: createHash('sha256').update(token).digest('base64url') };
    const missing = missingScopes(this.required, auth);
    if (missing.length > 0) return { refused: this.insufficientScope(this.required) };
    return { auth };
  }

  /** 403 for a caller that lacks `scopes` (what the operation needs, for step-up). */
  insufficientScope(scopes: readonly string[]): AuthRefusal {
    return this.refusal(
      403,
      'insufficient_scope',
      `Forbidden: this needs the scope ${scopes.join(' ')}`,
      [...new Set([...this.required, ...scopes])],
    );
  }
}

function hasQueryToken(query: string): boolean {
  if (!/access_token/i.test(query)) return false;
  return new URLSearchParams(query).has('access_token');
}
