import { announcedMaxBytes } from './announced-cap.js';
import { DEFAULT_MAX_DEPTH, deepField } from '../protocol/depth.js';
import { requestEra } from '../protocol/era.js';
import {
  cancelledIdOf,
  classify,
  errorResponse,
  resultResponse,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type RequestId,
} from '../protocol/jsonrpc.js';
import { META } from '../protocol/meta-keys.js';
import type { ClientCapabilities, Implementation } from '../protocol/types.js';
import { validateParams, type ValidationIssue } from '../protocol/validate.js';
import { isModernVersion, MODERN_VERSIONS, type Era } from '../protocol/versions.js';
import { ProtocolError } from '../errors/protocol-error.js';
import { isAuthInfo } from './auth-info.js';
import { tooDeep, unsupportedVersion } from '../errors/wire-errors.js';
import { Cancellation } from './cancellation.js';
import { createContentEnv } from './content-env.js';
import { isPreEncoded } from '../protocol/pre-encoded.js';
import { RequestContext } from './context.js';
import type { ServerCore } from './core.js';
import { isInputRequired } from './input-required.js';
import { LEGACY_METHODS, METHODS, initialize, own, type MethodSpec } from './methods/index.js';
import {
  checkModernMeta,
  finalResult,
  isObject,
  modernResult,
  notModernWhy,
} from './modern-envelope.js';
import { resultCapBytes } from './options.js';
import type { HandleExtra, Peer } from './peer.js';
import { isModernOnly, methodFacts } from '../protocol/methods.js';

const NO_SESSION =
  'Send initialize first (2025-11-25), or _meta with a protocolVersion (2026-07-28)';

function fail(id: RequestId | null, error: ProtocolError): JSONRPCResponse {
  return errorResponse(id, error.code, error.message, error.data);
}

function invalidParams(id: RequestId, method: string, issue: ValidationIssue): JSONRPCResponse {
  return fail(
    id,
    ProtocolError.invalidParams(`${method}: ${issue.message}`, { field: issue.field }),
  );
}

/** What a handler threw that no one answered for: reported, and answered -32603. */
function internalError(core: ServerCore, id: RequestId, method: string, error: unknown) {
  if (core.options.onError) core.options.onError(error, method);
  else console.error(`mcpkit: ${method} failed:`, error);
  return fail(id, ProtocolError.internal(`Internal error while handling ${method}`));
}

/** Builds the message handler a server's peers share: every message checked and run. */
export function dispatch(core: ServerCore) {
  // Checked once, when the server is built.
  const maxDepth = core.options.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!Number.isInteger(maxDepth) || maxDepth < 1)
    throw new RangeError(`maxDepth must be a positive integer, got ${String(maxDepth)}`);
  return async (
    peer: Peer,
    raw: unknown,
    extra: HandleExtra,
  ): Promise<JSONRPCResponse | undefined> => {
    const c = classify(raw);
    // Depth is measured here, before anything recursive (validators, canonicalJson, handlers).
    const tooDeepAt =
      c.kind === 'request' || c.kind === 'response' ? deepField(c.message, maxDepth) : undefined;
    switch (c.kind) {
      case 'invalid':
        if (c.responseTo !== undefined) {
          // A malformed answer to one of our requests fails that request now, not at its timeout.
          peer.receiveMalformedResponse(c.responseTo, c.reason);
          return fail(null, ProtocolError.invalidRequest(`Invalid response: ${c.reason}`));
        }
        return fail(c.id, ProtocolError.invalidRequest(`Invalid request: ${c.reason}`));
      case 'response':
        if (tooDeepAt !== undefined && c.message.id !== null) {
          const why = `it nests more than ${maxDepth} levels below ${tooDeepAt} (maxDepth)`;
          peer.receiveMalformedResponse(c.message.id, why);
          return fail(null, ProtocolError.invalidRequest(`Invalid response: ${why}`));
        }
        peer.receiveResponse(c.message);
        return undefined;
      case 'notification':
        onNotification(peer, c.message);
        return undefined;
      case 'request': {
        const { id, method } = c.message;
        if (tooDeepAt !== undefined) return fail(id, tooDeep(maxDepth, tooDeepAt));
        try {
          // Transports with headers classify at their edge; elsewhere the peer is the edge.
          const era =
            extra.era ??
            requestEra({
              method,
              params: c.message.params,
              inSession: peer.session !== undefined,
            });
          return await onRequest(core, peer, c.message, extra, era);
        } catch (error) {
          // Whatever fails outside the handler still answers this id (never a silent request).
          if (error instanceof ProtocolError) return fail(id, error);
          return internalError(core, id, method, error);
        }
      }
    }
  };
}

