import { ERROR_CODES } from '../protocol/error-codes.js';
import {
  classify,
  errorResponse,
  resultResponse,
  type JSONRPCMessage,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type RequestId,
} from '../protocol/jsonrpc.js';
import { META } from '../protocol/meta-keys.js';
import type { ClientCapabilities, Implementation } from '../protocol/types.js';
import { validateParams } from '../protocol/validate.js';
import {
  eraOf as versionEra,
  isModernVersion,
  MODERN_VERSIONS,
  type Era,
} from '../protocol/versions.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { Cancellation } from './cancellation.js';
import { createContentEnv } from './content-env.js';
import { InputRequiredSignal, RequestContext } from './context.js';
import { LEGACY_METHODS, initialize } from './legacy.js';
import { METHODS, MODERN_ONLY, type MethodSpec } from './methods.js';
import type { HandleExtra, Peer } from './peer.js';
import type { McpServer } from './server.js';

/** HTTP status a transport should use for a response (absent: 200). */
const statuses = new WeakMap<object, number>();

export function httpStatusOf(response: JSONRPCResponse): number {
  return statuses.get(response) ?? 200;
}

function fail(id: RequestId | null, error: ProtocolError, status?: number): JSONRPCResponse {
  const response = errorResponse(id, error.code, error.message, error.data);
  const code = error.code;
  const s =
    status ??
    (code === ERROR_CODES.METHOD_NOT_FOUND
      ? 404
      : code === ERROR_CODES.HEADER_MISMATCH ||
          code === ERROR_CODES.MISSING_REQUIRED_CLIENT_CAPABILITY ||
          code === ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION ||
          code === ERROR_CODES.PARSE_ERROR ||
          code === ERROR_CODES.INVALID_REQUEST
        ? 400
        : undefined);
  if (s !== undefined) statuses.set(response, s);
  return response;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The era of a request: `_meta` or a modern header wins; `initialize` or a session means legacy. */
function eraOf(request: JSONRPCRequest, peer: Peer, extra: HandleExtra): Era {
  const meta = request.params?.['_meta'];
  if (isObject(meta) && META.protocolVersion in meta) return 'modern';
  // Any header value that is not a legacy revision (even an unknown one) means the stateless wire.
  const header = extra.headerVersion;
  if (typeof header === 'string' && versionEra(header) !== 'legacy') return 'modern';
  if (request.method === 'initialize' || peer.session) return 'legacy';
  return 'modern';
}

/** Builds the message handler a server's peers share. */
export function dispatch(server: McpServer) {
  return async (
    peer: Peer,
    raw: unknown,
    extra: HandleExtra,
  ): Promise<JSONRPCResponse | undefined> => {
    const c = classify(raw);
    switch (c.kind) {
      case 'invalid':
        if (c.responseTo !== undefined) {
          // A malformed answer to one of our requests fails that request now, not at its timeout.
          peer.receiveMalformedResponse(c.responseTo, c.reason);
          return fail(null, ProtocolError.invalidRequest(`Invalid response: ${c.reason}`));
        }
        return fail(c.id, ProtocolError.invalidRequest(`Invalid request: ${c.reason}`));
      case 'response':
        peer.receiveResponse(c.message);
        return undefined;
      case 'notification':
        onNotification(peer, c.message);
        return undefined;
      case 'request': {
        const era = eraOf(c.message, peer, extra);
        const response = await onRequest(server, peer, c.message, extra, era);
        // 2025-11-25 carries JSON-RPC errors in-band (HTTP 200): a 404 there means "no session".
        if (response && era === 'legacy') statuses.delete(response);
        return response;
      }
    }
  };
}

function onNotification(peer: Peer, message: JSONRPCNotification): void {
  if (message.method === 'notifications/cancelled') {
    const id = message.params?.['requestId'];
    if (peer.cancelById && (typeof id === 'string' || typeof id === 'number')) {
      peer.inflight.get(id)?.abort();
    }
  } else if (message.method === 'notifications/initialized' && peer.session) {
    peer.session.initialized = true;
  }
}

/** A table lookup that never reaches Object.prototype (a client may send "constructor"). */
function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

async function onRequest(
  server: McpServer,
  peer: Peer,
  request: JSONRPCRequest,
  extra: HandleExtra,
  era: Era,
): Promise<JSONRPCResponse | undefined> {
  const { id, method } = request;
  const params = request.params ?? {};
  let spec: MethodSpec | undefined;
  let protocolVersion: string;
  let clientCapabilities: ClientCapabilities;
  let clientInfo: Implementation | undefined;
  const meta = isObject(params['_meta']) ? params['_meta'] : {};

  if (era === 'modern') {
    const problem = checkModernMeta(params['_meta'], method, extra.headerVersion);
    if (problem) return fail(id, problem, 400);
    protocolVersion = meta[META.protocolVersion] as string;
    clientCapabilities = meta[META.clientCapabilities] as ClientCapabilities;
    clientInfo = meta[META.clientInfo] as Implementation | undefined;
    spec = own(METHODS, method);
    if (!spec) return fail(id, ProtocolError.methodNotFound(method, notModernWhy(method)));
  } else {
    if (method === 'initialize') return initialize(server, peer, request);
    const session = peer.session;
    if (!session) {
      return fail(
        id,
        ProtocolError.invalidRequest(
          'Send initialize first (2025-11-25), or _meta with a protocolVersion (2026-07-28)',
        ),
      );
    }
    protocolVersion = session.protocolVersion;
    clientCapabilities = session.clientCapabilities;
    clientInfo = session.clientInfo;
    const legacy = own(LEGACY_METHODS, method);
    if (legacy) {
      const issue = validateParams('legacy', method, params);
      if (issue)
        return fail(
          id,
          ProtocolError.invalidParams(`${method}: ${issue.message}`, { field: issue.field }),
        );
      try {
        return resultResponse(id, legacy(params, session));
      } catch (error) {
        return fail(
          id,
          error instanceof ProtocolError ? error : ProtocolError.internal(String(error)),
        );
      }
    }
    spec = MODERN_ONLY.has(method) ? undefined : own(METHODS, method);
    if (!spec) return fail(id, ProtocolError.methodNotFound(method));
  }

  const issue = validateParams(era, method, params);
  if (issue) {
    const status = issue.field.startsWith('params._meta') ? 400 : undefined;
    return fail(
      id,
      ProtocolError.invalidParams(`${method}: ${issue.message}`, { field: issue.field }),
      status,
    );
  }

  const cancel = new Cancellation(extra.signal);
  peer.begin(id, cancel);
  const notify = extra.notify ?? peer.send;
  try {
    let answers: Record<string, unknown> = {};
    let userState: unknown;
    const target = spec.target?.(params, extra.authInfo);
    const state = params['requestState'];
    if (era === 'modern' && target !== undefined && typeof state === 'string') {
      ({ answers, user: userState } = await server.signer.verify(target, state));
    }
    const ctx = new RequestContext({
      method,
      requestId: id,
      era,
      protocolVersion,
      clientCapabilities,
      clientInfo,
      meta,
      cancel,
      content: () => createContentEnv(server, method, peer.maxMessageBytes),
      authInfo: extra.authInfo,
      inputResponses: era === 'modern' ? (params['inputResponses'] as never) : undefined,
      answers,
      userState,
      channel: {
        notify,
        logLevel:
          era === 'modern' ? (meta[META.logLevel] as string | undefined) : peer.session?.logLevel,
        logByDefault: era === 'legacy',
        request: (m, p, signal) => peer.request(m, p, notify, signal),
      },
    });
    let result: Record<string, unknown>;
    try {
      result = await spec.run(params, { server, ctx, notify });
    } catch (error) {
      if (!(error instanceof InputRequiredSignal) || target === undefined || era === 'legacy')
        throw error;
      const requestState = await server.signer.sign(target, {
        answers: error.answers,
        user: error.userState,
      });
      return resultResponse(
        id,
        modernResult(server, {
          resultType: 'input_required',
          inputRequests: error.inputRequests,
          requestState,
        }),
      );
    }
    // Cancelled by the client: no response. A listen stream the server ended (server.close())
    // still gets its result, although closing the connection right after aborts it too.
    const endedByServer =
      method === 'subscriptions/listen' && server.listen.takeEndedByServer(notify, id);
    if (cancel.aborted && !endedByServer) return undefined;
    if (era === 'legacy') return resultResponse(id, result);
    if (spec.cache) addCacheHints(server, result, spec.cache);
    return resultResponse(id, modernResult(server, result));
  } catch (error) {
    if (method === 'subscriptions/listen') server.listen.takeEndedByServer(notify, id);
    if (cancel.aborted) return undefined;
    if (error instanceof ProtocolError) return fail(id, error);
    if (server.options.onError) server.options.onError(error, method);
    else console.error(`mcpkit: ${method} failed:`, error);
    return fail(id, ProtocolError.internal(`Internal error while handling ${method}`));
  } finally {
    peer.finish(id, cancel);
  }
}

/** Order matters: missing keys (-32602), then header mismatch (-32020), then version (-32022). */
function checkModernMeta(
  meta: unknown,
  method: string,
  header: string | null | undefined,
): ProtocolError | undefined {
  if (!isObject(meta)) {
    return ProtocolError.invalidParams(
      `${method}: params._meta is required (2026-07-28 requests carry protocolVersion and clientCapabilities there)`,
      { field: 'params._meta' },
    );
  }
  const version = meta[META.protocolVersion];
  if (typeof version !== 'string') {
    const field = `params._meta["${META.protocolVersion}"]`;
    return ProtocolError.invalidParams(`${method}: ${field} is required and must be a string`, {
      field,
    });
  }
  if (!isObject(meta[META.clientCapabilities])) {
    const field = `params._meta["${META.clientCapabilities}"]`;
    return ProtocolError.invalidParams(
      `${method}: ${field} is required and must be an object ({} for none)`,
      { field },
    );
  }
  if (header === null) {
    return new ProtocolError(
      ERROR_CODES.HEADER_MISMATCH,
      'MCP-Protocol-Version header is required and must equal _meta protocolVersion',
      {
        header: 'MCP-Protocol-Version',
      },
    );
  }
  if (header !== undefined && header.trim() !== version) {
    return new ProtocolError(
      ERROR_CODES.HEADER_MISMATCH,
      `MCP-Protocol-Version header ${JSON.stringify(header)} does not match _meta protocolVersion ${JSON.stringify(version)}`,
      { header: 'MCP-Protocol-Version' },
    );
  }
  if (!isModernVersion(version)) {
    return new ProtocolError(
      ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION,
      `Unsupported protocol version ${JSON.stringify(version)}; supported: ${MODERN_VERSIONS.join(', ')}`,
      { supported: [...MODERN_VERSIONS], requested: version },
    );
  }
  return undefined;
}

function notModernWhy(method: string): string | undefined {
  if (method === 'initialize') return '2026-07-28 has no initialize: send _meta with every request';
  if (method === 'ping' || method === 'logging/setLevel') return 'removed in 2026-07-28';
  if (method === 'resources/subscribe' || method === 'resources/unsubscribe')
    return 'use subscriptions/listen';
  return undefined;
}

function addCacheHints(
  server: McpServer,
  result: Record<string, unknown>,
  kind: 'list' | 'read',
): void {
  const defaults = kind === 'list' ? server.options.cache : server.options.readCache;
  result['ttlMs'] ??= defaults?.ttlMs ?? 0;
  result['cacheScope'] ??= defaults?.cacheScope ?? (kind === 'list' ? 'public' : 'private');
}

const serverMeta = new WeakMap<McpServer, Record<string, unknown>>();

function modernResult(server: McpServer, result: Record<string, unknown>): Record<string, unknown> {
  result['resultType'] ??= 'complete';
  const meta = result['_meta'];
  if (isObject(meta)) {
    result['_meta'] = { ...meta, [META.serverInfo]: server.info };
  } else {
    // One shared, never-mutated object for the common case.
    let shared = serverMeta.get(server);
    if (!shared)
      serverMeta.set(server, (shared = Object.freeze({ [META.serverInfo]: server.info })));
    result['_meta'] = shared;
  }
  return result;
}

export type { JSONRPCMessage };
