import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { backoffDelay } from './backoff.js';
import { closeRedis, errorText, openRedis, type RedisConnectOptions } from './connect.js';
import { redisKeys, type RedisKeys } from './keys.js';
import { redactRedisUrl } from './redact.js';
import type { ChangeBus, ChangeEvent, InterestMessage } from './types.js';
import { chunkInterest, decodeBusMessage, encodeBusMessage, shownGap } from './wire.js';
import { Emitter } from '../protocol/emitter.js';

export interface RedisBusOptions extends RedisConnectOptions {
  /** Key prefix; the channel is `<prefix>events` (default `mcpkit:`). */
  prefix?: string;
  /**
   * How often the subscriber connection is checked with PING (default 5 s): a Redis that keeps
   * the socket open but stops answering counts as dropped after about this long.
   */
  heartbeatMs?: number;
  /**
   * A connection to publish on, shared with a RedisLinkStore; the bus does not close it.
   * Default: a connection of its own.
   */
  publisher?: Redis;
}

export const DEFAULT_HEARTBEAT_MS = 5000;

/**
 * Change events shared by every instance through Redis pub/sub (`<prefix>events`).
 *
 * - An event published here reaches this instance's subscribers at once (as MemoryBus does),
 *   then the other instances through Redis; its echo, recognised by the instance id, is skipped,
 *   so every subscriber sees each event once.
 * - Gaps: when the subscriber connection drops (closed, killed, or no PING answer), onGap fires
 *   ("events may have been missed"); it fires again once the bus is subscribed again, since a
 *   listen opened during the outage missed events too. Events flow again from the first one
 *   published after that. An event this instance could not publish makes it tell the others,
 *   once Redis answers again, to fire their gap handlers.
 * - Reconnects forever, with backoff; the loss and the recovery are logged once each.
 * - Interest (which URIs each server's listeners name) travels on the same channel, delivered
 *   here at once and skipped on echo like events, in chunks that fit the wire's bounds. One that
 *   cannot be published ends the listen streams here (the others may stop counting them), at
 *   most once per heartbeat.
 *
 * @example
 * const bus = await RedisBus.connect({ url: 'redis://127.0.0.1:6379' });
 * const server = createServer({ name: 'docs', version: '1.0.0', bus });
 */
export class RedisBus implements ChangeBus {
  /** This instance's id on the bus (random), as its messages carry it. */
  readonly instanceId = randomUUID();
  /** Other instances share this bus: servers on it announce their listeners' interest. */
  readonly shared = true;
  private readonly events = new Emitter<ChangeEvent>((error) =>
    this.log(`mcpkit: a change-bus subscriber threw: ${String(error)}`),
  );
  private readonly interest = new Emitter<InterestMessage>((error) =>
    this.log(`mcpkit: a change-bus interest subscriber threw: ${String(error)}`),
  );
  private readonly gaps = new Emitter<string>((error) =>
    this.log(`mcpkit: a change-bus gap handler threw: ${String(error)}`),
  );
  private readonly where: string;
  private readonly log: (line: string) => void;
  private up = true;
  private closed = false;
  private heartbeat: NodeJS.Timeout | undefined;
  private lastError: unknown;
  /** Why the others must be told of a gap, while this instance owes them that notice. */
  private owedGap: string | undefined;
  /** Failed publishes so far: one during a notice's flight (same text or not) is owed its own. */
  private failures = 0;
  private noticeAttempts = 0;
  private noticeTimer: NodeJS.Timeout | undefined;
  /** A gap notice is on its way: each one ends the others' streams, so one at a time. */
  private noticeSending = false;
  private invalidLogged = 0;
  private tooLongLogged = false;
  private interestGapAt = Number.NEGATIVE_INFINITY;
  private readonly onPublisherReady = (): void => void this.sendGapNotice();

