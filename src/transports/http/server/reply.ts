/** Writing one POST's answer: as JSON, or as the last event of the SSE stream it switched to. */
import { classify, type JSONRPCResponse } from '../../../protocol/jsonrpc.js';
import type { Era } from '../../../protocol/versions.js';
import { STREAM_WINDOW_BYTES, type AnswerLease } from '../../../server/transport.js';
import type { EncodedMessage } from '../../../content/encode-message.js';
import { encodeResponse } from '../../oversize.js';
import { isStreamedBody } from '../../../content/streamed-body.js';
import type { HttpResponder, SseSink } from './exchange.js';
import { JSON_HEADERS, SSE_FRAME_BYTES, writeSseMessage } from './sse.js';
import { httpStatusFor } from './status.js';

/**
 * What an encoded answer holds in memory until written: its text and byte parts; a streamed
 * part holds its window (reserved by its producer, see answer-budget.ts), not its length.
 */
function inMemoryBytes(encoded: EncodedMessage): number {
  let bytes = 0;
  // A string's length: what V8 holds of a one-byte string, without a scan of a large one.
  for (const part of encoded.parts)
    bytes += isStreamedBody(part)
      ? STREAM_WINDOW_BYTES
      : typeof part === 'string'
        ? part.length
        : part.byteLength;
  return bytes;
}

/** Sends one POST's answer (see `replyUnder`). */
export type Reply = (
  res: HttpResponder,
  body: unknown,
  response: JSONRPCResponse | undefined,
  era: Era,
  sink: SseSink | undefined,
  headers: Record<string, string>,
  signal: () => AbortSignal,
  answer?: AnswerLease,
) => Promise<void>;

/**
 * Sends the response: as the last event of `sink` when the request switched to SSE (a
 * streamed blob written as the client takes it, so this waits for it), else as JSON.
 */
export function replyUnder(maxResponseBytes: number): Reply {
  return async (res, body, response, era, sink, headers, signal, answer) => {
    if (sink) {
      try {
        // An SSE event pays its framing too.
        const encoded = response ? encode(response, maxResponseBytes, SSE_FRAME_BYTES) : undefined;
        if (encoded) {
          answer?.holdAtLeast(inMemoryBytes(encoded));
          if (!(await writeSseMessage(sink, encoded.parts, signal, (t) => console.error(t))))
            return;
        }
        sink.end();
      } finally {
        answer?.release();
      }
    } else if (response) {
      const encoded = encode(response, maxResponseBytes);
      answer?.holdAtLeast(inMemoryBytes(encoded));
      res.send(
        httpStatusFor(response, era, !('error' in response) || classify(body).kind !== 'invalid'),
        { ...JSON_HEADERS, ...headers },
        encoded.parts,
        answer && (() => answer.release()),
      );
    } else {
      answer?.release();
      res.send(202, headers);
    }
  };
}

/** The response as JSON text; one that cannot be sent as it is becomes a -32603 error. */
function encode(response: JSONRPCResponse, maxResponseBytes: number, framing = 0): EncodedMessage {
  // Both writers (node, web) send streamed blobs: the peers say so (streamsBodies).
  return encodeResponse(response, maxResponseBytes - framing, (t) => console.error(t), {
    streams: true,
  });
}
