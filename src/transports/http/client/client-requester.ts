/**
 * The seam between the HTTP client transport and the HTTP stack under it: one request, its
 * status and headers, its body as chunks. Two implementations: web `fetch` (here, any runtime)
 * and `node:http` with a keep-alive agent (node-requester.ts, Node only, several times cheaper).
 */

import type { Abort } from './client-abort.js';
import { Slots } from './client-slots.js';

export interface HttpRequest {
  readonly method: 'POST' | 'GET' | 'DELETE';
  readonly url: URL;
  /** Lowercase names, values as sent. */
  readonly headers: Record<string, string>;
  readonly body?: string;
  /** Aborting it rejects the request (or the body's next read) with its reason, socket closed. */
  readonly signal: Abort;
}

/** An answer whose headers came; its body is read once: by `read` calls or one `readText`. */
export interface HttpAnswer {
  /** The status; 0 for fetch's opaque redirect (a browser's `redirect: 'manual'`). */
  readonly status: number;
  readonly statusText: string;
  /** One header by lowercase name, repeated values joined with `, `; null when absent. */
  header(name: string): string | null;
  /** The next chunk of the body; undefined at its end. Rejects when the connection broke. */
  read(): Promise<Uint8Array | undefined>;
  /**
   * The whole body as UTF-8 text (a BOM dropped), read in one go; undefined once it passed
   * `cap` bytes (reading stopped there and the body was cancelled). Rejects when it broke off.
   */
  readText(cap: number): Promise<string | undefined>;
  /** Drops the rest of the body: an unfinished one closes its connection. Never rejects. */
  cancel(): Promise<void>;
}

export interface HttpRequester {
  /** Resolves once the status and headers came; rejects on a network failure or an abort. */
  request(request: HttpRequest): Promise<HttpAnswer>;
  /** Lets go of idle connections (the transport closed); a later request opens new ones. */
  close(): void;
}

/** Requests through a web `fetch` (`globalThis.fetch` or the one the user passed). */
export class FetchRequester implements HttpRequester {
  private readonly slots: Slots;

  /** @param options.maxSockets requests at once, body included (16); more wait their turn. */
  constructor(
    private readonly fetchFn: typeof globalThis.fetch,
    options: { maxSockets?: number } = {},
  ) {
    this.slots = new Slots(options.maxSockets ?? 16);
  }

  async request(request: HttpRequest): Promise<HttpAnswer> {
    const abort = request.signal;
    if (abort.aborted) throw abort.reason;
    const release = await this.slots.acquire(abort);
    // Aborted as the slot was handed over (a close aborts every request in one go): `listen`
    // below would never call back, and the request would go out unabortable, holding the slot.
    if (abort.aborted) {
      release();
      throw abort.reason;
    }
    const controller = new AbortController();
    // Kept for the body's whole life (aborting stops its reading too), and no longer: one
    // Abort can serve many requests (a session's GET stream, reopened), each adding one.
    const unlisten = abort.listen(() => {
      controller.abort(abort.reason);
      release();
    });
    const off = (): void => {
      unlisten();
      release();
    };
    const init: RequestInit = {
      method: request.method,
      headers: request.headers,
      signal: controller.signal,
      redirect: 'manual',
    };
    if (request.body !== undefined) init.body = request.body;
    try {
      return new FetchAnswer(await this.fetchFn(request.url, init), off);
    } catch (error) {
      off();
      throw error;
    }
  }

  close(): void {
    // fetch keeps its own pool.
  }
}

class FetchAnswer implements HttpAnswer {
  readonly status: number;
  readonly statusText: string;
  private reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  constructor(
    private readonly response: Response,
    /** Unsubscribes the request's abort: called once the body ended or was dropped. */
    private readonly done: () => void,
  ) {
    this.status = response.type === 'opaqueredirect' ? 0 : response.status;
    this.statusText = response.statusText;
    if (!response.body) done();
  }

  header(name: string): string | null {
    return this.response.headers.get(name);
  }

  async read(): Promise<Uint8Array | undefined> {
    const body = this.response.body;
    if (!body) return undefined;
    this.reader ??= body.getReader();
    let next: Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;
    try {
      next = await this.reader.read();
    } catch (error) {
      // A body that broke off holds no connection: its slot is free.
      this.done();
      throw error;
    }
    if (!next.done) return next.value;
    this.done();
    return undefined;
  }

  async readText(cap: number): Promise<string | undefined> {
    // A declared length is enforced by fetch itself: such a body is read whole, in one call
    // (unless compressed: the length is then the compressed one, not what is decoded).
    const headers = this.response.headers;
    const declared = Number(headers.get('content-length') ?? Number.NaN);
    if (declared <= cap && headers.get('content-encoding') === null)
      return this.response.text().finally(this.done);
    const decoder = new TextDecoder();
    let text = '';
    let total = 0;
    for (;;) {
      const chunk = await this.read();
      if (chunk === undefined) return text + decoder.decode();
      total += chunk.length;
      if (total > cap) {
        await this.cancel();
        return undefined;
      }
      text += decoder.decode(chunk, { stream: true });
    }
  }

  async cancel(): Promise<void> {
    this.done();
    const done = this.reader ? this.reader.cancel() : this.response.body?.cancel();
    await done?.catch(() => undefined);
  }
}
