/**
 * Open listen streams and the routing of their frames. 2026-07-28: one `subscriptions/listen`
 * request per stream, frames matched by subscription id. 2025-11-25: `resources/subscribe` per
 * URI, and the session's own notifications fanned out to the streams that want them.
 */
import { McpKitError } from '../errors/index.js';
import { META, validateDef } from '../protocol/index.js';
import type { Era, JSONRPCNotification, RequestId, SubscriptionFilter } from '../protocol/index.js';
import type { Connection } from './connection.js';
import { ListenStream, listenEnded, unrequested, wants } from './listen.js';
import type { Warn } from './result-check.js';
import { shown } from './shown.js';

type Obj = Record<string, unknown>;

export interface ListenDeps {
  conn: Connection;
  /** The listen request's params with `_meta`, and its headers. */
  prepare(filter: SubscriptionFilter, meta?: Obj): { params: Obj; headers: Record<string, string> };
  subscribe(uri: string): Promise<unknown>;
  unsubscribe(uri: string): Promise<unknown>;
  connected(): boolean;
  warn: Warn;
}

/** How one stream is opened: its time limit for the acknowledgement, `_meta`, and signal. */
export interface ListenOpenOptions {
  timeoutMs: number;
  meta?: Obj;
  /** Aborted before the stream opened: the opening fails with REQUEST_CANCELLED. */
  signal?: AbortSignal;
}

interface Modern {
  stream: ListenStream;
  /** Takes the acknowledgement's `notifications`, as the server sent them. */
  ack?: (granted: unknown) => void;
}

export class ListenRegistry {
  private readonly modern = new Map<RequestId, Modern>();
  private readonly legacy = new Set<ListenStream>();
  /** 2025-11-25: how many open streams want each subscribed URI. */
  private readonly uriRefs = new Map<string, number>();

  constructor(private readonly deps: ListenDeps) {}

  async open(
    era: Era,
    filter: SubscriptionFilter,
    options: ListenOpenOptions,
  ): Promise<ListenStream> {
    return era === 'legacy'
      ? this.openLegacy(filter, options.signal)
      : this.openModern(filter, options);
  }

  /** Claims a notification that belongs to a stream; false when it is nobody's frame. */
  route(note: JSONRPCNotification): boolean {
    const params = (note.params ?? {}) as Obj;
    // The server ending a listen (stdio), with or without the subscription id in `_meta`.
    if (note.method === 'notifications/cancelled') {
      const target = params['requestId'] as RequestId;
      const cancelled = this.modern.get(target);
      if (cancelled) {
        this.modern.delete(target);
        cancelled.stream.end();
        this.deps.conn.abandon(target, listenEnded('the server cancelled it'));
        return true;
      }
    }
    const id = ((params['_meta'] ?? {}) as Obj)[META.subscriptionId] as RequestId | undefined;
    const entry = id === undefined ? undefined : this.modern.get(id);
    if (entry) {
      if (note.method === 'notifications/subscriptions/acknowledged') {
        entry.ack?.(params['notifications'] ?? {});
        delete entry.ack;
      } else if (entry.ack) {
        this.deps.warn({
          code: 'LISTEN_ORDER',
          message: `${shown(note.method)} came on listen ${shown(id)} before its acknowledgement; ignored`,
        });
      } else if (wants(entry.stream.requested, note)) {
        entry.stream.push(note);
      } else {
        this.deps.warn({
          code: 'LISTEN_UNREQUESTED',
          message: `${shown(note.method)} came on listen ${shown(id)}, which did not ask for it; ignored`,
        });
      }
      return true;
    }
    let claimed = false;
    for (const stream of this.legacy) {
      if (wants(stream.requested, note)) {
        stream.push(note);
        claimed = true;
      }
    }
    return claimed;
  }

  /** Ends every stream: quietly when the client closed, with `error` when the server went away. */
  endAll(error?: McpKitError): void {
    for (const { stream } of this.modern.values()) stream.end(error);
    this.modern.clear();
    for (const stream of this.legacy) stream.end(error);
    this.legacy.clear();
    this.uriRefs.clear();
  }

