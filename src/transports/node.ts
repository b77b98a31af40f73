import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_CODES } from '../protocol/error-codes.js';
import { errorResponse } from '../protocol/jsonrpc.js';
import type { McpServer } from '../server/index.js';
import type { HttpExchange, HttpResponder, SseSink } from './http/exchange.js';
import { HttpEndpoint } from './http/endpoint.js';
import type { HttpOptions } from './http/options.js';
import { LOOPBACK_HOSTS } from './http/origin-guard.js';

/** What a request gets when the handler itself failed (a bug): still JSON-RPC, never empty. */
const INTERNAL_ERROR_BODY = JSON.stringify(
  errorResponse(null, ERROR_CODES.INTERNAL_ERROR, 'Internal error: the HTTP handler failed'),
);

function readBody(req: IncomingMessage, limit: number): Promise<string | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.resolve('too-large');
  }
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        parts.length = 0;
        resolve('too-large');
        return;
      }
      parts.push(chunk);
    });
    req.on('end', () => {
      if (!over)
        resolve(
          (parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, size)).toString('utf8'),
        );
    });
    req.on('error', reject);
  });
}

export interface NodeHandler {
  (req: IncomingMessage, res: ServerResponse): void;
  /** Closes legacy sessions and open streams. */
  close(): void;
}

/** One request: the exchange and the responder in one object, methods on the prototype. */
class NodeExchange implements HttpExchange, HttpResponder {
  readonly method: string;
  readonly path: string;
  private controller: AbortController | undefined;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
  ) {
    this.method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    this.path = q >= 0 ? url.slice(0, q) : url;
  }

  header(name: string): string | undefined {
    const v = this.req.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  }

  body(limit: number): Promise<string | 'too-large'> {
    return readBody(this.req, limit);
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

  send(status: number, headers: Record<string, string>, body?: string | readonly string[]): void {
    const res = this.res;
    if (res.headersSent) return;
    if (typeof body === 'string' || body === undefined || body.length === 1) {
      const text = typeof body === 'string' || body === undefined ? body : body[0];
      if (text !== undefined) headers['content-length'] = String(Buffer.byteLength(text));
      res.writeHead(status, headers);
      res.end(text);
      return;
    }
    let length = 0;
    for (const part of body) length += Buffer.byteLength(part);
    headers['content-length'] = String(length);
    res.writeHead(status, headers);
    for (const part of body) res.write(part);
    res.end();
  }

  stream(status: number, headers: Record<string, string>): SseSink {
    const res = this.res;
    // Answered already: writeHead again would throw ERR_HTTP_HEADERS_SENT into the caller.
    if (res.headersSent) return { write: () => undefined, end: () => undefined };
    res.writeHead(status, headers);
    res.flushHeaders();
    return {
      write: (chunk) => {
        if (!res.writableEnded) res.write(chunk);
      },
      end: () => {
        if (!res.writableEnded) res.end();
      },
    };
  }
}

/**
 * A node:http request listener serving MCP over Streamable HTTP, without building fetch
 * Request/Response objects on the hot path.
 *
 * @example
 * http.createServer(toNodeHandler(server)).listen(3333, '127.0.0.1');
 */
export function toNodeHandler(server: McpServer, options: HttpOptions = {}): NodeHandler {
  const endpoint = new HttpEndpoint(server, options);
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const ex = new NodeExchange(req, res);
    endpoint.handle(ex, ex).catch((error: unknown) => {
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
    });
  };
  return Object.assign(handler, { close: () => endpoint.close() });
}

export interface ServeHttpOptions extends HttpOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 3333; 0 picks a free port. */
  port?: number;
}

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
    allowedHosts:
      options.allowedHosts ??
      (LOOPBACK_HOSTS.includes(host) ? LOOPBACK_HOSTS : [...LOOPBACK_HOSTS, host]),
  });
  const http = createHttpServer(handler);
  http.keepAliveTimeout = 65_000;
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
