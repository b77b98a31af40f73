import { ERROR_CODES } from '../../../protocol/error-codes.js';
import { DEFAULT_MAX_DEPTH } from '../../../protocol/depth.js';
import {
  errorResponse,
  isRequestId,
  type JSONRPCMessage,
  type JSONRPCResponse,
} from '../../../protocol/jsonrpc.js';
import type { Tool } from '../../../protocol/types.js';
import type { Era } from '../../../protocol/versions.js';
import type { McpServer } from '../../../server/index.js';
import type { AnswerBudget, Peer } from '../../../server/transport.js';
import { failUnsent } from '../../oversize.js';
import { BodyBudget, type BodyLimits } from './body-limits.js';
import { StallWatch } from './stall-watch.js';
import type { HttpExchange, HttpResponder, SseSink } from './exchange.js';
import { headerMismatchAtEdge } from './header-check.js';
import { jsonError } from './json-error.js';
import { deleteSession, openSessionStream } from './legacy-stream.js';
import {
  DEFAULT_KEEP_ALIVE_MS,
  endpointLimitsOf,
  keepAliveMsOf,
  maxResponseBytesOf,
  type HttpOptions,
} from './options.js';
import { createOriginGuard, type OriginGuard } from './origin-guard.js';
import { replyUnder, type Reply } from './reply.js';
import { acceptedAnswers, acceptsContentType, bodyText } from './request-body.js';
import { routePost } from './route.js';
import { SessionTable, type LegacyHttpSession } from './sessions.js';
import { SSE_HEADERS, sseEvent, startKeepAlive } from './sse.js';
import { refuseListenWithoutSse } from './listen-accept.js';
import { authorize, neededScopes, serveResourceMetadata } from './auth-gate.js';
import type { ResourceServer } from '../../../auth/server/index.js';
import { callerKey, type AuthInfo } from '../../../server/transport.js';

type Body = Record<string, unknown>;

function idOf(body: unknown): JSONRPCResponse['id'] {
  const id = (body as Body | null)?.['id'];
  return isRequestId(id) ? id : null;
}

function keyOf(caller: AuthInfo | undefined): string | undefined {
  return caller && callerKey(caller);
}

/** The transport-independent Streamable HTTP logic, shared by the web and node adapters. */
export class HttpEndpoint {
  private readonly options: HttpOptions;
  private readonly stateless: Peer;
  private readonly sessions: SessionTable;
  private readonly guard: OriginGuard | undefined;
  /** One budget for every body this endpoint reads at once. */
  private readonly bodyLimits: BodyLimits;
  /** Outbound cap (`maxResponseBytes`), checked once here. */
  private readonly maxResponseBytes: number;
  /** Sends a POST's answer, as JSON or as the last SSE event, within `maxResponseBytes`. */
  private readonly reply: Reply;
  /** The server's `maxDepth`: a message nested past it is the engine's to refuse. */
  private readonly maxDepth: number;
  /** Bytes of answers being produced or waiting to be written (the server's). */
  private readonly answers: AnswerBudget;
  private readonly auth: ResourceServer | undefined;
  /** Every scope tools, prompts and resources ask for (PRM `scopes_supported`). */
  private readonly scopes: () => readonly string[];
  /** The scopes one message needs (a tool call's tool's, a read's resource's). */
  private readonly scopesOf: (message: unknown) => readonly string[] | undefined;
  /** For `Mcp-Param-*` headers, checked against the tool's arguments here. */
  private readonly toolInputSchema: (name: string) => Readonly<Tool['inputSchema']> | undefined;

  constructor(server: McpServer, options: HttpOptions = {}) {
    // Checked once; the legacy GET streams read the same options.
    this.options = { ...options, keepAliveMs: keepAliveMsOf(options) };
    const limits = endpointLimitsOf(options);
    this.bodyLimits = {
      maxBytes: limits.maxBodyBytes,
      idleMs: limits.bodyTimeoutMs,
      budget: new BodyBudget(limits.maxBodyTotalBytes),
    };
    this.bodyLimits.stalls = new StallWatch(this.bodyLimits.idleMs);
    const maxResponse = maxResponseBytesOf(options);
    this.maxResponseBytes = maxResponse;
    this.reply = replyUnder(maxResponse);
    this.maxDepth = server.options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.toolInputSchema = (name) => server.toolInputSchema(name);
    this.auth = options.auth;
    this.scopes = () => server.declaredScopes();
    this.scopesOf = (message) => server.scopesFor(message);
    this.answers = server.answerBudget;
    this.stateless = server.connect({
      transport: 'http',
      send: () => undefined,
      maxMessageBytes: maxResponse,
      cancelById: false,
      streamsBodies: true,
    });
    this.guard = options.dnsRebindingProtection === false ? undefined : createOriginGuard(options);
    this.sessions = new SessionTable(server, limits.sessionIdleMs, limits.maxSessions, maxResponse);
  }

