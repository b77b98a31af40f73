// Test support only: not part of the mcpkit package (excluded from the build and not published).
/**
 * A 2026-07-28 `subscriptions/listen` on its own in-memory connection, open once the server
 * counts it: what it was sent, its frames as `method uri` lines, and `cancel()`
 * (notifications/cancelled, then the listen's own answer, within a deadline).
 */
import type { JSONRPCMessage, JSONRPCResponse } from '../protocol/jsonrpc.js';
import type { SubscriptionFilter } from '../protocol/types.js';
import type { McpServer } from '../server/server.js';
import { modern } from './messages.js';
import { until, withTimeout } from './sse.js';

export async function openListen(server: McpServer, filter: SubscriptionFilter) {
  const sent: JSONRPCMessage[] = [];
  const peer = server.connect({ transport: 'memory', send: () => undefined });
  const req = modern('subscriptions/listen', { notifications: filter });
  const before = server.listenerCount;
  const pending = peer.handle(req, { notify: (m) => sent.push(m) });
  await until(() => server.listenerCount === before + 1, 'the listen to open');
  /** The frames after the acknowledgement, as `resources/updated file:///a.md` lines. */
  const frames = () =>
    sent.slice(1).map((m) => {
      const { method, params } = m as { method: string; params: Record<string, unknown> };
      return `${method.slice('notifications/'.length)} ${String(params['uri'] ?? '')}`.trim();
    });
  const cancel = async (): Promise<JSONRPCResponse | undefined> => {
    await peer.handle({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: req.id },
    });
    return withTimeout(pending, 2000, 'the cancelled listen');
  };
  return { req, pending, sent, peer, frames, cancel };
}
