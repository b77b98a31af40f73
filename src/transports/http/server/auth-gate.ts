/** Where the HTTP endpoint meets its authorization layer (mcpkit/auth). */
import { ERROR_CODES } from '../../../protocol/error-codes.js';
import type { ResourceServer } from '../../../auth/server/index.js';
import { missingScopes, type AuthInfo } from '../../../server/transport.js';
import type { HttpExchange, HttpResponder } from './exchange.js';
import { jsonError } from './json-error.js';
import { JSON_HEADERS } from './sse.js';

/**
 * Serves Protected Resource Metadata at its well-known paths (GET; public, so any origin may
 * read it); true when the request was one of them.
 */
export function serveResourceMetadata(
  auth: ResourceServer,
  scopes: () => readonly string[],
  ex: HttpExchange,
  res: HttpResponder,
): boolean {
  if (!ex.path.startsWith('/.well-known/') || !auth.metadataPaths().includes(ex.path)) return false;
  const cors = { 'access-control-allow-origin': '*' };
  if (ex.method !== 'GET' && ex.method !== 'HEAD') {
    jsonError(res, 405, ERROR_CODES.INVALID_REQUEST, `Method ${ex.method} not allowed`, null, {
      ...cors,
      allow: 'GET',
    });
    return true;
  }
  const body = JSON.stringify(auth.metadata(scopes()));
  res.send(
    200,
    { ...JSON_HEADERS, ...cors, 'cache-control': 'max-age=300' },
    ex.method === 'HEAD' ? undefined : body,
  );
  return true;
}

/** The caller of a request to the endpoint, or undefined once it was refused (401/403/503). */
export async function authorize(
  auth: ResourceServer,
  ex: HttpExchange,
  res: HttpResponder,
): Promise<AuthInfo | undefined> {
  const outcome = await auth.authenticate({
    authorization: ex.header('authorization'),
    ...(ex.query !== undefined ? { query: ex.query } : {}),
  });
  if ('auth' in outcome) return outcome.auth;
  const { status, headers, message } = outcome.refused;
  const code = status === 503 ? ERROR_CODES.INTERNAL_ERROR : ERROR_CODES.INVALID_REQUEST;
  jsonError(res, status, code, message, null, headers);
  return undefined;
}

/** The scopes a request (each of a batch) needs that `caller` lacks the whole of, if any. */
export function neededScopes(
  scopesOf: (message: unknown) => readonly string[] | undefined,
  body: unknown,
  caller: AuthInfo,
): readonly string[] | undefined {
  for (const message of Array.isArray(body) ? body : [body]) {
    const needed = scopesOf(message);
    if (needed && missingScopes(needed, caller).length > 0) return needed;
  }
  return undefined;
}