  async handle(ex: HttpExchange, res: HttpResponder): Promise<void> {
    const auth = this.auth;
    if (auth && serveResourceMetadata(auth, this.scopes, ex, res)) return;
    if (!this.gate(ex, res)) return;
    let caller: AuthInfo | undefined;
    if (auth) {
      caller = await authorize(auth, ex, res);
      if (!caller) return;
    }
    const admitted = this.admit(ex, res, caller);
    if (!admitted) return;
    const raw = bodyText(await ex.body(this.bodyLimits), res, this.bodyLimits);
    if (raw !== undefined) return this.post(ex, res, raw, admitted.acceptsSse, caller);
  }

  /** Answers a request to another path, or whose Host or Origin is refused; true to go on. */
  private gate(ex: HttpExchange, res: HttpResponder): boolean {
    // Mounted by a framework (app.use('/mcp', h) strips the path), its route decided already.
    const path =
      this.options.path === undefined ? (ex.mounted === true ? null : '/mcp') : this.options.path;
    if (path !== null && ex.path !== path) {
      jsonError(res, 404, ERROR_CODES.INVALID_REQUEST, `Not found: the MCP endpoint is ${path}`);
      return false;
    }
    if (this.guard) {
      const host = ex.header('host');
      // HTTP/1.0 lets a client leave Host out; a Host check cannot pass what it cannot see.
      if (host === undefined) {
        const why = 'the request has no Host header, which the Host check needs (allowedHosts)';
        jsonError(res, 400, ERROR_CODES.INVALID_REQUEST, `Bad Request: ${why}`);
        return false;
      }
      const refused = this.guard(host, ex.header('origin'));
      if (refused) {
        jsonError(res, 403, ERROR_CODES.INVALID_REQUEST, `Forbidden: ${refused}`);
        return false;
      }
    }
    return true;
  }

  /**
   * Answers what is answered before any body is read (GET, DELETE, another method, a POST's
   * Content-Type or Accept refused); for a POST to go on with, what its Accept allows.
   */
  private admit(
    ex: HttpExchange,
    res: HttpResponder,
    caller: AuthInfo | undefined,
  ): { acceptsSse: boolean } | undefined {
    switch (ex.method) {
      case 'POST':
        return acceptsContentType(ex, res) ? acceptedAnswers(ex, res) : undefined;
      case 'GET':
        openSessionStream(this.sessions, this.options, ex, res, keyOf(caller), caller);
        return undefined;
      case 'DELETE':
        deleteSession(this.sessions, this.options, ex, res, keyOf(caller));
        return undefined;
      default:
        jsonError(res, 405, ERROR_CODES.INVALID_REQUEST, `Method ${ex.method} not allowed`, null, {
          allow: 'POST, GET, DELETE',
        });
        return undefined;
    }
  }

  /** Bytes held now by request bodies being read (bounded by maxBodyTotalBytes). */
  get bufferedBodyBytes(): number {
    return this.bodyLimits.budget.used;
  }

  /** Closes legacy sessions and their streams. */
  close(): void {
    this.sessions.closeAll();
    this.stateless.close();
  }

  /** A POST whose body was read: parsed once here, routed, run and answered. */
  private async post(
    ex: HttpExchange,
    res: HttpResponder,
    raw: string,
    acceptsSse: boolean,
    caller: AuthInfo | undefined,
  ): Promise<void> {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch (error) {
      return jsonError(
        res,
        400,
        ERROR_CODES.PARSE_ERROR,
        `Parse error: ${(error as Error).message}`,
      );
    }
    if (caller && this.auth) {
      const needed = neededScopes(this.scopesOf, body, caller);
      if (needed) {
        const refusal = this.auth.insufficientScope(needed);
        return jsonError(
          res,
          refusal.status,
          ERROR_CODES.INVALID_REQUEST,
          refusal.message,
          idOf(body),
          refusal.headers,
        );
      }
    }
    // Stateless (2026-07-28), an existing legacy session, or a new one.
    const legacy = this.options.legacy !== false;
    const route = routePost(ex, body, this.stateless, this.sessions, legacy, keyOf(caller));
    if ('status' in route)
      return jsonError(res, route.status, route.code, route.message, idOf(body), {}, route.data);
    const { session, isNew, era } = route;
    if (!session)
      return this.exchange(ex, res, body, route.peer, era, undefined, acceptsSse, caller);
    if (!isNew)
      return this.sessions.busyWhile(session, () =>
        this.exchange(ex, res, body, session.peer, era, session, acceptsSse, caller),
      );
    // A new session is committed only when its initialize succeeds, and closed on every other path.
    let committed = false;
    try {
      await this.exchange(
        ex,
        res,
        body,
        session.peer,
        era,
        session,
        acceptsSse,
        caller,
        (response) => {
          if (response && 'result' in response) {
            this.sessions.commit(session);
            committed = true;
          }
        },
      );
    } finally {
      if (!committed) this.sessions.discard(session);
    }
  }

