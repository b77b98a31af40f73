import type { LineEvent } from '../line-decoder.js';

/**
 * Replies to the server's own requests that may wait unwritten (the child not reading its
 * stdin) before the client stops reading its stdout.
 */
export const MAX_UNWRITTEN_REPLIES = 32;

/** What the pacer stops and starts: the child's stdout. */
export interface Pausable {
  pause(): unknown;
  resume(): unknown;
}

/**
 * Stops reading the child's stdout while too many replies are unwritten, until they drained: a
 * server that reads none of its replies then waits on its own full pipe, not on our memory. The
 * lines of the chunk being decoded when it stopped are held (one chunk) and delivered in order.
 */
export class ReplyPacer {
  private unwritten = 0;
  private held: LineEvent[] = [];
  private next = 0;
  private paused = false;
  private ended = false;

  constructor(
    private readonly stdout: Pausable,
    private readonly deliver: (event: LineEvent) => void,
    private readonly limit = MAX_UNWRITTEN_REPLIES,
  ) {}

  /** The line decoder's output. */
  readonly take = (event: LineEvent): void => {
    if (this.paused) this.held.push(event);
    else this.deliver(event);
  };

  /** A reply was handed to stdin's buffer: its write callback has not come yet. */
  replyQueued(): void {
    if (++this.unwritten < this.limit || this.paused || this.ended) return;
    this.paused = true;
    this.stdout.pause();
  }

  /** A reply's write ended (written or failed). */
  readonly replyDone = (): void => {
    this.unwritten--;
    // Half the limit: one drained reply does not let the next chunk in at once.
    if (this.paused && this.unwritten <= this.limit / 2) this.resume();
  };

  /** Delivers what is held whatever the replies (the child is gone: nothing more comes). */
  flush(): void {
    this.ended = true;
    this.paused = false;
    this.drain();
  }

  private resume(): void {
    this.paused = false;
    this.drain();
    if (!this.paused) this.stdout.resume();
  }

  private drain(): void {
    while (!this.paused && this.next < this.held.length) {
      this.deliver(this.held[this.next++] as LineEvent);
    }
    if (this.next >= this.held.length) {
      this.held = [];
      this.next = 0;
    }
  }
}
