/**
 * A listen that survives its stream: when the stream ends for any reason but `close()` (the server
 * dropped it, an instance went away, the bus lost events), it listens again with backoff and then
 * says "everything may have changed": one resource update per subscribed URI and one list change
 * per list it asked for, marked `_meta["dev.mcpkit/resync"]`. Both are level-triggered, so a
 * consumer that re-reads on them ends with the final state even when frames were lost.
 */
import type { SubscriptionFilter } from '../protocol/index.js';
import { closeOnAbort, type ListenNotification, type ListenStream } from './listen.js';

export const RESYNC_META = 'dev.mcpkit/resync';

export interface RelistenOptions {
  /** First wait before listening again (doubled per failed attempt, with jitter); default 100 ms. */
  minDelayMs?: number;
  /** Longest wait between attempts; default 10 s. */
  maxDelayMs?: number;
  /** Attempts in a row before the stream fails with the last error; default unlimited. */
  maxAttempts?: number;
  /** Told of every re-listen: the attempt that succeeded, and what ended the previous stream. */
  onRelisten?: (info: { attempts: number; cause: unknown }) => void;
}

/** What the resilient stream needs from its client. */
export interface RelistenDeps {
  open(filter: SubscriptionFilter): Promise<ListenStream>;
  /** Tells the client's caches (and notification listeners) of a synthetic frame. */
  inject(note: ListenNotification): void;
  /** Whether the client was closed: then nothing is retried. */
  closed(): boolean;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const sleepFor = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The frames that stand for "anything may have changed while no stream was open". */
export function resyncFrames(filter: SubscriptionFilter): ListenNotification[] {
  const meta = { [RESYNC_META]: true };
  const out: ListenNotification[] = [];
  for (const [key, list] of [
    ['toolsListChanged', 'tools'],
    ['promptsListChanged', 'prompts'],
    ['resourcesListChanged', 'resources'],
  ] as const) {
    if (filter[key] === true) {
      out.push({ method: `notifications/${list}/list_changed`, params: { _meta: meta } });
    }
  }
  for (const uri of filter.resourceSubscriptions ?? []) {
    out.push({ method: 'notifications/resources/updated', params: { uri, _meta: meta } });
  }
  return out;
}

export class ResilientListenStream implements AsyncIterable<ListenNotification> {
  /** Streams opened after the first (re-listens). */
  relistens = 0;
  private current: ListenStream;
  private pending: ListenNotification[] = [];
  private closedByUser = false;
  private unlink: (() => void) | undefined;

  constructor(
    first: ListenStream,
    readonly requested: SubscriptionFilter,
    private readonly deps: RelistenDeps,
    private readonly options: RelistenOptions = {},
  ) {
    this.current = first;
  }

  /** What the server of the current stream said it honours. */
  get acknowledged(): SubscriptionFilter {
    return this.current.acknowledged;
  }

  get closed(): boolean {
    return this.closedByUser;
  }

  async close(): Promise<void> {
    this.finish();
    await this.current.close();
  }

  /** @internal Closes the stream when `signal` aborts; its listener goes when the stream ends. */
  closeOn(signal: AbortSignal): void {
    if (!this.closedByUser) this.unlink = closeOnAbort(signal, () => this.close());
  }

  /** No more frames, nor any listen again. */
  private finish(): void {
    this.closedByUser = true;
    this.unlink?.();
    this.unlink = undefined;
  }

  async next(): Promise<IteratorResult<ListenNotification>> {
    for (;;) {
      const held = this.pending.shift();
      if (held) return { value: held, done: false };
      if (this.closedByUser) return { value: undefined, done: true };
      let cause: unknown;
      try {
        const r = await this.current.next();
        if (!r.done) return r;
        cause = new Error('the server ended the listen stream');
      } catch (error) {
        cause = error;
      }
      if (this.closedByUser || this.deps.closed()) {
        this.finish();
        return { value: undefined, done: true };
      }
      await this.relisten(cause);
    }
  }

  private async relisten(cause: unknown): Promise<void> {
    const min = this.options.minDelayMs ?? 100;
    const max = this.options.maxDelayMs ?? 10_000;
    const limit = this.options.maxAttempts ?? Number.POSITIVE_INFINITY;
    const sleep = this.deps.sleep ?? sleepFor;
    const random = this.deps.random ?? Math.random;
    let last = cause;
    for (let attempt = 1; attempt <= limit; attempt++) {
      // Full jitter: instances dropped together do not come back together.
      const ceiling = Math.min(max, min * 2 ** (attempt - 1));
      await sleep(Math.round(ceiling / 2 + (random() * ceiling) / 2));
      if (this.closedByUser || this.deps.closed()) return;
      try {
        this.current = await this.deps.open(this.requested);
      } catch (error) {
        last = error;
        continue;
      }
      this.relistens++;
      this.options.onRelisten?.({ attempts: attempt, cause });
      const frames = resyncFrames(this.requested);
      for (const frame of frames) this.deps.inject(frame);
      this.pending.push(...frames);
      return;
    }
    this.finish();
    throw last;
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
