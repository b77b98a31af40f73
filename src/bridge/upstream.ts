/**
 * The bridge's upstream: one `McpClient`, restarted when its connection is lost (a stdio server
 * that exited): at once the first time, with backoff only after repeated failures.
 */
import { McpClient, type McpClientOptions } from '../client/index.js';
import { McpKitError } from '../errors/index.js';
import { MAX_TIMER_MS } from './parked-call.js';
import { WatchedTransport } from './watched-transport.js';

/** Restarts in a row that go without backoff; after them each waits twice as long as the last. */
const FREE_RESTARTS = 2;
const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 30_000;
/** A connection that stayed up this long resets the failure count. */
const STABLE_MS = 10_000;

export interface UpstreamOptions extends Omit<McpClientOptions, 'transport'> {
  transport: McpClientOptions['transport'];
  /** After each successful restart (the bridge re-lists and tells the host). */
  onRestarted?: () => void;
  /** A line for the person running the bridge (stderr). */
  onLog?: (line: string) => void;
}

export class Upstream {
  readonly client: McpClient;
  private restarting: Promise<void> | undefined;
  private failures = 0;
  private connectedAt = 0;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Callers waiting for a loss the transport is about to report (see `send`). */
  private lossWaiters: Array<() => void> = [];

  constructor(private readonly options: UpstreamOptions) {
    const { onRestarted: _r, onLog: _l, transport, ...rest } = options;
    this.client = new McpClient({
      ...rest,
      transport: new WatchedTransport(transport, (error) => this.lost(error)),
    });
  }

  async connect(): Promise<McpClient> {
    await this.client.connect();
    this.connectedAt = Date.now();
    return this.client;
  }

  /**
   * The client, once connected: waits for a restart under way, within `timeoutMs`; fails with a
   * message naming the upstream's state otherwise.
   */
  async ready(timeoutMs: number): Promise<McpClient> {
    if (this.client.connected) return this.client;
    if (this.closed) throw new McpKitError('PEER_CLOSED', 'the bridge is closing');
    const restarting = this.restarting ?? this.restart();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new McpKitError(
              'REQUEST_TIMEOUT',
              `the upstream server is restarting and was not back within ${timeoutMs} ms`,
            ),
          ),
        Math.min(timeoutMs, MAX_TIMER_MS),
      );
    });
    try {
      await Promise.race([restarting, late]);
    } finally {
      clearTimeout(timer);
    }
    if (!this.client.connected)
      throw new McpKitError('PEER_CLOSED', 'the upstream server is not running (restart failed)');
    return this.client;
  }

  /**
   * Runs `request` on the connected client. A request that was never sent because the connection
   * is ending (NOT_CONNECTED: e.g. an over-limit answer ended it and the server is being stopped)
   * is sent again, once, when the upstream is back within `timeoutMs`: the host's next call
   * waits for the restart instead of failing.
   */
  async send<T>(timeoutMs: number, request: (client: McpClient) => Promise<T>): Promise<T> {
    const client = await this.ready(timeoutMs);
    try {
      return await request(client);
    } catch (error) {
      if (!(error instanceof McpKitError) || error.code !== 'NOT_CONNECTED' || this.closed)
        throw error;
      await this.lossNoticed(timeoutMs);
      return request(await this.ready(timeoutMs));
    }
  }

  /** Resolves once the connection's loss is known (a restart under way), or after `timeoutMs`. */
  private lossNoticed(timeoutMs: number): Promise<void> {
    if (!this.client.connected || this.restarting) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(timeoutMs, MAX_TIMER_MS));
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.lossWaiters.push(done);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    for (const wake of this.lossWaiters.splice(0)) wake();
    await this.client.close();
  }

  private lost(error: McpKitError): void {
    if (this.closed) return;
    this.options.onLog?.(
      `mcpkit bridge: the upstream server stopped (${error.message}); restarting it`,
    );
    void this.restart();
    const waiters = this.lossWaiters;
    this.lossWaiters = [];
    for (const wake of waiters) wake();
  }

  private restart(): Promise<void> {
    this.restarting ??= this.attempt().finally(() => {
      this.restarting = undefined;
    });
    return this.restarting;
  }

  private async attempt(): Promise<void> {
    if (this.closed) return;
    if (this.connectedAt > 0 && Date.now() - this.connectedAt > STABLE_MS) this.failures = 0;
    if (this.failures >= FREE_RESTARTS) {
      const wait = Math.min(
        MAX_BACKOFF_MS,
        FIRST_BACKOFF_MS * 2 ** (this.failures - FREE_RESTARTS),
      );
      await new Promise<void>((resolve) => {
        this.timer = setTimeout(resolve, wait);
        this.timer.unref?.();
      });
      if (this.closed) return;
    }
    this.failures++;
    try {
      await this.client.reconnect();
      this.connectedAt = Date.now();
      this.options.onLog?.('mcpkit bridge: the upstream server is running again');
      this.options.onRestarted?.();
    } catch (error) {
      // The bridge closed meanwhile: not a failure worth a line.
      if (this.closed) return;
      this.options.onLog?.(
        `mcpkit bridge: restarting the upstream server failed: ${(error as Error).message}`,
      );
      // The next request (or loss) tries again, after the backoff.
    }
  }
}
