import { ERROR_CODES } from '../../protocol/error-codes.js';
import { requestEra } from '../../protocol/era.js';
import type { JSONRPCMessage, JSONRPCResponse } from '../../protocol/jsonrpc.js';
import { MODERN_VERSIONS, type Era } from '../../protocol/versions.js';
import { unsupportedVersion } from '../../errors/wire-errors.js';
import type { McpServer } from '../../server/index.js';
import type { Peer } from '../../server/transport.js';
import { encodeForSend, type EncodedMessage } from '../oversize.js';
import type { HttpExchange, HttpResponder, SseSink } from './exchange.js';
import { checkModernHeaders } from './header-check.js';
import { jsonError } from './json-error.js';
import { deleteSession, openSessionStream } from './legacy-stream.js';
import { DEFAULT_MAX_BODY_BYTES, maxResponseBytesOf, type HttpOptions } from './options.js';
import { createOriginGuard, type OriginGuard } from './origin-guard.js';
import { SessionTable, type LegacyHttpSession } from './sessions.js';
import { JSON_HEADERS, SSE_HEADERS, sseEvent, startKeepAlive } from './sse.js';
import { httpStatusFor } from './status.js';

type Body = Record<string, unknown>;

function idOf(body: unknown): JSONRPCResponse['id'] {
  const id = (body as Body | null)?.['id'];
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}

function isRequestId(id: unknown): boolean {
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
}

/** The transport-independent Streamable HTTP logic, shared by the web and node adapters. */
export class HttpEndpoint {
  private readonly options: HttpOptions;
  private readonly stateless: Peer;
  private readonly sessions: SessionTable;
  private readonly guard: OriginGuard | undefined;

  constructor(server: McpServer, options: HttpOptions = {}) {
    this.options = options;
    const maxResponse = maxResponseBytesOf(options);
    this.stateless = server.connect({
      transport: 'http',
      send: () => undefined,
      maxMessageBytes: maxResponse,
      cancelById: false,
    });
    this.guard = options.dnsRebindingProtection === false ? undefined : createOriginGuard(options);
    this.sessions = new SessionTable(
      server,
      options.sessionIdleMs ?? 30 * 60_000,
      options.maxSessions ?? 10_000,
      maxResponse,
    );
  }

  async handle(ex: HttpExchange, res: HttpResponder): Promise<void> {
    const path = this.options.path === undefined ? '/mcp' : this.options.path;
    if (path !== null && ex.path !== path) {
      return jsonError(
        res,
        404,
        ERROR_CODES.INVALID_REQUEST,
        `Not found: the MCP endpoint is ${path}`,
      );
    }
    if (this.guard) {
      const refused = this.guard(ex.header('host'), ex.header('origin'));
      if (refused) return jsonError(res, 403, ERROR_CODES.INVALID_REQUEST, `Forbidden: ${refused}`);
    }
    switch (ex.method) {
      case 'POST':
        return this.post(ex, res);
      case 'GET':
        return this.get(ex, res);
      case 'DELETE':
        return this.delete(ex, res);
      default:
        return jsonError(
          res,
          405,
          ERROR_CODES.INVALID_REQUEST,
          `Method ${ex.method} not allowed`,
          null,
          { allow: 'POST, GET, DELETE' },
        );
    }
  }

  /** Closes legacy sessions and their streams. */
  close(): void {
    this.sessions.closeAll();
    this.stateless.close();
  }

