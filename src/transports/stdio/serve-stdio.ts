import type { Readable, Writable } from 'node:stream';
import { ERROR_CODES } from '../../protocol/error-codes.js';
import { errorResponse, type JSONRPCMessage } from '../../protocol/jsonrpc.js';
import type { McpServer } from '../../server/index.js';
import { LineDecoder, type LineEvent } from './line-decoder.js';
import { encodeForSend } from '../oversize.js';

export interface StdioOptions {
  /** Largest accepted line in bytes (default 32 MiB); longer lines are discarded and answered with an error. */
  maxLineBytes?: number;
  /** At EOF, how long in-flight requests may still finish and answer (default 5000 ms). */
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

/**
 * Serves an MCP server over stdio: one JSON-RPC message per line, stdout for protocol messages only.
 *
 * @example
 * await serveStdio(server).closed; // returns at EOF
 */
export function serveStdio(server: McpServer, options: StdioOptions = {}): StdioConnection {
  const input = options.input ?? process.stdin;
  const output = options.output ?? process.stdout;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const decoder = new LineDecoder(maxLineBytes);
  const listens = new Set<string | number>();
  let pending = 0;
  let ending = false;
  let isClosed = false;

  // Answers produced in the same turn of the event loop go out in one write.
  let queue: string[] = [];
  let flushing = false;
  // Backpressure: one 'drain' listener at most, and no reading until it fired.
  let waitingForDrain = false;
  const onDrain = (): void => {
    waitingForDrain = false;
    if (!isClosed) input.resume();
  };
  const flush = (): void => {
    flushing = false;
    if (queue.length === 0 || !output.writable) return;
    const pieces = queue;
    queue = [];
    // Corked: Node hands all pieces to one writev, with no joined copy of the batch.
    output.cork();
    let ok = true;
    for (const piece of pieces) ok = output.write(piece) && ok;
    output.uncork();
    // Backpressure: stop reading requests until the client reads our answers.
    if (!ok) {
      input.pause();
      if (!waitingForDrain) {
        waitingForDrain = true;
        output.once('drain', onDrain);
      }
    }
  };
  const report = (text: string): void => {
    process.stderr.write(`${text}\n`);
  };
  const write = (message: JSONRPCMessage): void => {
    const encoded = encodeForSend(message, maxLineBytes, 'maxLineBytes', report);
    if (encoded === undefined) return;
    const { parts } = encoded;
    for (let i = 0; i < parts.length - 1; i++) queue.push(parts[i] as string);
    queue.push(`${parts[parts.length - 1] as string}\n`);
    if (!flushing) {
      flushing = true;
      setImmediate(flush);
    }
  };
  const peer = server.connect({ transport: 'stdio', send: write, maxMessageBytes: maxLineBytes });

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
    const listenId = listenIdOf(message);
    if (listenId !== undefined) listens.add(listenId);
    pending++;
    peer
      .handle(message)
      .then(
        (response) => {
          if (response) write(response);
        },
        (error: unknown) => {
          console.error('mcpkit: unexpected stdio dispatch failure', error);
        },
      )
      .finally(() => {
        if (listenId !== undefined) listens.delete(listenId);
        if (--pending === 0 && ending) close();
      })
      .catch((error: unknown) => {
        // Nothing above may take the process down (an unhandled rejection would).
        console.error('mcpkit: unexpected stdio failure', error);
      });
  };

  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const onData = (chunk: Buffer | string): void => {
    decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk, onEvent);
  };
  // EOF: let in-flight requests answer (listen streams end now), then close.
  const finish = (): void => {
    if (ending) return;
    ending = true;
    decoder.end(onEvent);
    for (const id of listens) peer.inflight.get(id)?.abort();
    if (pending === 0) close();
    else setTimeout(close, options.drainMs ?? 5000).unref();
  };
  const close = (): void => {
    if (isClosed) return;
    isClosed = true;
    flush();
    input.off('data', onData);
    input.off('end', finish);
    input.off('close', finish);
    output.off('drain', onDrain);
    peer.close();
    resolveClosed();
  };
  input.on('data', onData);
  input.once('end', finish);
  input.once('close', finish);
  output.on('error', () => close());
  return { closed, close };
}

function listenIdOf(message: unknown): string | number | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const m = message as { method?: unknown; id?: unknown };
  if (m.method !== 'subscriptions/listen') return undefined;
  return typeof m.id === 'string' || typeof m.id === 'number' ? m.id : undefined;
}
