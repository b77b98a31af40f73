/**
 * A listen stream as an async iterator of notifications. The queue is bounded: a server that
 * floods faster than the application reads loses the oldest frames (counted in `dropped`), never
 * the host's memory; list changes and resource updates are level-triggered, so a re-list or a
 * re-read after a drop catches up.
 */
import type { JSONRPCNotification, SubscriptionFilter } from '../protocol/index.js';
import { McpKitError } from '../errors/index.js';
import { shown } from './shown.js';

export const DEFAULT_LISTEN_QUEUE = 1_000;

export interface ListenNotification {
  method: string;
  params: Record<string, unknown>;
}

export class ListenStream implements AsyncIterable<ListenNotification> {
  /** What the server said it honours (the acknowledgement); the requested filter on 2025-11-25. */
  acknowledged: SubscriptionFilter = {};
  /** Frames dropped because the application did not keep up. */
  dropped = 0;
  private readonly queue: ListenNotification[] = [];
  private waiter: ((r: IteratorResult<ListenNotification>) => void) | undefined;
  private failWaiter: ((e: Error) => void) | undefined;
  private ended = false;
  private error: Error | undefined;
  /** Takes the abort listener of `closeOn` off its signal. */
  private unlink: (() => void) | undefined;

  constructor(
    readonly requested: SubscriptionFilter,
    private readonly stop: () => Promise<void> | void,
    private readonly maxQueued = DEFAULT_LISTEN_QUEUE,
  ) {}

  get closed(): boolean {
    return this.ended;
  }

  /** @internal */
  push(note: JSONRPCNotification): void {
    if (this.ended) return;
    const item = { method: note.method, params: (note.params ?? {}) as Record<string, unknown> };
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = this.failWaiter = undefined;
      w({ value: item, done: false });
      return;
    }
    this.queue.push(item);
    if (this.queue.length > this.maxQueued) {
      this.queue.shift();
      this.dropped++;
    }
  }

  /** @internal Closes the stream when `signal` aborts; its listener goes when the stream ends. */
  closeOn(signal: AbortSignal): void {
    if (!this.ended) this.unlink = closeOnAbort(signal, () => this.close());
  }

  /** @internal The stream ended: gracefully (no error) or not. */
  end(error?: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.error = error;
    this.unlink?.();
    this.unlink = undefined;
    if (this.waiter) {
      const w = this.waiter;
      const f = this.failWaiter;
      this.waiter = this.failWaiter = undefined;
      if (error && f) f(error);
      else w({ value: undefined, done: true });
    }
  }

  /** Ends the subscription (HTTP: closes the stream; stdio: `notifications/cancelled`). */
  async close(): Promise<void> {
    if (this.ended) return;
    this.end();
    await this.stop();
  }

  next(): Promise<IteratorResult<ListenNotification>> {
    const item = this.queue.shift();
    if (item) return Promise.resolve({ value: item, done: false });
    if (this.ended) {
      if (this.error) {
        const e = this.error;
        this.error = undefined;
        return Promise.reject(e);
      }
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.waiter = resolve;
      this.failWaiter = reject;
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<ListenNotification> {
    return {
      next: () => this.next(),
      return: async () => {
        await this.close();
        return { value: undefined, done: true };
      },
    };
  }
}

/**
 * Calls `close` once when `signal` aborts (at once if it has); returns what takes the listener
 * off, so that a long-lived signal does not keep one per stream it outlived.
 */
export function closeOnAbort(signal: AbortSignal, close: () => Promise<void>): () => void {
  const onAbort = (): void => void close().catch(() => undefined);
  if (signal.aborted) {
    onAbort();
    return () => undefined;
  }
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/** Which notification methods a filter asks for. */
export function wants(filter: SubscriptionFilter, note: JSONRPCNotification): boolean {
  switch (note.method) {
    case 'notifications/tools/list_changed':
      return filter.toolsListChanged === true;
    case 'notifications/prompts/list_changed':
      return filter.promptsListChanged === true;
    case 'notifications/resources/list_changed':
      return filter.resourcesListChanged === true;
    case 'notifications/resources/updated': {
      const uri = note.params?.['uri'];
      return (
        typeof uri === 'string' &&
        (filter.resourceSubscriptions ?? []).some(
          (s) => uri === s || uri.startsWith(s.endsWith('/') ? s : `${s}/`),
        )
      );
    }
    default:
      return false;
  }
}

/** Types the acknowledgement grants that were never requested (a server bug worth a warning). */
export function unrequested(requested: SubscriptionFilter, ack: SubscriptionFilter): string[] {
  const out: string[] = [];
  for (const key of ['toolsListChanged', 'promptsListChanged', 'resourcesListChanged'] as const) {
    if (ack[key] === true && requested[key] !== true) out.push(key);
  }
  const asked = new Set(requested.resourceSubscriptions ?? []);
  // The server's URIs, quoted and escaped: the warning may reach a terminal.
  for (const uri of ack.resourceSubscriptions ?? []) if (!asked.has(uri)) out.push(shown(uri));
  return out;
}

export function listenEnded(reason: string): McpKitError {
  return new McpKitError('STREAM_INTERRUPTED', `the listen stream ended: ${reason}`);
}