  private async post(ex: HttpExchange, res: HttpResponder): Promise<void> {
    const type = ex.header('content-type');
    if (!type || !/^application\/json\b/i.test(type.trim())) {
      return jsonError(
        res,
        415,
        ERROR_CODES.INVALID_REQUEST,
        'Unsupported Media Type: Content-Type must be application/json',
      );
    }
    const accept = (ex.header('accept') ?? '*/*').toLowerCase();
    const acceptsJson =
      accept.includes('application/json') ||
      accept.includes('*/*') ||
      accept.includes('application/*');
    const acceptsSse = accept.includes('text/event-stream') || accept.includes('*/*');
    if (!acceptsJson && !acceptsSse) {
      return jsonError(
        res,
        406,
        ERROR_CODES.INVALID_REQUEST,
        'Not Acceptable: Accept must list application/json and text/event-stream',
      );
    }
    const limit = this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const raw = await ex.body(limit);
    if (raw === 'too-large') {
      return jsonError(
        res,
        413,
        ERROR_CODES.INVALID_REQUEST,
        `Payload Too Large: the body exceeds ${limit} bytes (maxBodyBytes)`,
        null,
        { connection: 'close' },
      );
    }
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
    const route = this.route(ex, body);
    if ('status' in route)
      return jsonError(res, route.status, route.code, route.message, idOf(body), {}, route.data);
    const { session, isNew, era } = route;
    if (!isNew || !session)
      return this.exchange(ex, res, body, route.peer, era, session, acceptsSse);
    // A new session is committed only when its initialize succeeds, and closed on every other path.
    let committed = false;
    try {
      await this.exchange(ex, res, body, session.peer, era, session, acceptsSse, (response) => {
        if (response && 'result' in response) {
          this.sessions.commit(session);
          committed = true;
        }
      });
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
    settled?: (response: JSONRPCResponse | undefined) => void,
  ): Promise<void> {
    const isRequest = typeof body === 'object' && body !== null && 'method' in body && 'id' in body;
    if (!isRequest) {
      const response = await peer.handle(body, { era });
      settled?.(response);
      if (response) return this.reply(res, response, era, undefined, {});
      return res.send(202, {});
    }
    const b = body as Body;
    if (era === 'modern') {
      // A listen stream can only be answered as SSE; without it the request would hang silently.
      if (b['method'] === 'subscriptions/listen' && !acceptsSse) {
        return jsonError(
          res,
          406,
          ERROR_CODES.INVALID_REQUEST,
          'Not Acceptable: subscriptions/listen answers with an SSE stream; Accept must list text/event-stream',
          idOf(body),
        );
      }
    }
    const sessionHeaders: Record<string, string> = session ? { 'mcp-session-id': session.id } : {};
    let sink: SseSink | undefined;
    let stopKeepAlive: (() => void) | undefined;
    // Set once the request settled: what the handler sends later (work that outlived its
    // request) is dropped, with no SSE switch and no timer.
    let done = false;
    // JSON unless the handler speaks before its result: then switch to SSE.
    const notify = (message: JSONRPCMessage): void => {
      if (done) return;
      let event: string;
      try {
        event = sseEvent(message);
      } catch (error) {
        console.error('mcpkit: dropped a message that could not be encoded as JSON', error);
        return;
      }
      if (!sink) {
        if (!acceptsSse) return;
        sink = res.stream(200, { ...SSE_HEADERS, ...sessionHeaders });
        stopKeepAlive = startKeepAlive(sink, this.options.keepAliveMs ?? 15_000);
      }
      sink.write(event);
    };
    let response: JSONRPCResponse | undefined;
    try {
      response = await peer.handle(body, {
        notify,
        signal: () => ex.signal,
        era,
        checkEnvelope: (version, toolInputSchema) =>
          checkModernHeaders(
            ex,
            String(b['method']),
            (b['params'] ?? {}) as Body,
            version,
            toolInputSchema,
          ),
      });
    } finally {
      done = true;
      stopKeepAlive?.();
    }
    settled?.(response);
    this.reply(res, response, era, sink, sessionHeaders);
  }

  private reply(
    res: HttpResponder,
    response: JSONRPCResponse | undefined,
    era: Era,
    sink: SseSink | undefined,
    headers: Record<string, string>,
  ): void {
    if (sink) {
      const encoded = response ? this.encode(response) : undefined;
      if (encoded) {
        sink.write('event: message\ndata: ');
        for (const part of encoded.parts) sink.write(part);
        sink.write('\n\n');
      }
      sink.end();
    } else if (response) {
      res.send(
        httpStatusFor(response, era),
        { ...JSON_HEADERS, ...headers },
        this.encode(response).parts,
      );
    } else {
      res.send(202, headers);
    }
  }

  /** The response as JSON text; one that cannot be sent as it is becomes a -32603 error. */
  private encode(response: JSONRPCResponse): EncodedMessage {
    const encoded = encodeForSend(
      response,
      maxResponseBytesOf(this.options),
      'maxResponseBytes',
      (t) => console.error(t),
    );
    // A response always encodes to something; the fallback only satisfies the type.
    return encoded ?? { parts: [JSON.stringify(response)], bytes: -1 };
  }

  /** Picks the peer for a POST: stateless (2026-07-28), an existing legacy session, or a new one. */
  private route(
    ex: HttpExchange,
    body: unknown,
  ):
    | { peer: Peer; era: Era; session?: LegacyHttpSession; isNew?: boolean }
    | { status: number; code: number; message: string; data?: unknown } {
    const b = (typeof body === 'object' && body !== null ? body : {}) as Body;
    const sessionId = ex.header('mcp-session-id');
    // The era is decided here, once, and handed to the engine with the message.
    const era = requestEra({
      method: String(b['method']),
      params: b['params'],
      headerVersion: ex.header('mcp-protocol-version'),
      inSession: sessionId !== undefined,
    });
    if (era === 'modern' || Array.isArray(body)) return { peer: this.stateless, era: 'modern' };
    // Only a request (with an id) opens a session: an `initialize` notification gets no answer
    // to carry the session id, so its session could never be used nor committed.
    if (b['method'] === 'initialize' && sessionId === undefined && isRequestId(b['id'])) {
      if (this.options.legacy === false) {
        const params = b['params'] as Body | undefined;
        const requested = params?.['protocolVersion'];
        const error = unsupportedVersion(
          typeof requested === 'string' ? requested : String(requested),
          MODERN_VERSIONS,
          'This server speaks 2026-07-28 only; send _meta with every request instead of initialize',
        );
        return { status: 400, code: error.code, message: error.message, data: error.data };
      }
      // Reserves its place at once: sessions still initializing count against maxSessions.
      const session = this.sessions.create();
      if (!session)
        return {
          status: 503,
          code: ERROR_CODES.INTERNAL_ERROR,
          message: 'Too many sessions (maxSessions); try again later',
        };
      return { peer: session.peer, era, session, isNew: true };
    }
    if (sessionId !== undefined) {
      const session = this.sessions.get(sessionId);
      if (!session)
        return {
          status: 404,
          code: ERROR_CODES.INVALID_REQUEST,
          message: 'Session not found: initialize again',
        };
      return { peer: session.peer, era, session };
    }
    // An initialize that is no request (a notification, a bad id): the engine explains.
    return { peer: this.stateless, era };
  }

  private get(ex: HttpExchange, res: HttpResponder): void {
    openSessionStream(this.sessions, this.options, ex, res);
  }

  private delete(ex: HttpExchange, res: HttpResponder): void {
    deleteSession(this.sessions, this.options, ex, res);
  }
}
