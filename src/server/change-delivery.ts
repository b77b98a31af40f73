/**
 * Where a change event goes on this instance: the listen streams (through the hub), and the
 * 2025-11-25 sessions that subscribed to the URI or follow the lists.
 */
import type { JSONRPCMessage } from '../protocol/jsonrpc.js';
import { coversUri } from '../uri/covers.js';
import type { ChangeEvent } from './change-bus.js';
import type { ListenHub } from './listen-hub.js';
import { legacyResync } from './listen-legacy.js';
import type { Peer } from './peer.js';

export function deliverChange(listen: ListenHub, peers: Iterable<Peer>, event: ChangeEvent): void {
  if (event.type === 'list-changed') {
    listen.listChanged(event.list);
    const message: JSONRPCMessage = {
      jsonrpc: '2.0',
      method: `notifications/${event.list}/list_changed`,
    };
    for (const peer of peers) if (peer.session?.initialized) peer.send(message);
    return;
  }
  const { uri } = event;
  listen.resourceUpdated(uri);
  for (const peer of peers) {
    const session = peer.session;
    const subs = session?.subscriptions;
    if (subs && coversAny(subs, uri) && session?.mayRead?.(uri) !== false)
      peer.send({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } });
  }
}

/** Tells every live 2025-11-25 session that follows something to re-read it; returns how many. */
export function resyncSessions(peers: Iterable<Peer>): number {
  let sessions = 0;
  for (const peer of peers) {
    const session = peer.session;
    if (!session || peer.isClosed) continue;
    if (!session.initialized && session.subscriptions.size === 0) continue;
    sessions++;
    for (const message of legacyResync(session.subscriptions, session.initialized))
      peer.send(message);
  }
  return sessions;
}

/** Whether one of a session's subscriptions covers `uri` (it or a resource above it). */
function coversAny(subscriptions: ReadonlySet<string>, uri: string): boolean {
  if (subscriptions.has(uri)) return true;
  for (const s of subscriptions) if (coversUri(s, uri)) return true;
  return false;
}
