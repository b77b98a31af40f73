/**
 * Client authentication at the token endpoint: `none`, `client_secret_basic`,
 * `client_secret_post` or `private_key_jwt` (RFC 7523 §2.2, signed with `jose`).
 */
import { randomUUID } from 'node:crypto';
import { importJWK, importPKCS8, SignJWT, type CryptoKey, type JWK } from 'jose';
import { McpKitError } from '../../errors/index.js';
import type {
  AuthorizationServerMetadata,
  ClientInformation,
  TokenEndpointAuthMethod,
} from './types.js';
import { basicCredentials } from '../basic-credentials.js';

/** A private key for `private_key_jwt`: PKCS#8 PEM, a JWK, or a WebCrypto key. */
export interface ClientAssertionKey {
  key: string | JWK | CryptoKey;
  /** The JWS algorithm (default ES256; RS256, PS256, EdDSA … as the key allows). */
  algorithm?: string;
  /** A `kid` to put in the header. */
  keyId?: string;
}

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const KNOWN = new Set(['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt']);

/**
 * The method to use: the one the client was registered with, else the best the server lists
 * for what the client holds (a key, a secret, nothing). A server that lists none defaults to
 * `client_secret_basic` (RFC 8414 §2).
 */
export function chooseAuthMethod(
  client: ClientInformation,
  metadata: AuthorizationServerMetadata,
  key: ClientAssertionKey | undefined,
): TokenEndpointAuthMethod {
  const registered = client.token_endpoint_auth_method;
  if (registered !== undefined && KNOWN.has(registered))
    return registered as TokenEndpointAuthMethod;
  const supported = metadata.token_endpoint_auth_methods_supported ?? ['client_secret_basic'];
  if (key !== undefined && supported.includes('private_key_jwt')) return 'private_key_jwt';
  if (client.client_secret !== undefined) {
    if (supported.includes('client_secret_basic')) return 'client_secret_basic';
    if (supported.includes('client_secret_post')) return 'client_secret_post';
    return 'client_secret_basic';
  }
  if (key !== undefined) return 'private_key_jwt';
  return 'none';
}

async function signingKey(given: ClientAssertionKey, alg: string): Promise<CryptoKey | Uint8Array> {
  if (typeof given.key === 'string') return importPKCS8(given.key, alg);
  if ('kty' in given.key) return importJWK(given.key as JWK, alg);
  return given.key as CryptoKey;
}

/** A client assertion JWT for `audience` (the issuer). */
export async function clientAssertion(
  clientId: string,
  audience: string,
  given: ClientAssertionKey,
): Promise<string> {
  const alg = given.algorithm ?? 'ES256';
  const key = await signingKey(given, alg);
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({
      alg,
      typ: 'JWT',
      ...(given.keyId === undefined ? {} : { kid: given.keyId }),
    })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(audience)
    .setJti(randomUUID())
    .setIssuedAt(now)
    .setExpirationTime(now + 300)
    .sign(key);
}

/** Adds the client's authentication to a token (or revocation) request. */
export async function authenticate(
  method: TokenEndpointAuthMethod,
  client: ClientInformation,
  metadata: AuthorizationServerMetadata,
  key: ClientAssertionKey | undefined,
  form: URLSearchParams,
  headers: Record<string, string>,
): Promise<void> {
  const secret = client.client_secret;
  switch (method) {
    case 'client_secret_basic':
    case 'client_secret_post':
      if (secret === undefined) {
        throw new McpKitError(
          'AUTH_FAILED',
          `${method} needs a client secret, and the client has none`,
        );
      }
      if (method === 'client_secret_basic')
        headers['authorization'] = basicCredentials(client.client_id, secret);
      else {
        form.set('client_id', client.client_id);
        form.set('client_secret', secret);
      }
      return;
    case 'private_key_jwt':
      if (key === undefined) {
        throw new McpKitError(
          'AUTH_FAILED',
          'private_key_jwt needs a private key (auth option privateKey)',
        );
      }
      form.set('client_id', client.client_id);
      form.set('client_assertion_type', ASSERTION_TYPE);
      form.set('client_assertion', await clientAssertion(client.client_id, metadata.issuer, key));
      return;
    default:
      form.set('client_id', client.client_id);
  }
}
