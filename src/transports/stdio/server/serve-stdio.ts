import type { Readable, Writable } from 'node:stream';
import { ERROR_CODES } from '../../../protocol/error-codes.js';
import {
  cancelledIdOf,
  errorResponse,
  isRequestId,
  type JSONRPCMessage,
  type RequestId,
} from '../../../protocol/jsonrpc.js';
import type { McpServer } from '../../../server/index.js';
import type { AnswerLease } from '../../../server/transport.js';
import { LineDecoder, type LineEvent } from '../line-decoder.js';
import { OutputQueue } from './output-queue.js';
import { integerOption } from '../../integer-option.js';
import { WaitingRequests } from './waiting-requests.js';
import { stdioListenFlow } from './listen-flow.js';
import { partBytes } from '../../../content/encode-message.js';
import { encodeForSend, failUnsent, MIN_RESPONSE_BYTES } from '../../oversize.js';

export interface StdioOptions {
  /**
   * Inbound: the longest line accepted from the client, in bytes (default 32 MiB); longer lines
   * are discarded as they stream in and answered with an error. It protects this process.
   */
  maxLineBytes?: number;
  /**
   * Outbound: the longest line sent, newline included (default 10,485,760: the official SDK
   * client's read buffer, past which it drops the connection). It models the receiver: results
   * are assembled under it less one pipe read ({@link READ_MARGIN_BYTES}) and the envelope, and
   * a response that would not fit becomes a clear -32603 error. At least 4096.
   */
  maxResponseBytes?: number;
  /**
   * Requests handled at once (default 64; open `subscriptions/listen` streams do not count).
   * Further requests wait, read but not started; responses and notifications (cancellations)
   * are still taken at once.
   */
  maxInFlight?: number;
  /**
   * High-water mark in bytes of each of two queues (default 16 MiB): answers stdout has not
   * taken yet, and requests read but waiting for `maxInFlight` (a long one counted at its
   * length; one of up to 4,096 characters waits parsed and is counted at what its objects may
   * take: 5 bytes per character and 64 per object or array). Past it on either, stdin is not
   * read (and, for answers, no waiting request starts) until it drains below again.
   */
  maxQueuedBytes?: number;
  /** At EOF, how long in-flight (and waiting) requests may still finish and answer (default 5000 ms). */
  drainMs?: number;
  /** Defaults to process.stdin / process.stdout. */
  input?: Readable;
  output?: Writable;
}

export interface StdioConnection {
  /** Resolves when the input ended (EOF) and the connection closed. */
  readonly closed: Promise<void>;
  /** Stops reading and aborts in-flight requests. */
  close(): void;
}

export const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;
/** The official SDK's stdio client buffer (10 MiB): our longest line, newline included. */
export const DEFAULT_STDIO_MAX_RESPONSE_BYTES = 10 * 1024 * 1024;

/**
 * Room left under the cap for one pipe read (64 KiB): the official SDK's client refuses when its
 * buffer plus the chunk just read (which may hold the next line's start) passes its cap.
 */
export const READ_MARGIN_BYTES = 64 * 1024;

/** What results are assembled under: the cap less the newline and one pipe read (at most a 1/4). */
export function assemblyCapBytes(maxResponseBytes: number): number {
  const json = maxResponseBytes - 1;
  return json - Math.min(READ_MARGIN_BYTES, Math.floor(json / 4));
}
export const DEFAULT_MAX_IN_FLIGHT = 64;
export const DEFAULT_MAX_QUEUED_BYTES = 16 * 1024 * 1024;

function option(name: string, value: number | undefined, fallback: number, min = 1) {
  return integerOption('serveStdio', name, value, fallback, min);
}

/**
 * Serves an MCP server over stdio: one JSON-RPC message per line, stdout for protocol messages only.
 * Memory stays bounded when the client pipelines without reading: at most `maxInFlight` requests
 * run, and stdin is paused while either queue is past `maxQueuedBytes`.
 *
 * @example
 * await serveStdio(server).closed; // returns at EOF
 */
