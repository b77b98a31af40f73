/** @module mcpkit/node */
import {
  createServer as createHttpServer,
  maxHeaderSize as nodeMaxHeaderSize,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { ERROR_CODES } from '../protocol/error-codes.js';
import { errorResponse } from '../protocol/jsonrpc.js';
import type { McpServer } from '../server/index.js';
import { SPENT, type BodyLimits, type BodyOutcome } from './http/server/body-limits.js';
import { readNodeBody } from './http/server/node-body.js';
import { answerClientError, type RequestHeadLimits } from './http/server/client-error.js';
import { parsedBodyText } from './http/server/node-parsed-body.js';
import type { HttpExchange, HttpResponder, SseSink } from './http/server/exchange.js';
import { bodyPlan } from './http/server/exchange.js';
import { HttpEndpoint } from './http/server/endpoint.js';
import { writeTimeoutMsOf, type HttpOptions } from './http/server/options.js';
import { hostsAllowedFor } from './http/server/origin-guard.js';
import { DROPPED_SINK } from './http/server/sse.js';
import { writeParts } from './node-parts-writer.js';
import type { MessagePart } from '../content/encode-message.js';
import { isStreamedBody } from '../content/streamed-body.js';

/** What a request gets when the handler itself failed (a bug): still JSON-RPC, never empty. */
const INTERNAL_ERROR_BODY = JSON.stringify(
  errorResponse(null, ERROR_CODES.INTERNAL_ERROR, 'Internal error: the HTTP handler failed'),
);

export interface NodeHandler {
  /**
   * Serves one request. `body`: the request body when a framework parsed it already (Fastify's
   * `request.body`); without it, `req.body` (express.json()) or else the stream is read. A
   * function there is Express's `next`, not a body.
   */
  (req: IncomingMessage, res: ServerResponse, body?: unknown): void;
  /** Closes legacy sessions and open streams. */
  close(): void;
  /** Bytes held now by request bodies being read (at most maxBodyTotalBytes). */
  readonly bufferedBodyBytes: number;
}

/**
 * An answer in one string or byte part up to this length goes in one write: chars, known before
 * measuring, so a non-ASCII one goes whole up to ~3x as many bytes. Larger ones: bodyPlan.
 */
const SMALL_ANSWER_CHARS = 64 * 1024;

/** Calls `done` once the response closed (taken whole, or cut); at once when it was already. */
function whenClosed(res: ServerResponse, done: () => void): void {
  if (res.destroyed) done();
  else res.once('close', done);
}

/** One request: the exchange and the responder in one object, methods on the prototype. */
class NodeExchange implements HttpExchange, HttpResponder {
  readonly method: string;
  readonly path: string;
  readonly query: string | undefined;
  /** A framework routed it here (Express, Connect: `originalUrl`): it is served at any path. */
  readonly mounted: boolean;
  private controller: AbortController | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    /** A body parsed already: the handler's third argument, else `req.body` of a spent stream. */
    private readonly parsed: { value: unknown } | undefined,
    /** `writeTimeoutMs`: a response the client takes nothing of for this long is cut. */
    private readonly stallMs: number,
  ) {
    this.method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    this.path = q >= 0 ? url.slice(0, q) : url;
    this.query = q >= 0 ? url.slice(q + 1) : undefined;
    this.mounted = typeof (req as { originalUrl?: unknown }).originalUrl === 'string';
  }

  header(name: string): string | undefined {
    const v = this.req.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  }

  body(limits: BodyLimits): Promise<BodyOutcome> {
    // Read by the framework's parser: the stream is spent, waiting on it would hang.
    if (this.parsed) return Promise.resolve(parsedBodyText(this.parsed.value, limits));
    // Read by someone else and not handed over: nothing will ever arrive.
    if (this.req.readableEnded) return Promise.resolve(SPENT);
    return readNodeBody(this.req, limits);
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      const c = new AbortController();
      this.controller = c;
      const res = this.res;
      // Made on first use: the client may already have gone away by then.
      if (res.destroyed && !res.writableFinished) c.abort();
      else
        res.once('close', () => {
          if (!res.writableFinished) c.abort();
        });
    }
    return this.controller.signal;
  }

  send(
    status: number,
    headers: Record<string, string>,
    body?: string | readonly MessagePart[],
    done?: () => void,
  ): void {
    const res = this.res;
    if (res.headersSent) return void done?.();
    const one = typeof body === 'object' ? (body.length === 1 ? body[0] : null) : body;
    if (
      one === undefined ||
      (one !== null && !isStreamedBody(one) && one.length <= SMALL_ANSWER_CHARS)
    ) {
      if (one !== undefined) headers['content-length'] = String(Buffer.byteLength(one));
      res.writeHead(status, headers);
      res.end(one);
    } else {
      const parts = typeof body === 'string' ? [body] : (body as readonly MessagePart[]);
      const { bytes, joined } = bodyPlan(parts, Buffer.byteLength);
      headers['content-length'] = String(bytes);
      res.writeHead(status, headers);
      // A large answer a slice at a time, so that a client that takes nothing of it is seen
      // (and dropped after writeTimeoutMs).
      if (!joined) {
        const report = (text: string): void => console.error(text);
        return void writeParts(res, parts, report, { stallMs: this.stallMs, done });
      }
      // One writev for the parts; shared byte parts go to the socket as they are, uncopied.
      res.cork();
      for (const part of parts as ReadonlyArray<string | Uint8Array>) res.write(part);
      res.end();
      res.uncork();
    }
    if (done) whenClosed(res, done);
  }

  stream(status: number, headers: Record<string, string>): SseSink {
    const res = this.res;
    // Answered already: writeHead again would throw ERR_HTTP_HEADERS_SENT into the caller.
    if (res.headersSent) return DROPPED_SINK;
    res.writeHead(status, headers);
    res.flushHeaders();
    // Backpressure is the response's own: write() past its high-water mark returns false and
    // sets writableNeedDrain until 'drain' (never set once the client is gone).
    return {
      write: (chunk) => res.writableEnded || res.write(chunk),
      end: () => {
        if (!res.writableEnded) res.end();
      },
      // Cut, not ended: the client sees the stream fail, never a complete-looking event.
      abort: () => res.destroy(),
      get congested() {
        return res.writableNeedDrain;
      },
      get bufferedBytes() {
        return res.writableLength;
      },
      // A later turn, never inside 'drain': a stream draining in rounds lets other I/O in.
      onDrain: (cb) => {
        if (res.writableNeedDrain) res.once('drain', () => setImmediate(cb));
        else setImmediate(cb);
      },
    };
  }
}

