// Test support only: not part of the mcpkit package (excluded from the build and not published).
/**
 * A real `ServerCore` and `RequestContext` for unit tests of the engine's method files, built by
 * the real code: `createServer` registers things, and the context is made as dispatch makes one.
 */
import type { JSONRPCMessage, RequestId } from '../protocol/jsonrpc.js';
import type { ClientCapabilities } from '../protocol/types.js';
import type { Era } from '../protocol/versions.js';
import { Cancellation } from '../server/cancellation.js';
import { createContentEnv } from '../server/content-env.js';
import { RequestContext } from '../server/context.js';
import type { ServerCore } from '../server/core.js';
import type { MethodEnv } from '../server/methods/types.js';
import { resultCapBytes, type ServerOptions } from '../server/options.js';
import type { LegacySession } from '../server/peer.js';
import { createServer, type McpServer } from '../server/server.js';

/** The engine's view of a server (`McpServer` keeps it private; element access reaches it). */
export function coreOf(server: McpServer): ServerCore {
  return server['core'];
}

/** A server (errors silenced unless `options` says otherwise) and its core. */
export function testServer(options: Partial<ServerOptions> = {}): {
  server: McpServer;
  core: ServerCore;
} {
  const server = createServer({ name: 'unit', version: '1.0.0', onError: () => {}, ...options });
  return { server, core: coreOf(server) };
}

export interface TestContextOptions {
  era?: Era;
  method?: string;
  requestId?: RequestId;
  authInfo?: unknown;
  signal?: AbortSignal;
  clientCapabilities?: ClientCapabilities;
  notify?: (message: JSONRPCMessage) => void;
}

/** A request context as dispatch builds one (no `_meta`, no MRTR answers). */
export function testContext(core: ServerCore, options: TestContextOptions = {}): RequestContext {
  const era = options.era ?? 'modern';
  return new RequestContext({
    method: options.method ?? 'tools/call',
    requestId: options.requestId ?? 1,
    era,
    protocolVersion: era === 'modern' ? '2026-07-28' : '2025-11-25',
    clientCapabilities: options.clientCapabilities ?? {},
    clientInfo: { name: 'unit-client', version: '1.0.0' },
    meta: {},
    cancel: new Cancellation(options.signal),
    capBytes: resultCapBytes(core.options, undefined),
    content: (ctx) => createContentEnv(core, ctx),
    authInfo: options.authInfo,
    inputResponses: undefined,
    answers: {},
    userState: undefined,
    channel: {
      notify: options.notify ?? (() => {}),
      logLevel: undefined,
      logByDefault: era === 'legacy',
    },
  });
}

/** What a method runs with, and the notifications it sent. */
export function testEnv(
  core: ServerCore,
  options: TestContextOptions = {},
): MethodEnv & { sent: JSONRPCMessage[] } {
  const sent: JSONRPCMessage[] = [];
  const notify = (message: JSONRPCMessage): void => {
    sent.push(message);
    options.notify?.(message);
  };
  return { core, ctx: testContext(core, { ...options, notify }), notify, sent };
}

/** A fresh 2025-11-25 session, as `initialize` opens one. */
export function testSession(): LegacySession {
  return {
    protocolVersion: '2025-11-25',
    clientCapabilities: {},
    clientInfo: undefined,
    logLevel: undefined,
    subscriptions: new Set(),
    initialized: true,
  };
}

/** The error a promise rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}
