/**
 * One `subscriptions/listen` stream. While its channel is congested it holds a set of frame keys
 * (an updated URI, a changed list), each once however often it changes (level-triggered), and
 * writes them in first-come order on drain. Bounded by `maxListenPendingUris` and by bytes
 * (`maxListenQueueBytes`, with the channel's buffer; all streams together:
 * `maxListenQueueTotalBytes`): past a bound the stream is cut with an error so that the client
 * listens again and re-reads, never silently stale and never an unbounded queue.
 */
import { jsonStringWireSize, utf8Length } from '../content/wire-size.js';
import type { ProtocolError } from '../errors/protocol-error.js';
import type { JSONRPCMessage, RequestId } from '../protocol/jsonrpc.js';
import { META } from '../protocol/meta-keys.js';
import type { SubscriptionFilter } from '../protocol/types.js';
import type { ChannelFlow } from './channel-flow.js';
import { fellBehindWarning, listenFellBehind, listenTotalFellBehind } from './listen-errors.js';
import type { ListKind } from './registry.js';

export interface Listener {
  id: RequestId;
  filter: SubscriptionFilter;
  notify: (message: JSONRPCMessage) => void;
  /** The backpressure of `notify`'s channel; without one, frames are written as they come. */
  flow?: ChannelFlow | undefined;
  /**
   * Whether the caller may read `uri` (its read scopes): a URI it subscribed to covers
   * sub-resources that may need more, whose updates it is then not told of. Absent: any.
   */
  mayRead?: ((uri: string) => boolean) | undefined;
  /**
   * Ends the listen; `error` is set when the server cut it (its client fell behind, the bus lost
   * events). The hub has already forgotten the stream when this runs.
   */
  end: (error?: ProtocolError) => void;
}

/** What a stream is held to: the hub's bounds. */
export interface StreamBounds {
  maxQueueBytes: number;
  maxPendingUris: number;
  warn: (message: string) => void;
  /** Bytes queued by every stream of the hub together; each stream keeps its share current. */
  budget?: QueueBudget;
}

/** The running total of what a hub's streams queue (see ListenStream.charge). */
export interface QueueBudget {
  used: number;
}

/** Held-frame keys of the list kinds: symbols, so that no URI can collide with them. */
export const KIND_KEY: Readonly<Record<ListKind, symbol>> = {
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
export type FrameKey = string | symbol;

export class ListenStream {
  private held: Set<FrameKey> | undefined;
  /** How many of the held keys are URIs (the rest are at most the three list kinds). */
  private heldUris = 0;
  private bytes = 0;
  /** Wire size of this stream's `updated` frame with an empty URI; known once it first holds. */
  private baseBytes = 0;
  private closed = false;
  private drainer: (() => void) | undefined;
  /**
   * What the channel had buffered when it last turned congested: the stream holds rather than
   * writes meanwhile, so that is about what it buffers now (kept without asking the channel).
   */
  private buffered = 0;
  /** This stream's share of `bounds.budget`. */
  private charged = 0;

  constructor(
    readonly listener: Listener,
    private readonly bounds: StreamBounds,
    /** Called once when the stream cuts itself, before the listener's `end`. */
    private readonly onCut: () => void,
  ) {}

  /** Writes the frame, or holds its key while the channel is congested. */
  offer(key: FrameKey): void {
    if (this.closed) return;
    const flow = this.listener.flow;
    if (this.held === undefined) {
      // The common path: a reading client costs one getter more than an unbounded write.
      this.listener.notify(this.frameOf(key));
      if (flow?.congested === true) this.startHolding(flow);
      return;
    }
    if (this.held.has(key)) return;
    const isUri = typeof key === 'string';
    if (isUri && this.heldUris >= this.bounds.maxPendingUris) {
      const limit = this.bounds.maxPendingUris;
      return this.cut(
        `more than ${limit} distinct URIs changed meanwhile (maxListenPendingUris ${limit})`,
        listenFellBehind('maxListenPendingUris', limit),
      );
    }
    this.held.add(key);
    if (isUri) this.heldUris++;
    this.bytes += this.sizeOf(key);
    this.recharge();
    const queued = this.queuedBytes;
    const limit = this.bounds.maxQueueBytes;
    if (queued > limit) {
      this.cut(
        `${queued} bytes are queued, more than maxListenQueueBytes (${limit})`,
        listenFellBehind('maxListenQueueBytes', limit),
      );
    }
  }

  /** Bytes held here plus what the channel buffered. */
  get queuedBytes(): number {
    return this.bytes + (this.listener.flow?.bufferedBytes ?? 0);
  }

  /** What this stream counts in the hub's budget: held frames and the channel's buffer. */
  get charge(): number {
    return this.charged;
  }

  /** Forgets what it holds; later offers and drains do nothing. */
  close(): void {
    this.closed = true;
    this.held = undefined;
    this.heldUris = 0;
    this.bytes = 0;
    this.recharge();
  }

  /** Cuts the stream because all streams together hold more than `limit` and it holds most. */
  shed(total: number, limit: number): void {
    if (this.closed) return;
    this.cut(
      `the listen streams of clients that do not read hold ${total} bytes together, more than maxListenQueueTotalBytes (${limit}), this one ${this.charged}`,
      listenTotalFellBehind(limit),
    );
  }

  /** Brings this stream's share of the budget up to date. */
  private recharge(): void {
    const budget = this.bounds.budget;
    if (!budget) return;
    const now = this.held === undefined ? 0 : this.bytes + this.buffered;
    budget.used += now - this.charged;
    this.charged = now;
  }

  private startHolding(flow: ChannelFlow): void {
    this.held = new Set();
    this.buffered = flow.bufferedBytes;
    this.recharge();
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
    const flow = this.listener.flow;
    if (this.closed || !held || !flow) return;
    let written = 0;
    for (const key of held) {
      held.delete(key);
      if (typeof key === 'string') this.heldUris--;
      this.bytes -= this.sizeOf(key);
      this.listener.notify(this.frameOf(key));
      if (flow.congested || ++written >= DRAIN_ROUND) {
        if (held.size > 0 || flow.congested) {
          this.buffered = flow.bufferedBytes;
          this.recharge();
          flow.onDrain(this.drainer as () => void);
          return;
        }
      }
    }
    this.held = undefined;
    this.heldUris = 0;
    this.bytes = 0;
    this.recharge();
  }

  private cut(detail: string, error: ProtocolError): void {
    this.close();
    this.onCut();
    this.bounds.warn(fellBehindWarning(this.listener.id, detail));
    this.listener.end(error);
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

/** A listen-stream frame: the subscription id in `_meta`, on every one. */
export function frame(
  method: string,
  id: RequestId,
  params: Record<string, unknown> = {},
): JSONRPCMessage {
  return { jsonrpc: '2.0', method, params: { ...params, _meta: { [META.subscriptionId]: id } } };
}
