/**
 * Tells the other instances on a shared bus which URIs this one's listeners name, and hears what
 * theirs name, so that a provider watches a URI while someone listens to it on any instance.
 * Local changes go out once per turn (a listen naming many URIs is one message), the whole set
 * every `interestRefreshMs`; a query (at start, after a gap) asks the others to refresh at once.
 * One timer, running only while there is interest to refresh or expire; a private bus has none.
 */
import type { AttachTracker } from './attach-tracker.js';
import type { ChangeBus, InterestMessage } from './change-bus.js';
import type { InterestLimits } from './options.js';
import { RemoteInterest } from './remote-interest.js';

type InterestBus = Required<Pick<ChangeBus, 'publishInterest' | 'subscribeInterest'>>;

/** The longest refresh interval of another instance believed (ms), unless this one's is longer. */
export const MAX_BELIEVED_REFRESH_MS = 60_000;

/** Queries are answered at most this often (ms), however many arrive: a refresh is not free. */
export const MAX_QUERY_ANSWER_GAP_MS = 1000;

export interface InterestSyncOptions extends InterestLimits {
  bus: InterestBus;
  tracker: AttachTracker;
  warn: (message: string) => void;
  /** Default `performance.now` (monotonic). */
  now?: () => number;
  /** This server's id in interest messages (default random). */
  id?: string;
}

/** The sync for a bus that other instances share, or undefined (a private bus pays nothing). */
export function interestSyncFor(
  bus: ChangeBus,
  options: Omit<InterestSyncOptions, 'bus'>,
): InterestSync | undefined {
  if (bus.shared !== true || !bus.publishInterest || !bus.subscribeInterest) return undefined;
  const { publishInterest, subscribeInterest } = bus;
  return new InterestSync({
    ...options,
    bus: {
      publishInterest: (m) => publishInterest.call(bus, m),
      subscribeInterest: (h) => subscribeInterest.call(bus, h),
    },
  });
}

export class InterestSync {
  readonly id: string;
  readonly remote: RemoteInterest;
  /** What the others were told this instance listens to. */
  private readonly announced = new Set<string>();
  /** Local URIs whose interest changed since the last flush. */
  private readonly dirty = new Set<string>();
  private flushQueued = false;
  private timer: ReturnType<typeof setInterval> | undefined;
  private answerTimer: ReturnType<typeof setTimeout> | undefined;
  private queryTimer: ReturnType<typeof setTimeout> | undefined;
  private lastRefreshAt = Number.NEGATIVE_INFINITY;
  private lastQueryAt = Number.NEGATIVE_INFINITY;
  private readonly now: () => number;
  private readonly stops: Array<() => void>;
  private warnedCap = false;
  private warnedSend = false;
  private closed = false;

  constructor(private readonly options: InterestSyncOptions) {
    this.id = options.id ?? crypto.randomUUID();
    this.now = options.now ?? (() => performance.now());
    this.remote = new RemoteInterest({
      maxEntries: options.maxRemoteInterest,
      // A peer's claimed interval is believed up to a ceiling: a dead one stops counting in time.
      maxEveryMs: Math.max(options.interestRefreshMs, MAX_BELIEVED_REFRESH_MS),
      onChange: (uri, listened) => options.tracker.setRemote(uri, listened),
      now: this.now,
      warn: options.warn,
    });
    this.stops = [
      options.bus.subscribeInterest((message) => this.receive(message)),
      options.tracker.onLocal((uri) => this.touched(uri)),
    ];
    this.send({ type: 'query', from: this.id });
  }

  /** The bus may have lost messages: tell the others everything again, and ask them to. */
  gap(): void {
    if (this.closed) return;
    this.flush();
    // Spaced like answers to queries: a burst of gap notices costs one refresh, not one each.
    this.answer();
    this.ask();
  }

