import type { McpServer } from '../../../server/index.js';
import type { HttpExchange, HttpResponder, SseSink } from './exchange.js';
import { bodyPlan, partPieces } from './exchange.js';
import { HttpEndpoint } from './endpoint.js';
import type { HttpOptions } from './options.js';
import type { StreamedChunk } from '../../../content/streamed-body.js';
import type { MessagePart } from '../../../content/encode-message.js';
import { DROPPED_SINK } from './sse.js';
import { readWebBody } from './web-body.js';

/** Bytes an SSE body holds for its reader before it reports congestion (as node's default). */
const SSE_HIGH_WATER_BYTES = 16 * 1024;

const encoder = new TextEncoder();

/**
 * An SSE body and its sink. Backpressure is the stream's: congested while its queue holds the
 * high-water mark (desiredSize <= 0), drained when the reader pulls again.
 */
function webSseStream(onCancel: () => void): { body: ReadableStream<Uint8Array>; sink: SseSink } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let open = true;
  let drainers: Array<() => void> | undefined;
  let unpark: (() => void) | undefined;
  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => {
        controller = c;
      },
      // Parked (left pending) while nobody waits for a drain: the stream then calls pull no more,
      // so a reading client costs no promise per chunk. A congested write unparks it, and the
      // next pull, once the reader made room, is the drain.
      pull: () => {
        const waiting = drainers;
        if (!waiting) return new Promise<void>((resolve) => (unpark = resolve));
        drainers = undefined;
        // A later turn, never inside pull: a stream draining in rounds lets other work in.
        setTimeout(() => {
          for (const cb of waiting) cb();
        }, 0);
        return undefined;
      },
      cancel: () => {
        shut();
        onCancel();
      },
    },
    { highWaterMark: SSE_HIGH_WATER_BYTES, size: (chunk) => chunk.byteLength },
  );
  const shut = (): boolean => {
    const was = open;
    open = false;
    drainers = undefined;
    return was;
  };
  const congested = (): boolean => open && (controller.desiredSize ?? 1) <= 0;
  const sink: SseSink = {
    write: (chunk) => {
      if (!open) return true;
      // Shared bytes are enqueued as they are: a default stream never transfers its chunks.
      controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      return !congested();
    },
    end: () => {
      if (shut()) controller.close();
    },
    abort: () => {
      if (shut()) controller.error(new Error('mcpkit: the message could not be finished'));
    },
    get congested() {
      return congested();
    },
    get bufferedBytes() {
      return open ? SSE_HIGH_WATER_BYTES - (controller.desiredSize ?? SSE_HIGH_WATER_BYTES) : 0;
    },
    onDrain: (cb) => {
      if (!congested()) return void setTimeout(cb, 0);
      (drainers ??= []).push(cb);
      const wake = unpark;
      unpark = undefined;
      wake?.();
    },
  };
  return { body, sink };
}

/**
 * A JSON response body: one text part as it is; several as a stream, one chunk per pull, its exact
 * length in `headers`. A streamed part that fails errors the body (short of its Content-Length),
 * reported once; a cancelled body stops its iteration, which closes the source.
 */
function responseBody(
  parts: string | readonly MessagePart[] | undefined,
  headers: Record<string, string>,
): string | Uint8Array | ReadableStream<Uint8Array> | undefined {
  if (typeof parts === 'string' || parts === undefined) return parts;
  if (parts.length === 1 && typeof parts[0] === 'string') return parts[0];
  const chunks = parts.map((part) => (typeof part === 'string' ? encoder.encode(part) : part));
  const { bytes, joined } = bodyPlan(chunks);
  headers['content-length'] = String(bytes);
  // A small answer in parts (one encoded once, its bytes shared) is joined into a copy of its
  // own: cheaper than a stream, and no runtime can take the shared bytes from other answers.
  if (joined) {
    const body = new Uint8Array(bytes);
    let at = 0;
    for (const chunk of chunks as Uint8Array[]) {
      body.set(chunk, at);
      at += chunk.byteLength;
    }
    return body;
  }
  // Larger, the parts are streamed, never joined into one more copy.
  const pieces = partPieces(chunks);
  return new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        let step: IteratorResult<StreamedChunk, void>;
        try {
          step = await pieces.next();
        } catch (error) {
          console.error(`mcpkit: cut a streamed answer mid-body: ${(error as Error).message}`);
          return controller.error(error);
        }
        if (step.done) return controller.close();
        controller.enqueue(
          typeof step.value === 'string' ? encoder.encode(step.value) : step.value,
        );
      },
      cancel: async () => {
        await pieces.return();
      },
    },
    { highWaterMark: 0 },
  );
}

export interface WebHandler {
  (request: Request): Promise<Response>;
  /** Closes legacy sessions and open streams. */
  close(): void;
  /** Bytes held now by request bodies being read (at most maxBodyTotalBytes). */
  readonly bufferedBodyBytes: number;
}

/**
 * A web-standard Streamable HTTP handler: `(Request) => Promise<Response>`, for any runtime
 * with fetch APIs (Node, Deno, Bun, workers).
 *
 * @example
 * const handle = createHttpHandler(server);
 * Deno.serve({ hostname: '127.0.0.1', port: 3333 }, handle);
 */
export function createHttpHandler(server: McpServer, options: HttpOptions = {}): WebHandler {
  const endpoint = new HttpEndpoint(server, options);
  const handler = (request: Request): Promise<Response> =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(request.url);
      // The client going away (request.signal) or the response body being cancelled both cancel.
      // Made on first use only, like the rest of the cancellation path.
      let gone: AbortController | undefined;
      let cancelled = false;
      const ex: HttpExchange = {
        method: request.method,
        path: url.pathname,
        ...(url.search !== '' ? { query: url.search.slice(1) } : {}),
        // A Request built by hand may lack Host: its URL's host is what the runtime took from it.
        header: (name) => request.headers.get(name) ?? (name === 'host' ? url.host : undefined),
        body: (limits) => readWebBody(request, limits),
        get signal() {
          if (!gone) {
            const c = new AbortController();
            gone = c;
            if (cancelled || request.signal.aborted) c.abort();
            else request.signal.addEventListener('abort', () => c.abort(), { once: true });
          }
          return gone.signal;
        },
      };
      // Only the first send() or stream() answers; later ones (a bug upstream) are ignored.
      let responded = false;
      const res: HttpResponder = {
        send: (status, headers, parts, done) => {
          // The runtime writes the Response: what it holds is its own to bound.
          done?.();
          if (responded) return;
          responded = true;
          const body = status === 202 ? undefined : responseBody(parts, headers);
          resolve(new Response(body ?? null, { status, headers }));
        },
        stream: (status, headers): SseSink => {
          if (responded) return DROPPED_SINK;
          responded = true;
          const { body, sink } = webSseStream(() => {
            cancelled = true;
            gone?.abort();
          });
          resolve(new Response(body, { status, headers }));
          return sink;
        },
      };
      endpoint.handle(ex, res).catch((error: unknown) => {
        if (responded) {
          console.error('mcpkit: HTTP handler failed', error);
          return;
        }
        reject(error);
      });
    });
  const web = Object.assign(handler, { close: () => endpoint.close() });
  Object.defineProperty(web, 'bufferedBodyBytes', { get: () => endpoint.bufferedBodyBytes });
  return web as WebHandler;
}