function onNotification(peer: Peer, message: JSONRPCNotification): void {
  const cancelled = cancelledIdOf(message);
  if (cancelled !== undefined && peer.cancelById) peer.inflight.get(cancelled)?.abort();
  else if (message.method === 'notifications/initialized' && peer.session)
    peer.session.initialized = true;
}

async function onRequest(
  core: ServerCore,
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
    // The spec's order: `_meta` keys (-32602), the transport's envelope (-32020, checked at its
    // edge before the message got here), then the version (-32022).
    const problem = checkModernMeta(params['_meta'], method);
    if (problem) return fail(id, problem);
    protocolVersion = meta[META.protocolVersion] as string;
    if (!isModernVersion(protocolVersion))
      return fail(id, unsupportedVersion(protocolVersion, MODERN_VERSIONS));
    clientCapabilities = meta[META.clientCapabilities] as ClientCapabilities;
    clientInfo = meta[META.clientInfo] as Implementation | undefined;
    spec = own(METHODS, method);
    if (!spec) return fail(id, ProtocolError.methodNotFound(method, notModernWhy(method)));
  } else {
    if (method === 'initialize') return initialize(core, peer, request);
    const session = peer.session;
    if (!session) return fail(id, ProtocolError.invalidRequest(NO_SESSION));
    protocolVersion = session.protocolVersion;
    clientCapabilities = session.clientCapabilities;
    clientInfo = session.clientInfo;
    const legacy = own(LEGACY_METHODS, method);
    if (legacy) {
      const issue = validateParams('legacy', method, params);
      if (issue) return invalidParams(id, method, issue);
      try {
        const auth = isAuthInfo(extra.authInfo) ? extra.authInfo : undefined;
        return resultResponse(id, legacy(params, session, { core, auth }));
      } catch (error) {
        return fail(
          id,
          error instanceof ProtocolError ? error : ProtocolError.internal(String(error)),
        );
      }
    }
    spec = isModernOnly(method) ? undefined : own(METHODS, method);
    if (!spec) return fail(id, ProtocolError.methodNotFound(method));
  }

  const issue = validateParams(era, method, params);
  if (issue) return invalidParams(id, method, issue);

  const cancel = new Cancellation(extra.signal);
  peer.begin(id, cancel);
  // The transport's share when it gives one (released once written); else this request's own.
  const answer = extra.answer ?? core.answers.lease();
  const notify = extra.notify ?? peer.send;
  try {
    let answers: Record<string, unknown> = {};
    let userState: unknown;
    // What a requestState is bound to, built only when one is verified or signed: most requests
    // carry none and never ask for input.
    const targetOf = spec.target;
    const target = () => targetOf?.(params, extra.authInfo);
    const state = params['requestState'];
    if (era === 'modern' && targetOf !== undefined && typeof state === 'string')
      ({ answers, user: userState } = await core.signer.verify(target() as string, state));
    const ctx = new RequestContext({
      method,
      requestId: id,
      era,
      protocolVersion,
      clientCapabilities,
      clientInfo,
      meta,
      cancel,
      capBytes: resultCapBytes(
        core.options,
        peer.maxMessageBytes,
        announcedMaxBytes(meta, clientCapabilities),
      ),
      // Only a read's own result goes to the writer as it is; see RequestContext.streamsBodies.
      streamsBodies: peer.streamsBodies && method === 'resources/read',
      answer,
      content: (c) => createContentEnv(core, c),
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
      const flow = extra.notify ? extra.flow : peer.flow;
      result = await spec.run(params, { core, ctx, notify, flow });
    } catch (error) {
      if (!isInputRequired(error) || targetOf === undefined || era === 'legacy') throw error;
      const requestState = await core.signer.sign(target() as string, {
        answers: error.answers,
        user: error.userState,
      });
      return resultResponse(
        id,
        modernResult(core, {
          resultType: 'input_required',
          inputRequests: error.inputRequests,
          requestState,
        }),
      );
    }
    // Cancelled by the client: no response. A listen stream the server ended (server.close())
    // still gets its result, although closing the connection right after aborts it too.
    const endedByServer =
      method === 'subscriptions/listen' && core.listen.takeEndedByServer(notify, id);
    if (cancel.aborted && !endedByServer) return undefined;
    // A versioned read's answer, encoded once (methods/resources.ts): final, written as it is.
    if (isPreEncoded(result)) return resultResponse(id, result);
    return resultResponse(id, finalResult(core, era, methodFacts(method)?.cache, result));
  } catch (error) {
    if (method === 'subscriptions/listen') core.listen.takeEndedByServer(notify, id);
    if (cancel.aborted) return undefined;
    if (error instanceof ProtocolError) return fail(id, error);
    return internalError(core, id, method, error);
  } finally {
    peer.finish(id, cancel);
    if (extra.answer === undefined) answer.release();
  }
}
