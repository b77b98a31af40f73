/**
 * Reads in flight, by cache key: concurrent misses of one file version share one read (and one
 * encoding) instead of each reading and encoding the file again.
 */
import { KeyTable } from '../../protocol/key-table.js';

/** One shared read, with the allowance it was started with. */
export interface Flight<T> {
  /** Most wire bytes the read may produce (its starter's limit). */
  readonly limitBytes: number;
  /** Most raw bytes the read may take (its starter's maxSize). */
  readonly maxSize: number;
  /** Settles once the read did; the flight has left the table by then. */
  readonly outcome: Promise<T>;
}

export class ReadFlights<T> {
  private readonly flights = new KeyTable<Flight<T>>();

  /**
   * The flight for `key`: the one in the air, else a new one running `read`. A flight leaves
   * the table when it settles, fulfilled or rejected, before any waiter sees its outcome.
   */
  join(key: string, limitBytes: number, maxSize: number, read: () => Promise<T>): Flight<T> {
    const current = this.flights.get(key);
    if (current) return current;
    const flight: Flight<T> = {
      limitBytes,
      maxSize,
      outcome: Promise.resolve()
        .then(read)
        .finally(() => {
          if (this.flights.get(key) === flight) this.flights.delete(key);
        }),
    };
    this.flights.set(key, flight);
    return flight;
  }
}