/**
 * A node:http request listener serving MCP over Streamable HTTP, without building fetch
 * Request/Response objects on the hot path. It bounds request bodies (maxBodyBytes,
 * bodyTimeoutMs, maxBodyTotalBytes); what comes before the body is the server's to bound. With
 * your own server, set `headersTimeout` (serveHttp: 15 s, node: 60 s) and mind `maxHeaderSize`
 * (node: 16 KiB, which also bounds a URI read over HTTP); serveHttp also answers what node's
 * parser refuses (431, 408, 400) with a JSON-RPC body, where a bare server sends none.
 *
 * @example
 * http.createServer({ headersTimeout: 15_000 }, toNodeHandler(server)).listen(3333, '127.0.0.1');
 */
export function toNodeHandler(server: McpServer, options: HttpOptions = {}): NodeHandler {
  const endpoint = new HttpEndpoint(server, options);
  const writeTimeoutMs = writeTimeoutMsOf(options);
  const handler = (req: IncomingMessage, res: ServerResponse, body?: unknown): void => {
    // A body handed over (even null) is the body; `req.body` only once a parser spent the
    // stream (middleware may set req.body = {} without reading anything).
    const parsed =
      body !== undefined && typeof body !== 'function'
        ? { value: body }
        : req.readableEnded && (req as { body?: unknown }).body !== undefined
          ? { value: (req as { body?: unknown }).body }
          : undefined;
    const ex = new NodeExchange(req, res, parsed, writeTimeoutMs);
    const failed = (error: unknown): void => {
      // A client that hangs up mid-body is routine, not a server failure.
      if (!req.complete) {
        res.destroy();
        return;
      }
      console.error('mcpkit: HTTP handler failed', error);
      if (res.headersSent) {
        res.end();
        return;
      }
      ex.send(500, { 'content-type': 'application/json' }, INTERNAL_ERROR_BODY);
    };
    endpoint.handle(ex, ex).catch(failed);
  };
  const node = Object.assign(handler, { close: () => endpoint.close() });
  Object.defineProperty(node, 'bufferedBodyBytes', { get: () => endpoint.bufferedBodyBytes });
  return node as NodeHandler;
}

