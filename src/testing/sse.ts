// Test support only: not part of the mcpkit package (excluded from the build and not published).
/** Reading Server-Sent Events from a web ReadableStream (fetch or web-handler responses) in tests. */

export interface SseEvent {
  event: string | undefined;
  /** The `data:` lines parsed as JSON; undefined for a comment-only block. */
  data: unknown;
  /** Comment lines (`: …`) of the block, without the colon. */
  comments: string[];
}

/** Rejects with a clear message when `promise` takes longer than `ms` (a hang guard, not a timing assertion). */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Polls `check` until it is true (a hang guard fails the test after `ms`). */
export async function until(check: () => boolean, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

function parseBlock(block: string): SseEvent {
  let event: string | undefined;
  const data: string[] = [];
  const comments: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) comments.push(line.slice(1).trim());
    else if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  return { event, data: data.length ? JSON.parse(data.join('\n')) : undefined, comments };
}

/** Pulls SSE blocks off a byte stream one at a time. */
export class SseReader {
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();
  private buffer = '';

  constructor(body: ReadableStream<Uint8Array> | null) {
    if (!body) throw new Error('the response has no body');
    this.reader = body.getReader();
  }

  /** The next block (comments included), or undefined when the stream ended. */
  async nextBlock(ms = 5000): Promise<SseEvent | undefined> {
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end >= 0) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        return parseBlock(block);
      }
      const { done, value } = await withTimeout(this.reader.read(), ms, 'the next SSE event');
      if (done) {
        if (this.buffer.trim() !== '')
          throw new Error(`SSE stream ended inside an event: ${JSON.stringify(this.buffer)}`);
        return undefined;
      }
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  /** The next JSON-RPC message (comment-only blocks skipped), or undefined when the stream ended. */
  async next(ms = 5000): Promise<Record<string, unknown> | undefined> {
    for (;;) {
      const block = await this.nextBlock(ms);
      if (!block) return undefined;
      if (block.data !== undefined) return block.data as Record<string, unknown>;
    }
  }

  /** Every remaining JSON-RPC message until the stream ends. */
  async rest(ms = 5000): Promise<Record<string, unknown>[]> {
    const out: Record<string, unknown>[] = [];
    for (let m = await this.next(ms); m; m = await this.next(ms)) out.push(m);
    return out;
  }

  async cancel(): Promise<void> {
    await this.reader.cancel().catch(() => undefined);
  }
}

/** A 2026-07-28 POST of `message` (its method in `Mcp-Method`) to a web handler, asking for SSE. */
export function modernPost(message: { method: string }, url = 'http://127.0.0.1/mcp'): Request {
  return new Request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': message.method,
    },
    body: JSON.stringify(message),
  });
}
