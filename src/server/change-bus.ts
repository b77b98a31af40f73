/**
 * How change events travel between the instances of one server: memory for one process (the
 * default), a shared bus (mcpkit/redis) when scaled out. `notifyResourceUpdated` and
 * `notifyListChanged` publish; every instance delivers what the bus carries to its own listeners,
 * its own events included, so each reaches a listener exactly once.
 */
export type ChangeEvent =
  | { type: 'resource-updated'; uri: string }
  | { type: 'list-changed'; list: 'tools' | 'prompts' | 'resources' };

export interface ChangeBus {
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

/** One process: what is published reaches this process's subscribers at once, in order. */
export class MemoryBus implements ChangeBus {
  private readonly handlers = new Set<(event: ChangeEvent) => void>();
  private readonly gaps = new Set<(why: string) => void>();

  publish(event: ChangeEvent): void {
    for (const handler of this.handlers) {
      try {
        handler(event);
      } catch (error) {
        console.warn(`mcpkit: a change-bus subscriber threw: ${String(error)}`);
      }
    }
  }

  subscribe(handler: (event: ChangeEvent) => void): () => void {
    this.handlers.add(handler);
    return () => void this.handlers.delete(handler);
  }

  onGap(handler: (why: string) => void): () => void {
    this.gaps.add(handler);
    return () => void this.gaps.delete(handler);
  }

  /** For tests and embedders: tells the gap handlers that events may have been lost. */
  gap(why: string): void {
    for (const handler of this.gaps) {
      try {
        handler(why);
      } catch (error) {
        console.warn(`mcpkit: a change-bus gap handler threw: ${String(error)}`);
      }
    }
  }

  async close(): Promise<void> {
    this.handlers.clear();
    this.gaps.clear();
  }
}
