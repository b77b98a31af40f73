/**
 * Request timeouts without a timer per request. Requests with the same timeout expire in the
 * order they were sent, so each duration keeps a FIFO of deadlines and one timer for its oldest
 * live entry; a settled request is only marked, and dropped when it reaches the head (or when
 * marked entries outnumber live ones, so a long-running head cannot pin a backlog).
 */

export interface Deadline {
  /** Stops the deadline (the request settled). */
  clear(): void;
}

/** What a deadline calls when it passes (an object, so that no closure is made per request). */
export interface Expirable {
  expire(): void;
}

class Entry implements Deadline {
  live = true;

  constructor(
    readonly at: number,
    /** Let go once cleared: a settled entry waits in the queue, its request must not. */
    public target: Expirable | undefined,
    private readonly lane: Lane,
  ) {}

  clear(): void {
    if (!this.live) return;
    this.live = false;
    this.target = undefined;
    this.lane.settled();
  }
}

const MAX_TIMER_MS = 0x7fffffff;

class Lane {
  private queue: Entry[] = [];
  private head = 0;
  private live = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ms: number,
    private readonly now: () => number,
  ) {}

  add(target: Expirable): Deadline {
    const entry = new Entry(this.now() + this.ms, target, this);
    this.queue.push(entry);
    if (this.live++ === 0 && this.timer !== undefined) refTimer(this.timer, true);
    if (this.timer === undefined) this.arm();
    return entry;
  }

  /** An entry was cleared. */
  settled(): void {
    this.live--;
    this.trim();
  }

  get idle(): boolean {
    return this.live === 0;
  }

  private trim(): void {
    while (this.head < this.queue.length && !this.queue[this.head]!.live) this.head++;
    const dead = this.queue.length - this.head - this.live;
    if (this.head === this.queue.length) {
      this.queue.length = 0;
      this.head = 0;
    } else if (this.head > 1024 || dead > 1024 + 4 * this.live) {
      this.queue = this.queue.slice(this.head).filter((e) => e.live);
      this.head = 0;
    }
    // Left armed (one timer per `ms`, not per request), but it no longer holds the process open.
    if (this.live === 0 && this.timer !== undefined) refTimer(this.timer, false);
  }

  private arm(): void {
    const first = this.queue[this.head];
    if (!first) return;
    // setTimeout takes at most 2^31-1 ms (longer is cut to 1 ms): a far deadline re-arms.
    const wait = Math.min(MAX_TIMER_MS, Math.max(0, first.at - this.now()));
    this.timer = setTimeout(() => this.expire(), wait);
  }

  private expire(): void {
    this.timer = undefined;
    const now = this.now();
    while (this.head < this.queue.length) {
      const entry = this.queue[this.head]!;
      if (entry.live && entry.at > now) break;
      this.head++;
      if (entry.live) {
        const { target } = entry;
        entry.live = false;
        entry.target = undefined;
        this.live--;
        target?.expire();
      }
    }
    this.trim();
    if (this.live > 0 && this.timer === undefined) this.arm();
  }
}

/** Node timers can stop holding the event loop open; elsewhere there is nothing to hold. */
function refTimer(timer: ReturnType<typeof setTimeout>, on: boolean): void {
  const t = timer as { ref?: () => void; unref?: () => void };
  if (on) t.ref?.();
  else t.unref?.();
}

export class Deadlines {
  private readonly lanes = new Map<number, Lane>();

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** Calls `target.expire()` after `ms` unless cleared first. */
  add(ms: number, target: Expirable): Deadline {
    let lane = this.lanes.get(ms);
    if (!lane) {
      lane = new Lane(ms, this.now);
      this.lanes.set(ms, lane);
      // Few distinct timeouts are usual; forget idle lanes past a handful.
      if (this.lanes.size > 16)
        for (const [k, l] of this.lanes) if (l.idle && k !== ms) this.lanes.delete(k);
    }
    return lane.add(target);
  }
}