  /** Stops for good: the others are told this instance listens to nothing any more. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.answerTimer);
    clearTimeout(this.queryTimer);
    this.timer = this.answerTimer = this.queryTimer = undefined;
    for (const stop of this.stops) stop();
    if (this.announced.size > 0)
      this.send({ type: 'detach', from: this.id, uris: [...this.announced] });
    this.announced.clear();
    this.dirty.clear();
    this.remote.clear();
  }

  private touched(uri: string): void {
    if (this.closed) return;
    this.dirty.add(uri);
    if (this.flushQueued) return;
    this.flushQueued = true;
    queueMicrotask(() => this.flush());
  }

  /** Announces what changed locally since the last flush, in one attach and one detach. */
  private flush(): void {
    this.flushQueued = false;
    if (this.closed || this.dirty.size === 0) return;
    const { tracker, maxRemoteInterest } = this.options;
    const attach: string[] = [];
    const detach: string[] = [];
    for (const uri of this.dirty) {
      const here = tracker.hasLocal(uri);
      if (!here) {
        if (this.announced.delete(uri)) detach.push(uri);
      } else if (!this.announced.has(uri)) {
        if (this.announced.size >= maxRemoteInterest) {
          this.capped();
        } else {
          attach.push(uri);
          this.announced.add(uri);
        }
      }
    }
    this.dirty.clear();
    const everyMs = this.options.interestRefreshMs;
    if (detach.length > 0) this.send({ type: 'detach', from: this.id, uris: detach });
    if (attach.length > 0) this.send({ type: 'attach', from: this.id, uris: attach, everyMs });
    this.schedule();
  }

  /** Tells the others the whole local set again (topped up to the cap), if there is one. */
  private refresh(): void {
    const { tracker, maxRemoteInterest } = this.options;
    if (this.announced.size < Math.min(tracker.localSize, maxRemoteInterest)) {
      for (const uri of tracker.localUris()) {
        if (this.announced.size >= maxRemoteInterest) break;
        this.announced.add(uri);
      }
    }
    if (tracker.localSize > this.announced.size) this.capped();
    if (this.announced.size === 0) return;
    this.lastRefreshAt = this.now();
    const everyMs = this.options.interestRefreshMs;
    this.send({ type: 'refresh', from: this.id, uris: [...this.announced], everyMs });
  }

  private tick(): void {
    this.flush();
    this.refresh();
    this.remote.sweep();
    if (this.announced.size === 0 && this.remote.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  private schedule(): void {
    if (this.timer !== undefined || this.closed) return;
    if (this.announced.size === 0 && this.remote.size === 0) return;
    this.timer = setInterval(() => this.tick(), this.options.interestRefreshMs);
    unref(this.timer);
  }

  private receive(message: InterestMessage): void {
    // The bus echoes this server's own messages: they say nothing about the others.
    if (this.closed || message.from === this.id) return;
    if (message.type === 'query') return this.answer();
    this.remote.apply(message);
    this.schedule();
  }

  /**
   * Asks the others to refresh: at once, or (after one just went out) at the end of the spacing,
   * never dropped. A drop and the reconnect that follows are two gaps: what was asked at the drop
   * was answered while this instance could not hear, so the later gap must ask again.
   */
  private ask(): void {
    this.spaced('queryTimer', this.lastQueryAt, () => {
      this.lastQueryAt = this.now();
      this.send({ type: 'query', from: this.id });
    });
  }

  /** Answers a query with a refresh: at once, or (after one just went out) a little later. */
  private answer(): void {
    this.spaced('answerTimer', this.lastRefreshAt, () => {
      this.flush();
      this.refresh();
    });
  }

  /** Runs `work` once the spacing since `last` has passed (at once if it has), one at a time. */
  private spaced(timer: 'queryTimer' | 'answerTimer', last: number, work: () => void): void {
    if (this[timer] !== undefined) return;
    const spacing = Math.min(MAX_QUERY_ANSWER_GAP_MS, this.options.interestRefreshMs);
    const wait = last + spacing - this.now();
    const run = (): void => {
      this[timer] = undefined;
      if (!this.closed) work();
    };
    if (wait <= 0) return run();
    this[timer] = setTimeout(run, wait);
    unref(this[timer]);
  }

  private send(message: InterestMessage): void {
    try {
      this.options.bus.publishInterest(message);
    } catch (error) {
      // Best-effort: the next refresh makes up for it.
      if (this.warnedSend) return;
      this.warnedSend = true;
      this.options.warn(
        `mcpkit: could not announce listener interest on the bus: ${String(error)}`,
      );
    }
  }

  private capped(): void {
    if (this.warnedCap) return;
    this.warnedCap = true;
    this.options.warn(
      `mcpkit: listeners here name more than maxRemoteInterest (${this.options.maxRemoteInterest}) URIs; the rest are not announced, so other instances do not watch them for listeners here`,
    );
  }
}

/** Timers must never keep a process alive (no-op where timers have no `unref`). */
function unref(timer: unknown): void {
  (timer as { unref?: () => void }).unref?.();
}
