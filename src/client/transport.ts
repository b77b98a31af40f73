/**
 * What `McpClient` needs of a transport, and nothing more. The client core is I/O-free: stdio
 * (`mcpkit/stdio`) and Streamable HTTP (`mcpkit/http`) implement this interface around it.
 *
 * Every inbound message goes to `sink.message`, whichever request or stream carried it; the core
 * correlates responses by id, progress by token and listen frames by subscription id.
 */
import type { McpKitError } from '../errors/index.js';
import type {
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResponse,
  RequestId,
} from '../protocol/index.js';
import type { Era } from '../protocol/index.js';

export type ClientTransportKind = 'stdio' | 'http';

/** Where a transport reports what it receives. */
export interface ClientTransportSink {
  /** A decoded inbound message: a response, a notification, or (2025-11-25) a server request. */
  message(message: JSONRPCMessage): void;
  /**
   * A request failed in the transport (an answer over the size cap, an HTTP status with no
   * JSON-RPC body, a stream cut before its answer). `id` undefined: every request in flight.
   */
  requestFailed(id: RequestId | undefined, error: McpKitError): void;
  /** The connection is gone (the child exited, the transport was closed): all in flight fail. */
  closed(error: McpKitError): void;
  /** Something odd but survivable (a garbage line, a dropped oversized notification). */
  warn(code: string, message: string): void;
}

/** Per-message details the core computed for the transport. */
export interface SendOptions {
  /**
   * HTTP request headers (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`),
   * already encoded. stdio ignores them.
   */
  headers?: Record<string, string>;
  /** A listen stream or another request that may stay open without an answer for long. */
  longLived?: boolean;
  /**
   * The most bytes this request's answer may take on the wire, when the caller accepts less than
   * the transport's cap (the host's `maxLinkBytes`). Reading stops past it and the request fails
   * with RESPONSE_TOO_LARGE: HTTP aborts the request; stdio, which cannot skip the rest of a
   * line, ends the connection (every request in flight fails, saying why).
   */
  maxResponseBytes?: number;
}

export interface ClientTransport {
  readonly kind: ClientTransportKind;
  /** The largest inbound message this transport accepts, announced to the server. */
  readonly maxMessageBytes: number;
  /** Opens the connection (spawns the child). May be called again after `close()` to reconnect. */
  start(sink: ClientTransportSink): Promise<void>;
  /** Tells the transport which era the connection speaks once it is known (sessions, resumption). */
  setEra(era: Era, protocolVersion: string): void;
  /**
   * Sends a request. Its answer arrives through `sink.message` (or `sink.requestFailed`); the
   * promise settles when the request is handed over and rejects only when it cannot be sent.
   */
  request(message: JSONRPCRequest, options?: SendOptions): Promise<void>;
  /** Sends a notification. */
  notify(message: JSONRPCNotification, options?: SendOptions): Promise<void>;
  /** Answers a server-to-client request (2025-11-25 sampling, elicitation, roots, ping). */
  respond(message: JSONRPCResponse, options?: SendOptions): Promise<void>;
  /**
   * Gives up on a request: HTTP aborts its POST (closing the stream is the cancellation); stdio
   * writes `notifications/cancelled`. No answer is expected afterwards.
   */
  cancel(id: RequestId, reason?: string): void;
  /**
   * 2025-11-25 over HTTP: opens the GET stream for server-to-client messages, once the session
   * is initialised; resolves once the server answered it, or after `options.timeoutMs` (the
   * core's request timeout: the stream may still open later). Other transports resolve at once.
   */
  openServerStream(
    headers?: Record<string, string>,
    options?: { timeoutMs?: number },
  ): Promise<void>;
  /** Forgets a 2025-11-25 session (after a 404) so the next `initialize` starts a new one. */
  resetSession(): void;
  /** Ends the connection (stdio: stdin closed, wait, SIGTERM, SIGKILL; HTTP: DELETE the session). */
  close(): Promise<void>;
}