  /** Connects (publisher, then subscriber) and subscribes; throws a one-line McpKitError if Redis is unreachable. */
  static async connect(options: RedisBusOptions): Promise<RedisBus> {
    const keys = redisKeys(options.prefix);
    const heartbeatMs = Math.max(10, options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS);
    const publisher =
      options.publisher ?? (await openRedis({ name: 'mcpkit-bus', ...options }, {}));
    let subscriber: Redis | undefined;
    try {
      // The subscriber's commands are the PINGs: their timeout is the heartbeat's.
      const commandTimeoutMs = Math.min(options.commandTimeoutMs ?? heartbeatMs, heartbeatMs);
      subscriber = await openRedis(
        { ...options, name: 'mcpkit-bus-subscriber', commandTimeoutMs },
        { autoResubscribe: false },
      );
      await subscriber.subscribe(keys.events);
    } catch (error) {
      if (subscriber) await closeRedis(subscriber);
      if (!options.publisher) await closeRedis(publisher);
      throw error;
    }
    return new RedisBus(publisher, subscriber, options, keys, heartbeatMs);
  }

  private constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly options: RedisBusOptions,
    private readonly keys: RedisKeys,
    private readonly heartbeatMs: number,
  ) {
    this.where = redactRedisUrl(options.url);
    this.log = options.onLog ?? ((line) => console.warn(line));
    subscriber.on('message', (channel: string, text: string) => {
      if (channel === keys.events) this.receive(text);
    });
    subscriber.on('error', (error: unknown) => (this.lastError = error));
    subscriber.on('close', () => this.down());
    subscriber.on('ready', () => void this.resubscribe());
    publisher.on('ready', this.onPublisherReady);
    this.beat();
  }

  /** Whether the bus can both hear and publish: subscribed, and its publishing connection up. */
  get connected(): boolean {
    return this.up && !this.closed && this.publisher.status === 'ready';
  }

  publish(event: ChangeEvent): void {
    this.events.emit(event);
    if (this.closed) return;
    if (this.owedGap !== undefined) void this.sendGapNotice();
    const text = encodeBusMessage({ from: this.instanceId, event });
    this.publisher.publish(this.keys.events, text).catch((error: unknown) => {
      this.publishFailed(error);
    });
  }

  subscribe(handler: (event: ChangeEvent) => void): () => void {
    return this.events.on(handler);
  }

  publishInterest(message: InterestMessage): void {
    this.interest.emit(message);
    if (this.closed) return;
    const { chunks, dropped } = chunkInterest(message);
    if (dropped > 0 && !this.tooLongLogged) {
      this.tooLongLogged = true;
      this.log(
        `mcpkit: ${dropped} listened-to URI(s) are too long to announce on ${this.keys.events}; other instances will not watch them for listeners here`,
      );
    }
    for (const chunk of chunks) {
      const text = encodeBusMessage({ from: this.instanceId, interest: chunk });
      this.publisher.publish(this.keys.events, text).catch((error: unknown) => {
        this.interestFailed(error);
      });
    }
  }

  subscribeInterest(handler: (message: InterestMessage) => void): () => void {
    return this.interest.on(handler);
  }

  onGap(handler: (why: string) => void): () => void {
    return this.gaps.on(handler);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.heartbeat);
    clearTimeout(this.noticeTimer);
    this.events.clear();
    this.interest.clear();
    this.gaps.clear();
    this.publisher.off('ready', this.onPublisherReady);
    await closeRedis(this.subscriber);
    if (!this.options.publisher) await closeRedis(this.publisher);
  }

  private receive(text: string): void {
    const message = decodeBusMessage(text);
    if (message === undefined) {
      // Anyone who can write to Redis can publish here: say so a few times, then stay quiet.
      if (this.invalidLogged++ < 5)
        this.log(`mcpkit: ignored a message on ${this.keys.events} that mcpkit did not publish`);
      return;
    }
    if (message.from === this.instanceId) return;
    if (message.gap !== undefined)
      this.gaps.emit(`another instance missed publishing: ${shownGap(message.gap)}`);
    else if (message.interest !== undefined) this.interest.emit(message.interest);
    else this.events.emit(message.event);
  }

  private down(): void {
    if (this.closed || !this.up) return;
    this.up = false;
    clearTimeout(this.heartbeat);
    const why =
      this.lastError === undefined ? '' : ` (${errorText(this.lastError, this.options.url)})`;
    this.gaps.emit(
      `the connection to Redis at ${this.where} dropped${why}: events may have been missed`,
    );
  }

  private async resubscribe(): Promise<void> {
    if (this.closed) return;
    try {
      await this.subscriber.subscribe(this.keys.events);
    } catch (error) {
      this.log(
        `mcpkit: could not subscribe to ${this.keys.events} again (${errorText(error, this.options.url)}); retrying`,
      );
      this.subscriber.disconnect(true);
      return;
    }
    if (this.closed || this.up) return;
    this.up = true;
    this.lastError = undefined;
    this.beat();
    this.gaps.emit(
      `reconnected to Redis at ${this.where}: events published while it was unreachable were missed`,
    );
  }

  /** PINGs the subscriber connection; no answer in time drops it, and the reconnect follows. */
  private beat(): void {
    clearTimeout(this.heartbeat);
    this.heartbeat = setTimeout(() => {
      this.subscriber.ping().then(
        () => {
          if (this.up && !this.closed) this.beat();
        },
        (error: unknown) => {
          if (!this.up || this.closed) return;
          this.lastError = error;
          this.subscriber.disconnect(true);
        },
      );
    }, this.heartbeatMs);
    this.heartbeat.unref();
  }

  /**
   * Other instances may stop counting this one's listeners (their interest expires): changes they
   * would have announced only for a listener may be missed, so the listen streams here end
   * (clients listen again and re-read). At most once per heartbeat while it keeps failing.
   */
  private interestFailed(error: unknown): void {
    if (this.closed) return;
    const now = performance.now();
    if (now - this.interestGapAt < this.heartbeatMs) return;
    this.interestGapAt = now;
    this.gaps.emit(
      `could not announce listener interest to Redis at ${this.where} (${errorText(error, this.options.url)}): changes may have been missed`,
    );
  }

  private publishFailed(error: unknown): void {
    if (this.closed) return;
    if (this.owedGap === undefined) {
      this.log(
        `mcpkit: could not publish a change to Redis at ${this.where} (${errorText(error, this.options.url)}); the other instances will end their listen streams once it answers`,
      );
    }
    this.owedGap = `instance ${this.instanceId} could not publish a change (${errorText(error, this.options.url)})`;
    this.failures++;
    this.scheduleGapNotice();
  }

  private scheduleGapNotice(): void {
    if (this.noticeTimer !== undefined || this.closed) return;
    this.noticeTimer = setTimeout(
      () => {
        this.noticeTimer = undefined;
        void this.sendGapNotice();
      },
      backoffDelay(++this.noticeAttempts, this.options.backoff),
    );
    this.noticeTimer.unref();
  }

  /** Tells the other instances that some of this one's events never reached them. */
  private async sendGapNotice(): Promise<void> {
    const why = this.owedGap;
    const failures = this.failures;
    if (why === undefined || this.closed || this.noticeSending) return;
    this.noticeSending = true;
    try {
      await this.publisher.publish(
        this.keys.events,
        encodeBusMessage({ from: this.instanceId, gap: why }),
      );
    } catch {
      this.noticeSending = false;
      this.scheduleGapNotice();
      return;
    }
    this.noticeSending = false;
    this.noticeAttempts = 0;
    if (this.failures === failures) this.owedGap = undefined;
    // A change failed again while this one was on its way: that one is owed a notice of its own.
    else this.scheduleGapNotice();
  }
}
