import { ERROR_CODES } from '../../protocol/error-codes.js';
import {
  errorResponse,
  type JSONRPCMessage,
  type JSONRPCResponse,
} from '../../protocol/jsonrpc.js';
import { META } from '../../protocol/meta-keys.js';
import { eraOf } from '../../protocol/versions.js';
import { httpStatusOf } from '../../server/dispatch.js';
import type { Peer } from '../../server/peer.js';
import type { McpServer } from '../../server/server.js';
import type { HttpExchange, HttpResponder, SseSink } from './exchange.js';
import { checkModernHeaders } from './header-check.js';
import { createOriginGuard, type OriginGuard, type OriginGuardOptions } from './origin-guard.js';
import { SessionTable, type LegacyHttpSession } from './sessions.js';
import { jsonError } from './json-error.js';
import { deleteSession, openSessionStream } from './legacy-stream.js';
import { encodeWithinCap, type EncodedMessage } from '../oversize.js';
import { JSON_HEADERS, SSE_HEADERS, sseEvent } from './sse.js';

export interface HttpOptions extends OriginGuardOptions {
  /** Path served (default '/mcp'); null serves every path. */
  path?: string | null;
  /** Largest accepted request body in bytes (default 4 MiB); larger gets 413. */
  maxBodyBytes?: number;
  /** Host/Origin checks against DNS rebinding (default true). */
  dnsRebindingProtection?: boolean;
  /** Largest response sent, in bytes (default: maxBodyBytes); a larger result becomes a clear -32603 error. */
  maxResponseBytes?: number;
  /** Serve 2025-11-25 clients (initialize, sessions, GET stream) on the same endpoint (default true). */
  legacy?: boolean;
  /** Idle time after which a legacy session is dropped (default 30 minutes). */
  sessionIdleMs?: number;
  /** Most legacy sessions at once (default 10,000); beyond it `initialize` gets 503. */
  maxSessions?: number;
  /** Interval of SSE keep-alive comments (default 15 s; 0 disables). */
  keepAliveMs?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

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

  constructor(
    private readonly server: McpServer,
    options: HttpOptions = {},
  ) {
    this.options = options;
    const maxResponse = options.maxResponseBytes ?? options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
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
      return jsonError(res, route.status, route.code, route.message, idOf(body));
    const { session, isNew } = route;
    if (!isNew || !session) return this.exchange(ex, res, body, route.peer, session, acceptsSse);
    // A new session is committed only when its initialize succeeds, and closed on every other path.
    let committed = false;
    try {
      await this.exchange(ex, res, body, session.peer, session, acceptsSse, (response) => {
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
    session: LegacyHttpSession | undefined,
    acceptsSse: boolean,
    settled?: (response: JSONRPCResponse | undefined) => void,
  ): Promise<void> {
    const isRequest = typeof body === 'object' && body !== null && 'method' in body && 'id' in body;
    const headerVersion = ex.header('mcp-protocol-version');
    if (!isRequest) {
      const response = await peer.handle(body, { headerVersion: headerVersion ?? null });
      settled?.(response);
      if (response) return this.reply(res, response, undefined, {});
      return res.send(202, {});
    }
    if (peer === this.stateless) {
      const b = body as Body;
      const mismatch = checkModernHeaders(
        ex,
        this.server,
        String(b['method']),
        (b['params'] ?? {}) as Body,
      );
      if (mismatch) {
        return res.send(
          400,
          JSON_HEADERS,
          JSON.stringify(errorResponse(idOf(body), mismatch.code, mismatch.message, mismatch.data)),
        );
      }
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
    let keepAlive: ReturnType<typeof setInterval> | undefined;
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
        const every = this.options.keepAliveMs ?? 15_000;
        if (every > 0) {
          keepAlive = setInterval(() => sink?.write(': keep-alive\n\n'), every);
          (keepAlive as { unref?: () => void }).unref?.();
        }
      }
      sink.write(event);
    };
    let response: JSONRPCResponse | undefined;
    try {
      response = await peer.handle(body, {
        notify,
        signal: () => ex.signal,
        headerVersion: headerVersion ?? null,
      });
    } finally {
      done = true;
      if (keepAlive) clearInterval(keepAlive);
    }
    settled?.(response);
    this.reply(res, response, sink, sessionHeaders);
  }

  private reply(
    res: HttpResponder,
    response: JSONRPCResponse | undefined,
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
        httpStatusOf(response),
        { ...JSON_HEADERS, ...headers },
        this.encode(response).parts,
      );
    } else {
      res.send(202, headers);
    }
  }

  /** The response as JSON text; one that cannot be sent as it is becomes a -32603 error. */
  private encode(response: JSONRPCResponse): EncodedMessage {
    const cap =
      this.options.maxResponseBytes ?? this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    try {
      const encoded = encodeWithinCap(response, cap, 'maxResponseBytes', (t) => console.error(t));
      if (encoded) return encoded;
    } catch (error) {
      console.error('mcpkit: could not encode a response', error);
    }
    const text = JSON.stringify(
      errorResponse(response.id, ERROR_CODES.INTERNAL_ERROR, 'The response could not be encoded'),
    );
    return { parts: [text], bytes: -1 };
  }

  /** Picks the peer for a POST: stateless (2026-07-28), an existing legacy session, or a new one. */
  private route(
    ex: HttpExchange,
    body: unknown,
  ):
    | { peer: Peer; session?: LegacyHttpSession; isNew?: boolean }
    | { status: number; code: number; message: string } {
    const header = ex.header('mcp-protocol-version');
    const b = (typeof body === 'object' && body !== null ? body : {}) as Body;
    const params = b['params'] as Body | undefined;
    const meta = params?.['_meta'] as Body | undefined;
    const modern =
      (header !== undefined && eraOf(header.trim()) !== 'legacy') ||
      (typeof meta === 'object' && meta !== null && META.protocolVersion in meta);
    if (modern || Array.isArray(body)) return { peer: this.stateless };
    const sessionId = ex.header('mcp-session-id');
    // Only a request (with an id) opens a session: an `initialize` notification gets no answer
    // to carry the session id, so its session could never be used nor committed.
    if (b['method'] === 'initialize' && sessionId === undefined && isRequestId(b['id'])) {
      if (this.options.legacy === false) {
        return {
          status: 400,
          code: ERROR_CODES.UNSUPPORTED_PROTOCOL_VERSION,
          message:
            'This server speaks 2026-07-28 only; send _meta with every request instead of initialize',
        };
      }
      // Reserves its place at once: sessions still initializing count against maxSessions.
      const session = this.sessions.create();
      if (!session)
        return {
          status: 503,
          code: ERROR_CODES.INTERNAL_ERROR,
          message: 'Too many sessions (maxSessions); try again later',
        };
      return { peer: session.peer, session, isNew: true };
    }
    if (sessionId !== undefined) {
      const session = this.sessions.get(sessionId);
      if (!session)
        return {
          status: 404,
          code: ERROR_CODES.INVALID_REQUEST,
          message: 'Session not found: initialize again',
        };
      return { peer: session.peer, session };
    }
    // Neither era's markers: the stateless dispatcher explains what is missing.
    return { peer: this.stateless };
  }

  private get(ex: HttpExchange, res: HttpResponder): void {
    openSessionStream(this.sessions, this.options, ex, res);
  }

  private delete(ex: HttpExchange, res: HttpResponder): void {
    deleteSession(this.sessions, this.options, ex, res);
  }
}