  /**
   * Runs one POSTed message on its peer and answers it. `settled` sees the response before it is
   * sent: a new session commits there, so that it exists once the client has its id.
   */
  private async exchange(
    ex: HttpExchange,
    res: HttpResponder,
    body: unknown,
    peer: Peer,
    era: Era,
    session: LegacyHttpSession | undefined,
    acceptsSse: boolean,
    caller: AuthInfo | undefined,
    settled?: (response: JSONRPCResponse | undefined) => void,
  ): Promise<void> {
    const isRequest = typeof body === 'object' && body !== null && 'method' in body && 'id' in body;
    if (!isRequest) {
      const response = await peer.handle(body, caller ? { era, authInfo: caller } : { era });
      settled?.(response);
      if (response) return this.reply(res, body, response, era, undefined, {}, () => ex.signal);
      return res.send(202, {});
    }
    const b = body as Body;
    // A listen stream can only be answered as SSE; without it the request would hang silently.
    if (era === 'modern' && b['method'] === 'subscriptions/listen' && !acceptsSse)
      return refuseListenWithoutSse(ex, res, b);
    const sessionHeaders: Record<string, string> = session ? { 'mcp-session-id': session.id } : {};
    if (era === 'modern') {
      const refused = headerMismatchAtEdge(ex, b, this.maxDepth, this.toolInputSchema);
      if (refused) {
        const { code, message, data } = refused.error;
        const response = errorResponse(refused.id, code, message, data);
        settled?.(response);
        return this.reply(res, body, response, era, undefined, sessionHeaders, () => ex.signal);
      }
    }
    let sink: SseSink | undefined;
    let stopKeepAlive: (() => void) | undefined;
    // Set once the request settled: what the handler sends later (work that outlived its
    // request) is dropped, with no SSE switch and no timer.
    let done = false;
    // JSON unless the handler speaks before its result: then switch to SSE.
    const notify = (message: JSONRPCMessage): void => {
      if (done) return;
      const event = sseEvent(message, this.maxResponseBytes, (t) => console.error(t));
      if (!event) return failUnsent(message, this.maxResponseBytes);
      if (!sink) {
        if (!acceptsSse) return;
        sink = res.stream(200, { ...SSE_HEADERS, ...sessionHeaders });
        stopKeepAlive = startKeepAlive(sink, this.options.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS);
      }
      for (const part of event) sink.write(part);
    };
    let response: JSONRPCResponse | undefined;
    // This answer's share of the outbound budget: given back once the client took it.
    const answer = this.answers.lease();
    try {
      response = await peer.handle(body, {
        answer,
        notify,
        // A listen stream holds (and coalesces) its frames while the sink is congested, and is
        // cut past maxListenQueueBytes; the sink exists once the stream's first frame is sent.
        ...(b['method'] === 'subscriptions/listen'
          ? {
              flow: {
                get congested() {
                  return sink?.congested ?? false;
                },
                get bufferedBytes() {
                  return sink?.bufferedBytes ?? 0;
                },
                onDrain: (cb: () => void) => (sink ? sink.onDrain(cb) : void setTimeout(cb, 0)),
              },
            }
          : {}),
        signal: () => ex.signal,
        era,
        ...(caller ? { authInfo: caller } : {}),
      });
    } catch (error) {
      answer.release();
      throw error;
    } finally {
      done = true;
      stopKeepAlive?.();
    }
    settled?.(response);
    // A new session is named only by the answer that opened it: a failed initialize names none.
    const headers = settled && !(response && 'result' in response) ? {} : sessionHeaders;
    await this.reply(res, body, response, era, sink, headers, () => ex.signal, answer);
  }
}
