import type { McpServer } from '../../server/index.js';
import type { HttpExchange, HttpResponder, SseSink } from './exchange.js';
import { HttpEndpoint } from './endpoint.js';
import type { HttpOptions } from './options.js';

const utf8 = new TextDecoder();

async function readLimited(request: Request, limit: number): Promise<string | 'too-large'> {
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) return 'too-large';
  if (!request.body) return '';
  const reader = request.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > limit) {
      await reader.cancel();
      return 'too-large';
    }
    parts.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return utf8.decode(out);
}

export interface WebHandler {
  (request: Request): Promise<Response>;
  /** Closes legacy sessions and open streams. */
  close(): void;
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
  const encoder = new TextEncoder();
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
        header: (name) => request.headers.get(name) ?? undefined,
        body: (limit) => readLimited(request, limit),
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
        send: (status, headers, parts) => {
          if (responded) return;
          responded = true;
          const body = typeof parts === 'string' || parts === undefined ? parts : parts.join('');
          resolve(
            new Response(status === 202 || body === undefined ? null : body, { status, headers }),
          );
        },
        stream: (status, headers): SseSink => {
          if (responded) return { write: () => undefined, end: () => undefined };
          responded = true;
          let controller!: ReadableStreamDefaultController<Uint8Array>;
          let open = true;
          const stream = new ReadableStream<Uint8Array>({
            start: (c) => {
              controller = c;
            },
            cancel: () => {
              open = false;
              cancelled = true;
              gone?.abort();
            },
          });
          resolve(new Response(stream, { status, headers }));
          return {
            write: (chunk) => {
              if (open) controller.enqueue(encoder.encode(chunk));
            },
            end: () => {
              if (!open) return;
              open = false;
              controller.close();
            },
          };
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
  return Object.assign(handler, { close: () => endpoint.close() });
}
