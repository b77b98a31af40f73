/**
 * The replay side of dispatch: a request answered before from an encoded, still fresh answer is
 * answered again from the peer's lane; the same read already running is waited for and its
 * encoded answer shared. Everything else goes to the full dispatch. See replay-lane.ts.
 */
import {
  resultResponse,
  type JSONRPCResponse,
  type JSONRPCResultResponse,
  type RequestId,
} from '../protocol/jsonrpc.js';
import { requestEra } from '../protocol/era.js';
import { preEncodedSize } from '../protocol/pre-encoded.js';
import type { Era } from '../protocol/versions.js';
import { Cancellation } from './cancellation.js';
import type { ServerCore } from './core.js';
import type { HandleExtra, Peer } from './peer.js';
import {
  plainRequest,
  ReplayLane,
  stampOf,
  type PlainRequest,
  type ReplayTicket,
} from './replay-lane.js';

/** A dispatch that runs every message (the replay key is passed on, to keep its answer). */
export type FullDispatch = (
  peer: Peer,
  raw: unknown,
  extra: HandleExtra,
  replay: ReplayTicket | undefined,
) => Promise<JSONRPCResponse | undefined>;

/** `handle`, with the same request answered again from the peer's lane (see replay-lane.ts). */
export function withReplays(handle: FullDispatch, core: ServerCore) {
  return async (
    peer: Peer,
    raw: unknown,
    extra: HandleExtra,
  ): Promise<JSONRPCResponse | undefined> => {
    // The same request as one answered from memory before: answered again, nothing re-checked.
    // (A transport that has the text asked `peer.replay` before it parsed it.)
    const replayKey = replayKeyOf(peer, raw, extra);
    if (replayKey === undefined) return handle(peer, raw, extra, undefined);
    // Taken before anything runs: a registration made meanwhile is not vouched for.
    const ticket: ReplayTicket = { key: replayKey, stamp: stampOf(core) };
    const id = (raw as { id: RequestId }).id;
    if (extra.text === undefined) {
      const kept = peer.replays.get(replayKey);
      if (kept) return resultResponse(id, kept);
    }
    // The same request already running: a read (many clients asking at once), or a tool or
    // prompt rebuilding an answer that just went stale. Its answer, once encoded, serves this
    // one too. Other calls of tools and prompts each run: their gates and caps answer each one.
    const lane = peer.replays;
    const leader = lane.flights.get(replayKey);
    if (leader) {
      // Cancelled while it waited (notifications/cancelled, the connection gone): no answer.
      if (await cancelledWhile(peer, id, extra, leader)) return undefined;
      // What the leader kept, if it is still fresh now (a change while it ran is not shared).
      const kept = lane.get(replayKey);
      if (kept) return resultResponse(id, kept);
      return handle(peer, raw, extra, ticket);
    }
    const isRead = (raw as { method: string }).method === 'resources/read';
    if (isRead ? lane.isUnshared(replayKey) : !lane.takeExpired(replayKey))
      return handle(peer, raw, extra, ticket);
    const running = handle(peer, raw, extra, ticket);
    lane.flights.set(replayKey, running);
    try {
      const response = await running;
      // Answers never kept encoded (a streamed blob, a tool without memo): no waiting for them.
      if (!isShareable(response)) lane.noteUnshared(replayKey);
      return response;
    } finally {
      if (lane.flights.get(replayKey) === running) lane.flights.delete(replayKey);
    }
  };
}

/**
 * Waits for `leader` as the request `id`, which a cancellation can end meanwhile; whether it was
 * cancelled. It is in the peer's in-flight table while it waits (by id only when no other request
 * holds that id: on stateless HTTP clients reuse ids, and the one running keeps its own).
 */
async function cancelledWhile(
  peer: Peer,
  id: RequestId,
  extra: HandleExtra,
  leader: Promise<unknown>,
): Promise<boolean> {
  const outer = typeof extra.signal === 'function' ? extra.signal() : extra.signal;
  if (outer?.aborted) return true;
  // Not tied to `outer` by Cancellation itself: its listener there would outlive the wait.
  const cancel = new Cancellation();
  const byId = !peer.inflight.has(id);
  peer.begin(id, cancel, byId);
  let wake = (): void => undefined;
  const woken = new Promise<void>((resolve) => (wake = resolve));
  const abort = () => cancel.abort();
  cancel.signal.addEventListener('abort', () => wake(), { once: true });
  outer?.addEventListener('abort', abort, { once: true });
  try {
    await Promise.race([leader, woken]);
    return cancel.aborted;
  } finally {
    outer?.removeEventListener('abort', abort);
    wake();
    peer.finish(id, cancel);
  }
}

/** A result encoded once, which another request's answer may carry as it is. */
function isShareable(response: JSONRPCResponse | undefined): response is JSONRPCResultResponse {
  return (
    response !== undefined && 'result' in response && preEncodedSize(response.result) !== undefined
  );
}

/** The key a request's answer is kept under for a replay, when it may be (see replay-lane.ts). */
function replayKeyOf(peer: Peer, raw: unknown, extra: HandleExtra): string | undefined {
  // A caller identity or a transport check the key cannot stand for: always the full path.
  if (extra.authInfo !== undefined) return undefined;
  if (extra.checkEnvelope !== undefined && extra.replaySetting === undefined) return undefined;
  const plain = plainRequest(raw);
  if (!plain) return undefined;
  // A 2025-11-25 request: its answers are never kept, so neither are its keys.
  if (peer.session !== undefined && eraOfRequest(plain, extra) === 'legacy') return undefined;
  const setting = `${peer.session ? 'session' : ''}\n${extra.replaySetting ?? ''}`;
  return ReplayLane.keyOf(plain, setting, extra.text);
}

/** The era dispatch gives `request` on a connection with a 2025-11-25 session. */
function eraOfRequest(request: PlainRequest, extra: HandleExtra): Era {
  return (
    extra.era ?? requestEra({ method: request.method, params: request.params, inSession: true })
  );
}

/** Whether a tool mirrors arguments in `Mcp-Param-*` headers (their check is not in the key). */
export function mirrorsHeaders(core: ServerCore, params: Record<string, unknown>): boolean {
  const schema = core.tools.get(String(params['name']))?.tool.inputSchema;
  const properties = schema?.['properties'];
  if (typeof properties !== 'object' || properties === null) return false;
  return Object.values(properties as Record<string, unknown>).some(
    (p) => typeof p === 'object' && p !== null && 'x-mcp-header' in p,
  );
}