export function serveStdio(server: McpServer, options: StdioOptions = {}): StdioConnection {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const maxLineBytes = option('maxLineBytes', options.maxLineBytes, DEFAULT_MAX_LINE_BYTES);
  // The newline is part of the line the client buffers: the JSON gets one byte less.
  const maxMessageBytes =
    option(
      'maxResponseBytes',
      options.maxResponseBytes,
      DEFAULT_STDIO_MAX_RESPONSE_BYTES,
      MIN_RESPONSE_BYTES,
    ) - 1;
  const maxInFlight = option('maxInFlight', options.maxInFlight, DEFAULT_MAX_IN_FLIGHT);
  const maxQueuedBytes = option('maxQueuedBytes', options.maxQueuedBytes, DEFAULT_MAX_QUEUED_BYTES);
  const decoder = new LineDecoder(maxLineBytes);
  const listens = new Set<string | number>();
  // Messages being handled (EOF waits for them), and the requests among them under maxInFlight.
  let pending = 0;
  let running = 0;
  const waiting = new WaitingRequests();
  let paused = false;
  let ending = false;
  let isClosed = false;

  // Listen streams hold (and coalesce) their frames while stdout is behind: see listen-flow.ts.
  const listenFlow = stdioListenFlow(() => out.bytes);
  const out = new OutputQueue(output, () => {
    admitWaiting();
    listenFlow.written();
  });
  const report = (text: string): void => {
    process.stderr.write(`${text}\n`);
  };
  const write = (message: JSONRPCMessage, answer?: AnswerLease): void => {
    const encoded = encodeForSend(message, maxMessageBytes, report);
    if (encoded === undefined) {
      answer?.release();
      return failUnsent(message, maxMessageBytes);
    }
    const { parts } = encoded;
    let bytes = encoded.bytes;
    if (bytes < 0)
      bytes = parts.reduce((sum, p) => sum + (typeof p === 'string' ? p.length : partBytes(p)), 0);
    // Shared bytes go as they are: the newline goes into this message's own last text part.
    const last = parts.length - 1;
    const tail = parts[last];
    if (typeof tail === 'string') parts[last] = `${tail}\n`;
    else parts.push('\n');
    // An answer holds its share of the server's outbound budget until stdout took it.
    answer?.holdAtLeast(bytes + 1);
    out.push(parts, bytes + 1, answer && (() => answer.release()));
    // Notifications come without a request: past the mark they too stop reading.
    updateFlow();
  };
  const peer = server.connect({
    transport: 'stdio',
    send: write,
    flow: listenFlow,
    maxMessageBytes: assemblyCapBytes(maxMessageBytes + 1),
  });

  // Reading follows both queues: paused past the mark on either, resumed once both are below.
  const updateFlow = (): void => {
    const over = out.bytes > maxQueuedBytes || waiting.bytes > maxQueuedBytes;
    if (over && !paused) {
      paused = true;
      input.pause();
    } else if (!over && paused && !isClosed) {
      paused = false;
      input.resume();
    }
  };
  const canStart = (): boolean => running < maxInFlight && out.bytes <= maxQueuedBytes;

  const start = (message: unknown): void => {
    const listenId = listenIdOf(message);
    if (listenId !== undefined) listens.add(listenId);
    // A listen stream lives as long as its subscription: it never holds other requests back.
    const counted = listenId === undefined && requestIdOf(message) !== undefined;
    pending++;
    if (counted) running++;
    const answer = server.answerBudget.lease();
    peer
      .handle(message, { answer })
      .then(
        (response) => {
          if (response) write(response, answer);
          else answer.release();
        },
        (error: unknown) => {
          answer.release();
          console.error('mcpkit: unexpected stdio dispatch failure', error);
          // A request is answered whatever went wrong: the client must not wait forever.
          const id = requestIdOf(message);
          if (id !== undefined) {
            write(errorResponse(id, ERROR_CODES.INTERNAL_ERROR, 'Internal error'));
          }
        },
      )
      .finally(() => {
        if (listenId !== undefined) listens.delete(listenId);
        pending--;
        if (counted) running--;
        admitWaiting();
      })
      .catch((error: unknown) => {
        // Nothing above may take the process down (an unhandled rejection would).
        console.error('mcpkit: unexpected stdio failure', error);
      });
  };

  // Starts waiting requests while there is room, in the order they came.
  const admitWaiting = (): void => {
    if (isClosed) return;
    while (waiting.size > 0 && canStart()) {
      const message = waiting.shift();
      if (message !== undefined) start(message);
    }
    updateFlow();
    if (ending && pending === 0 && waiting.size === 0) close();
  };

  const onEvent = (event: LineEvent): void => {
    if (event.kind === 'overflow') {
      write(
        errorResponse(
          null,
          ERROR_CODES.INVALID_REQUEST,
          `Message of ${event.bytes} bytes exceeds the stdio line limit of ${maxLineBytes} bytes (maxLineBytes); it was discarded`,
          { limit: maxLineBytes, bytes: event.bytes },
        ),
      );
      return;
    }
    let message: unknown;
    try {
      message = JSON.parse(event.text);
    } catch (error) {
      write(
        errorResponse(null, ERROR_CODES.PARSE_ERROR, `Parse error: ${(error as Error).message}`),
      );
      return;
    }
    const id = requestIdOf(message);
    if (id !== undefined && (waiting.size > 0 || !canStart())) {
      waiting.push(id, event.text, message);
      updateFlow();
      return;
    }
    // A cancellation can overtake the request it names: it then never starts.
    const cancelled = cancelledIdOf(message);
    if (cancelled !== undefined && waiting.cancel(cancelled)) updateFlow();
    start(message);
  };

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const onData = (chunk: Buffer | string): void => {
    decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk, onEvent);
  };
  // EOF: let in-flight and waiting requests answer (listen streams end now), then close.
  const finish = (): void => {
    if (ending) return;
    ending = true;
    decoder.end(onEvent);
    for (const id of listens) peer.inflight.get(id)?.abort();
    if (pending === 0 && waiting.size === 0) close();
    else setTimeout(close, options.drainMs ?? 5000).unref();
  };
  const close = (): void => {
    if (isClosed) return;
    isClosed = true;
    waiting.clear();
    out.flush();
    input.off('data', onData);
    input.off('end', finish);
    input.off('close', finish);
    peer.close();
    resolveClosed();
  };
  input.on('data', onData);
  input.once('end', finish);
  input.once('close', finish);
  // A failing stdin (a socketpair reads ECONNRESET once its client died) ends the input as EOF
  // does; left on after close: an 'error' nobody listens to is thrown out of the stream.
  input.on('error', finish);
  output.on('error', () => close());
  return { closed, close };
}

/** The id of a request (a message with a method and a valid id), else undefined. */
function requestIdOf(message: unknown): RequestId | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as { method?: unknown; id?: unknown };
  return typeof m.method === 'string' && isRequestId(m.id) ? m.id : undefined;
}

function listenIdOf(message: unknown): string | number | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as { method?: unknown; id?: unknown };
  if (m.method !== 'subscriptions/listen') return undefined;
  return typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
}
