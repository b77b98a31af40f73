import { Emitter } from '../protocol/emitter.js';

/**
 * How change events travel between the instances of one server: memory for one process (the
 * default), a shared bus (mcpkit/redis) when scaled out. `notifyResourceUpdated` and
 * `notifyListChanged` publish; every instance delivers what the bus carries to its own listeners,
 * its own events included, so each reaches a listener exactly once.
 */
export type ChangeEvent =
  | { type: 'resource-updated'; uri: string }
  | { type: 'list-changed'; list: 'tools' | 'prompts' | 'resources' };

/**
 * Which URIs the listeners of one server instance name, as it tells the others on a shared bus,
 * so that a listener on any instance counts (a provider watches what someone listens to
 * anywhere). `from` is the sending server's id. `attach` and `refresh` both mean "still listened
 * to here": each URI counts for `3 * everyMs` unless refreshed (an instance that died stops
 * counting); `detach` ends that at once; `query` asks every instance to refresh now.
 * Best-effort: a lost one is made up for by the next refresh or by expiry.
 */
export type InterestMessage =
  | { type: 'attach' | 'refresh'; from: string; uris: readonly string[]; everyMs: number }
  | { type: 'detach'; from: string; uris: readonly string[] }
  | { type: 'query'; from: string };

export interface ChangeBus {
  /**
   * Whether other instances share this bus (default false): then each server announces what its
   * listeners name (`publishInterest`), and a listener on any instance counts. A private bus
   * pays nothing for it.
   */
  readonly shared?: boolean;
  /**
   * Sends interest to every instance, this one included (each server skips its own by `from`).
   * A shared bus that fails to send one raises a gap here (the others may stop counting this
   * instance's listeners), spaced so that a retry cannot loop.
   */
  publishInterest?(message: InterestMessage): void;
  /** Every interest message on the bus, this instance's own included. */
  subscribeInterest?(handler: (message: InterestMessage) => void): () => void;
  /**
   * Sends an event to every instance on the bus, this one included: at once in memory, a little
   * later through a shared bus.
   */
  publish(event: ChangeEvent): void;
  /** Every event published on the bus by any instance, this one's own included. */
  subscribe(handler: (event: ChangeEvent) => void): () => void;
  /**
   * Called when events may have been lost (the connection to a shared bus dropped): the server
   * ends its open listen streams so that clients listen again and re-read.
   */
  onGap(handler: (why: string) => void): () => void;
  close(): Promise<void>;
}

export interface MemoryBusOptions {
  /**
   * Several servers in this process share the bus and tell each other what their listeners name,
   * as instances on a Redis bus do (default false: one server, no interest messages).
   */
  shared?: boolean;
}

/** One process: what is published reaches this process's subscribers at once, in order. */
export class MemoryBus implements ChangeBus {
  readonly shared: boolean;
  private readonly events = new Emitter<ChangeEvent>((error) =>
    console.warn(`mcpkit: a change-bus subscriber threw: ${String(error)}`),
  );
  private readonly interest = new Emitter<InterestMessage>((error) =>
    console.warn(`mcpkit: a change-bus interest subscriber threw: ${String(error)}`),
  );
  private readonly gaps = new Emitter<string>((error) =>
    console.warn(`mcpkit: a change-bus gap handler threw: ${String(error)}`),
  );

  constructor(options: MemoryBusOptions = {}) {
    this.shared = options.shared === true;
  }

  publish(event: ChangeEvent): void {
    this.events.emit(event);
  }

  subscribe(handler: (event: ChangeEvent) => void): () => void {
    return this.events.on(handler);
  }

  publishInterest(message: InterestMessage): void {
    this.interest.emit(message);
  }

  subscribeInterest(handler: (message: InterestMessage) => void): () => void {
    return this.interest.on(handler);
  }

  onGap(handler: (why: string) => void): () => void {
    return this.gaps.on(handler);
  }

  /** For embedders: tells the gap handlers that events may have been lost. */
  gap(why: string): void {
    this.gaps.emit(why);
  }

  async close(): Promise<void> {
    this.events.clear();
    this.interest.clear();
    this.gaps.clear();
  }
}
