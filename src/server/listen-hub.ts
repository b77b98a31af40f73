import { jsonStringWireSize, utf8Length } from '../content/wire-size.js';
import { ERROR_CODES } from '../protocol/error-codes.js';
import { ProtocolError } from '../errors/protocol-error.js';
import type { JSONRPCMessage, RequestId } from '../protocol/jsonrpc.js';
import { META } from '../protocol/meta-keys.js';
import type { SubscriptionFilter } from '../protocol/types.js';
import { coversUri } from '../uri/covers.js';
import { DEFAULT_MAX_LISTEN_QUEUE_BYTES } from './options.js';
import type { ChannelFlow } from './channel-flow.js';
import type { ListKind } from './registry.js';

export type { ChannelFlow };

export interface Listener {
  id: RequestId;
  filter: SubscriptionFilter;
  notify: (message: JSONRPCMessage) => void;
  /** The backpressure of `notify`'s channel; without one, frames are written as they come. */
  flow?: ChannelFlow | undefined;
  /** Ends the listen; `error` is set when the server cut it because its client fell behind. */
  end: (error?: ProtocolError) => void;
  /** Most bytes the stream may queue while congested (default 4 MiB, `maxListenQueueBytes`). */
  maxQueueBytes?: number;
  /** Told why a stream was cut (default console.warn). */
  warn?: (message: string) => void;
}

const FILTER_KEY: Record<
  ListKind,
  'toolsListChanged' | 'promptsListChanged' | 'resourcesListChanged'
> = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
};

/** Held-frame keys of the list kinds: symbols, so that no URI can collide with them. */
const KIND_KEY: Record<ListKind, symbol> = {
  tools: Symbol('tools'),
  prompts: Symbol('prompts'),
  resources: Symbol('resources'),
};
const KIND_OF = new Map<symbol, ListKind>(
  Object.entries(KIND_KEY).map(([kind, key]) => [key, kind as ListKind]),
);

/** Frames one drain writes before it lets other work in. */
const DRAIN_ROUND = 64;

/** A frame to send: a resource URI (`updated`) or a list kind's key (`list_changed`). */
type FrameKey = string | symbol;

/**
 * One listen stream. While its channel is congested it holds frame keys instead of frames, in
 * first-come order and each once: an update for a URI already held (not yet written) is the same
 * update, so coalescing loses nothing. Past `maxQueueBytes` the stream is cut.
 */
class ListenStream {
  private held: Set<FrameKey> | undefined;
  private bytes = 0;
  /** Wire size of this stream's `updated` frame with an empty URI; known once it first holds. */
  private baseBytes = 0;
  private closed = false;
  private drainer: (() => void) | undefined;

  constructor(
    readonly listener: Listener,
    private readonly flow: ChannelFlow | undefined,
  ) {}

  /** Writes the frame, or holds its key while the channel is congested. */
  offer(key: FrameKey): void {
    if (this.closed) return;
    const flow = this.flow;
    if (this.held === undefined) {
      // The common path: a reading client costs one getter more than an unbounded write.
      this.listener.notify(this.frameOf(key));
      if (flow?.congested === true) this.startHolding(flow);
      return;
    }
    if (this.held.has(key)) return;
    this.held.add(key);
    this.bytes += this.sizeOf(key);
    const queued = this.queuedBytes;
    const limit = this.listener.maxQueueBytes ?? DEFAULT_MAX_LISTEN_QUEUE_BYTES;
    if (queued > limit) this.overflow(queued, limit);
  }

  get heldFrames(): number {
    return this.held?.size ?? 0;
  }

  get heldBytes(): number {
    return this.bytes;
  }

  /** Bytes held here plus what the channel buffered. */
  get queuedBytes(): number {
    return this.bytes + (this.flow?.bufferedBytes ?? 0);
  }

  /** Forgets what it holds; later drains do nothing. */
  close(): void {
    this.closed = true;
    this.held = undefined;
    this.bytes = 0;
  }

  private startHolding(flow: ChannelFlow): void {
    this.held = new Set();
    this.baseBytes ||= utf8Length(
      JSON.stringify(frame('notifications/resources/updated', this.listener.id, { uri: '' })),
    );
    flow.onDrain((this.drainer ??= () => this.drain()));
  }

  /**
   * Writes what it holds, in order, until the channel is congested again or a round of
   * DRAIN_ROUND frames is written: then the next round comes on a later turn (onDrain), so that
   * many streams catching up do not keep other requests waiting.
   */
  private drain(): void {
    const held = this.held;
    if (this.closed || !held || !this.flow) return;
    let written = 0;
    for (const key of held) {
      held.delete(key);
      this.bytes -= this.sizeOf(key);
      this.listener.notify(this.frameOf(key));
      if (this.flow.congested || ++written >= DRAIN_ROUND) {
        if (held.size > 0 || this.flow.congested) {
          this.flow.onDrain(this.drainer as () => void);
          return;
        }
      }
    }
    this.held = undefined;
    this.bytes = 0;
  }

