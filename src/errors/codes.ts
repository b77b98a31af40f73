/**
 * Every local error code mcpkit throws, in one place: match on `error.code`, never on the message.
 * Wire errors are `ProtocolError`s with a numeric JSON-RPC code instead (see `wire-errors.ts`).
 */
export const MCPKIT_ERROR_CODES = {
  /** An attachment's loader returned nothing. */
  ATTACHMENT_EMPTY: 'ATTACHMENT_EMPTY',
  /** A URI a handler attached (ctx.attach, ctx.embed) that no resource, template or link serves. */
  ATTACHMENT_NOT_SERVED: 'ATTACHMENT_NOT_SERVED',
  /** An attachment must be linked but has no URI and no link store to give it one. */
  ATTACHMENT_NO_URI: 'ATTACHMENT_NO_URI',
  /** Bytes larger than a blob may be (base64 would exceed the string limit or the cap). */
  BLOB_TOO_LARGE: 'BLOB_TOO_LARGE',
  /** A command line that cannot be run as given (the message says which flag and why). */
  BAD_ARGUMENTS: 'BAD_ARGUMENTS',
  /** A tool, prompt, resource or template of that name is already registered. */
  DUPLICATE_REGISTRATION: 'DUPLICATE_REGISTRATION',
  /** A content block or resource contents broke the spec's shape (the message names the field). */
  INVALID_CONTENT: 'INVALID_CONTENT',
  /**
   * A tool, resource or prompt definition that strict clients would refuse (the message names the
   * definition, the field and the fix); thrown when it is registered.
   */
  INVALID_DEFINITION: 'INVALID_DEFINITION',
  /** A base64 string that is not canonical (the message gives the offset of the first bad character). */
  INVALID_BASE64: 'INVALID_BASE64',
  /** An optional peer dependency that a feature needs is not installed (the message says which). */
  MISSING_DEPENDENCY: 'MISSING_DEPENDENCY',
  /** A peer's answer to one of our requests was malformed or invalid. */
  INVALID_RESPONSE: 'INVALID_RESPONSE',
  /** A string that must be an absolute URI (RFC 3986) is not one. */
  INVALID_URI: 'INVALID_URI',
  /** A server's answer broke the official schema of its era (the message names the schema path). */
  INVALID_RESULT: 'INVALID_RESULT',
  /** An HTTP answer that is not MCP: a status without a JSON-RPC body, a wrong content type. */
  HTTP_ERROR: 'HTTP_ERROR',
  /** A POST was answered with a redirect, which is not followed unless `allowRedirects` is set. */
  HTTP_REDIRECT: 'HTTP_REDIRECT',
  /** A list whose cursor kept going past the page limit. */
  PAGE_LIMIT: 'PAGE_LIMIT',
  /**
   * A list past `maxListItems` or `maxListBytes` over its pages, or a cursor over
   * `maxCursorBytes` (the message names the limit); nothing past it was kept.
   */
  LIST_TOO_LARGE: 'LIST_TOO_LARGE',
  /** A message from the server larger than the client accepts. */
  RESPONSE_TOO_LARGE: 'RESPONSE_TOO_LARGE',
  /** A tool the client dropped from the list (invalid `x-mcp-header` annotations) cannot be called. */
  TOOL_REJECTED: 'TOOL_REJECTED',
  /** The server process exited (the message gives its exit code or signal). */
  SERVER_EXITED: 'SERVER_EXITED',
  /** The server process could not be started. */
  SPAWN_FAILED: 'SPAWN_FAILED',
  /** A 2025-11-25 HTTP session the server no longer knows (404): the client initializes again. */
  SESSION_EXPIRED: 'SESSION_EXPIRED',
  /** A stream ended before it carried the answer it owed. */
  STREAM_INTERRUPTED: 'STREAM_INTERRUPTED',
  /** The server speaks no protocol version this client does. */
  UNSUPPORTED_VERSION: 'UNSUPPORTED_VERSION',
  /** The client is not connected (never connected, or closed). */
  NOT_CONNECTED: 'NOT_CONNECTED',
  /** A server could not listen on its address. */
  LISTEN_FAILED: 'LISTEN_FAILED',
  /** The connection closed before a request could be sent or answered. */
  PEER_CLOSED: 'PEER_CLOSED',
  /** A request was cancelled before its answer came. */
  REQUEST_CANCELLED: 'REQUEST_CANCELLED',
  /** A request to the client could not be sent: over the outbound cap, or not encodable. */
  REQUEST_UNSENDABLE: 'REQUEST_UNSENDABLE',
  /** A request got no answer in time. */
  REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
  /** A result cannot fit its cap even with every optional resource linked. */
  RESULT_TOO_LARGE: 'RESULT_TOO_LARGE',
  /** The folder to serve does not exist or is not a folder. */
  ROOT_NOT_FOUND: 'ROOT_NOT_FOUND',
  /** A provider was closed while a read of it was in flight. */
  PROVIDER_CLOSED: 'PROVIDER_CLOSED',
  /** A search of a served folder took longer than its time limit. */
  SEARCH_TIMEOUT: 'SEARCH_TIMEOUT',
  /** The search index of a served folder failed (its worker stopped). */
  SEARCH_FAILED: 'SEARCH_FAILED',
  /** A JSON Schema does not compile. */
  SCHEMA_INVALID: 'SCHEMA_INVALID',
  /** A Standard Schema that cannot produce JSON Schema. */
  SCHEMA_NOT_CONVERTIBLE: 'SCHEMA_NOT_CONVERTIBLE',
  /**
   * A streamed body broke its promise mid-stream: its source changed (a file written while it
   * was sent), failed, or gave another length than announced. The answer is cut, never completed.
   */
  STREAM_FAILED: 'STREAM_FAILED',
  /** A streamed body reached a writer that cannot send one (stdio, plain JSON.stringify). */
  STREAM_UNSUPPORTED: 'STREAM_UNSUPPORTED',
  /** A URI template breaks RFC 6570 syntax. */
  TEMPLATE_SYNTAX: 'TEMPLATE_SYNTAX',
  /** The SSRF guard refused an address (loopback, private, metadata, …) no allow-list names. */
  GUARD_BLOCKED: 'GUARD_BLOCKED',
  /** A URL the SSRF guard will not fetch: not http(s), credentials in it, unparsable. */
  GUARD_BAD_URL: 'GUARD_BAD_URL',
  /** A guarded fetch was redirected more times than allowed. */
  GUARD_REDIRECT_LIMIT: 'GUARD_REDIRECT_LIMIT',
  /** A guarded fetch's body grew past its byte cap (it was cut off, not buffered). */
  GUARD_TOO_LARGE: 'GUARD_TOO_LARGE',
  /** A guarded fetch, its whole redirect chain included, took longer than allowed. */
  GUARD_TIMEOUT: 'GUARD_TIMEOUT',
  /** A guarded fetch failed: the name did not resolve, the connection failed, a non-2xx status. */
  FETCH_FAILED: 'FETCH_FAILED',
  /** Redis could not be reached (at start-up), or did not answer a command (the message masks credentials). */
  REDIS_UNAVAILABLE: 'REDIS_UNAVAILABLE',
  /**
   * Signing in to a protected server failed: discovery, registration, the authorization
   * response (state, `iss`) or the token endpoint (the message names the step, never a secret).
   */
  AUTH_FAILED: 'AUTH_FAILED',
  /** The server requires authorization and the client has no way to sign in (no `auth` given). */
  AUTH_REQUIRED: 'AUTH_REQUIRED',
  /** `mcpkit bridge --profile`: no built-in profile of that name (the message lists the known ones). */
  BRIDGE_UNKNOWN_PROFILE: 'BRIDGE_UNKNOWN_PROFILE',
  /** A bridge profile file that is not valid JSON or breaks the profile schema (the message names the field). */
  BRIDGE_BAD_PROFILE: 'BRIDGE_BAD_PROFILE',
} as const;

export type McpKitErrorCode = (typeof MCPKIT_ERROR_CODES)[keyof typeof MCPKIT_ERROR_CODES];