  private async openModern(
    filter: SubscriptionFilter,
    options: ListenOpenOptions,
  ): Promise<ListenStream> {
    const { conn } = this.deps;
    const id = conn.allocateId();
    const abort = new AbortController();
    const stream = new ListenStream(filter, () => {
      this.modern.delete(id);
      abort.abort(new Error('listen closed by the client'));
    });
    const acked = new Promise<SubscriptionFilter>((resolve, reject) => {
      const ack = (granted: unknown): void => {
        // Checked before anything reads it: a malformed grant fails the listen, not a loop.
        const issue = validateDef('modern', 'SubscriptionFilter', granted, 'params.notifications');
        if (issue === undefined) return resolve(granted as SubscriptionFilter);
        const what = `notifications/subscriptions/acknowledged is invalid: ${issue.message}`;
        reject(new McpKitError('INVALID_RESPONSE', `${what} (schema 2026-07-28)`));
      };
      this.modern.set(id, { stream, ack });
    });
    const { params, headers } = this.deps.prepare(filter, options.meta);
    const { done } = conn.send(
      'subscriptions/listen',
      params,
      { signal: abort.signal, longLived: true, headers },
      id,
    );
    // The graceful end is the listen request's own result.
    const ended = done.then(
      () => {
        this.modern.delete(id);
        stream.end();
      },
      (error: Error) => {
        this.modern.delete(id);
        stream.end(abort.signal.aborted ? undefined : error);
        throw error;
      },
    );
    ended.catch(() => undefined);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      if (options.timeoutMs > 0) {
        timer = setTimeout(() => {
          reject(
            new McpKitError(
              'REQUEST_TIMEOUT',
              `subscriptions/listen was not acknowledged within ${options.timeoutMs} ms`,
            ),
          );
        }, options.timeoutMs);
      }
    });
    const answeredFirst = ended.then(() => {
      throw listenEnded('the server answered before acknowledging');
    });
    const { signal } = options;
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(listenCancelled(signal as AbortSignal));
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const ack = await Promise.race([acked, answeredFirst, timedOut, aborted]);
      stream.acknowledged = ack;
      const extra = unrequested(filter, ack);
      if (extra.length > 0) {
        this.deps.warn({
          code: 'LISTEN_ACK_MISMATCH',
          message: `the acknowledgement grants what was not requested: ${extra.join(', ')}`,
        });
      }
      return stream;
    } catch (error) {
      await stream.close();
      throw error;
    } finally {
      if (timer) clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  private async openLegacy(
    filter: SubscriptionFilter,
    signal?: AbortSignal,
  ): Promise<ListenStream> {
    const uris = [...new Set(filter.resourceSubscriptions ?? [])];
    const held: string[] = [];
    const stream = new ListenStream(filter, async () => {
      this.legacy.delete(stream);
      await this.release(held);
    });
    try {
      for (const uri of uris) {
        if (signal?.aborted) throw listenCancelled(signal);
        await this.deps.subscribe(uri);
        this.uriRefs.set(uri, (this.uriRefs.get(uri) ?? 0) + 1);
        held.push(uri);
      }
    } catch (error) {
      await this.release(held);
      throw error;
    }
    if (signal?.aborted) {
      await this.release(held);
      throw listenCancelled(signal);
    }
    stream.acknowledged = filter;
    this.legacy.add(stream);
    return stream;
  }

  /** Unsubscribes the URIs no other open stream still wants. */
  private async release(uris: string[]): Promise<void> {
    for (const uri of uris.splice(0)) {
      const left = (this.uriRefs.get(uri) ?? 1) - 1;
      if (left > 0) {
        this.uriRefs.set(uri, left);
        continue;
      }
      this.uriRefs.delete(uri);
      if (this.deps.connected()) await this.deps.unsubscribe(uri).catch(() => undefined);
    }
  }
}

function listenCancelled(signal: AbortSignal): McpKitError {
  return new McpKitError('REQUEST_CANCELLED', 'subscriptions/listen was cancelled', {
    cause: signal.reason,
  });
}