export interface ServeHttpOptions extends HttpOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 3333; 0 picks a free port. */
  port?: number;
  /**
   * Time the request line and headers may take (default 15 s; 0: none), as node's
   * `headersTimeout`; beyond it 408. The whole request keeps node's `requestTimeout` (300 s).
   */
  headerTimeoutMs?: number;
  /**
   * Most bytes of request line and headers (default node's `maxHeaderSize`, 16 KiB); beyond it
   * 431. It also bounds the URIs readable over HTTP: resources/read repeats its URI in Mcp-Name.
   */
  maxHeaderBytes?: number;
}

export const DEFAULT_HEADER_TIMEOUT_MS = 15_000;
const NODE_REQUEST_TIMEOUT_MS = 300_000;
export interface RunningHttpServer {
  /** The endpoint URL, e.g. http://127.0.0.1:3333/mcp. */
  url: string;
  port: number;
  http: Server;
  close(): Promise<void>;
}

/**
 * Listens on host:port (127.0.0.1 by default) and serves MCP at `path`.
 * A non-loopback host keeps DNS-rebinding protection on: pass `allowedHosts` for it.
 */
export async function serveHttp(
  server: McpServer,
  options: ServeHttpOptions = {},
): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const handler = toNodeHandler(server, {
    ...options,
    allowedHosts: options.allowedHosts ?? hostsAllowedFor(host),
  });
  const headerTimeoutMs = options.headerTimeoutMs ?? DEFAULT_HEADER_TIMEOUT_MS;
  const limits: RequestHeadLimits = {
    maxHeaderBytes: options.maxHeaderBytes ?? nodeMaxHeaderSize,
    headerTimeoutMs,
    // Node refuses a headersTimeout above requestTimeout.
    requestTimeoutMs: Math.max(NODE_REQUEST_TIMEOUT_MS, headerTimeoutMs),
  };
  const http = createHttpServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: headerTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Node checks both timeouts on this interval (default 30 s, longer than headerTimeoutMs).
      connectionsCheckingInterval:
        headerTimeoutMs > 0
          ? Math.min(30_000, Math.max(10, Math.ceil(headerTimeoutMs / 4)))
          : 30_000,
    },
    handler,
  );
  http.keepAliveTimeout = 65_000;
  http.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) =>
    answerClientError(error, socket, limits),
  );
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 3333, host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const port = (http.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  const path = options.path === undefined ? '/mcp' : (options.path ?? '/');
  return {
    url: `http://${shown}:${port}${path}`,
    port,
    http,
    close: () =>
      new Promise<void>((resolve) => {
        // The server first: its listen streams end with their result, which goes out before
        // the connections are cut (one turn of the event loop later).
        server.close();
        handler.close();
        setImmediate(() => {
          http.closeAllConnections();
          http.close(() => resolve());
        });
      }),
  };
}
