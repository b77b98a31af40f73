/** @module mcpkit/memory */
import type { JSONRPCMessage, JSONRPCResponse } from '../protocol/jsonrpc.js';
import type { HandleExtra } from '../server/transport.js';
import type { McpServer } from '../server/index.js';

export interface MemoryConnection {
  /** Sends one message; resolves with the server's response (undefined for notifications). */
  send(message: unknown, extra?: Omit<HandleExtra, 'notify'>): Promise<JSONRPCResponse | undefined>;
  /** Every message the server sent outside a response: notifications and server requests. */
  readonly received: JSONRPCMessage[];
  /** Called for each such message as it is sent. */
  onMessage: ((message: JSONRPCMessage) => void) | undefined;
  close(): void;
}

/**
 * Connects to a server in memory, with no serialization: for tests and for embedding a server
 * in the same process as its host.
 *
 * @example
 * const conn = connectInMemory(server);
 * const res = await conn.send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta } });
 */
export function connectInMemory(server: McpServer): MemoryConnection {
  const conn: MemoryConnection = {
    received: [],
    onMessage: undefined,
    send: (message, extra) => peer.handle(message, extra ?? {}),
    close: () => peer.close(),
  };
  const peer = server.connect({
    transport: 'memory',
    send: (message) => {
      conn.received.push(message);
      conn.onMessage?.(message);
    },
  });
  return conn;
}