  private overflow(queued: number, limit: number): void {
    this.close();
    const id = JSON.stringify(this.listener.id);
    (this.listener.warn ?? console.warn)(
      `mcpkit: ended subscriptions/listen ${id}: its client is not reading and ${queued} bytes are queued, more than maxListenQueueBytes (${limit})`,
    );
    this.listener.end(
      new ProtocolError(
        ERROR_CODES.INTERNAL_ERROR,
        `subscriptions/listen ended: the client fell behind by more than ${limit} bytes (maxListenQueueBytes); updates were dropped, listen again and re-read`,
        { maxListenQueueBytes: limit },
      ),
    );
  }

  private frameOf(key: FrameKey): JSONRPCMessage {
    const id = this.listener.id;
    if (typeof key === 'string') return frame('notifications/resources/updated', id, { uri: key });
    return frame(`notifications/${KIND_OF.get(key) as ListKind}/list_changed`, id);
  }

  /** About the frame's JSON size (a list_changed counts as an `updated` with an empty URI). */
  private sizeOf(key: FrameKey): number {
    return typeof key === 'string' ? this.baseBytes + jsonStringWireSize(key) - 2 : this.baseBytes;
  }
}

/** Open `subscriptions/listen` streams (2026-07-28). */
export class ListenHub {
  private readonly streams = new Set<ListenStream>();
  /**
   * Listens that `endAll` ended, by the channel they notify on and their id: the server ended
   * them, so they get their result even though their connection closes right after.
   */
  private readonly endedByServer = new WeakMap<Listener['notify'], Set<RequestId>>();

  /** The part of a filter this server honours. */
  honoured(
    filter: SubscriptionFilter,
    supports: { resourceSubscriptions: boolean },
  ): SubscriptionFilter {
    const out: SubscriptionFilter = {};
    if (filter.toolsListChanged === true) out.toolsListChanged = true;
    if (filter.promptsListChanged === true) out.promptsListChanged = true;
    if (filter.resourcesListChanged === true) out.resourcesListChanged = true;
    if (supports.resourceSubscriptions && Array.isArray(filter.resourceSubscriptions)) {
      out.resourceSubscriptions = [...filter.resourceSubscriptions];
    }
    return out;
  }

  /** Adds a listener; the returned remover also drops whatever its stream holds. */
  add(listener: Listener): () => void {
    const stream = new ListenStream(listener, listener.flow);
    this.streams.add(stream);
    return () => {
      this.streams.delete(stream);
      stream.close();
    };
  }

  get size(): number {
    return this.streams.size;
  }

  /**
   * Diagnostics: frames held for congested channels and their bytes, over all streams, and the
   * most any one stream queues (held plus what its channel buffered), which the limit bounds.
   */
  get queued(): { frames: number; heldBytes: number; maxQueuedBytes: number } {
    let frames = 0;
    let heldBytes = 0;
    let maxQueuedBytes = 0;
    for (const s of this.streams) {
      frames += s.heldFrames;
      heldBytes += s.heldBytes;
      maxQueuedBytes = Math.max(maxQueuedBytes, s.queuedBytes);
    }
    return { frames, heldBytes, maxQueuedBytes };
  }

  listChanged(kind: ListKind): void {
    const flag = FILTER_KEY[kind];
    const key = KIND_KEY[kind];
    for (const s of this.streams) if (s.listener.filter[flag] === true) s.offer(key);
  }

  resourceUpdated(uri: string): void {
    for (const s of this.streams) {
      if (s.listener.filter.resourceSubscriptions?.some((sub) => coversUri(sub, uri))) {
        s.offer(uri);
      }
    }
  }

  /** Ends every stream gracefully (server shutdown): each still gets its result. */
  endAll(): void {
    for (const { listener: l } of [...this.streams]) {
      let ids = this.endedByServer.get(l.notify);
      if (!ids) this.endedByServer.set(l.notify, (ids = new Set()));
      ids.add(l.id);
      l.end();
    }
  }

  /** Whether `endAll` ended the listen `id` that notified through `notify`; forgets it. */
  takeEndedByServer(notify: Listener['notify'], id: RequestId): boolean {
    const ids = this.endedByServer.get(notify);
    if (!ids?.delete(id)) return false;
    if (ids.size === 0) this.endedByServer.delete(notify);
    return true;
  }
}

export function frame(
  method: string,
  id: RequestId,
  params: Record<string, unknown> = {},
): JSONRPCMessage {
  return { jsonrpc: '2.0', method, params: { ...params, _meta: { [META.subscriptionId]: id } } };
}
