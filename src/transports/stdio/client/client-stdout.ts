import type { Readable } from 'node:stream';
import { LineDecoder } from '../line-decoder.js';
import { wholeAnswerError, type AnswerCaps, type CapPassed } from './client-answer-caps.js';
import { createInbound, type InboundOptions } from './client-inbound.js';
import { OVERSIZE_HEAD_BYTES } from './client-oversize.js';
import { ReplyPacer } from './client-reply-pacer.js';

export interface StdoutOptions extends InboundOptions {
  stdout: Readable;
  caps: AnswerCaps;
  /** An answer passed its request's limit: nothing more is read; the caller ends the connection. */
  passed: (passed: CapPassed) => void;
}

/**
 * Reads the child's stdout: per-request answer limits checked first (AnswerCaps), then lines
 * decoded under `maxLineBytes`, paced by the replies to the server's own requests (ReplyPacer),
 * and turned into sink calls. Returns the pacer, which `respond` tells of each reply.
 */
export function readStdout(options: StdoutOptions): ReplyPacer {
  const { stdout, sink, caps, label } = options;
  /** The line being delivered: its parsed answer is checked whole against its request's limit. */
  let text = '';
  const decoder = new LineDecoder(options.maxLineBytes, {
    headBytes: OVERSIZE_HEAD_BYTES,
    reportAtCap: true,
  });
  const inbound = createInbound({
    ...options,
    // Settled requests leave the limits' table.
    sink: {
      closed: (error) => sink.closed(error),
      warn: (code, message) => sink.warn(code, message),
      message: (message) => {
        if (!('method' in message) && message.id !== null) {
          const cap = caps.overLimit(message.id, text);
          caps.settled(message.id);
          if (cap !== undefined) {
            return sink.requestFailed(message.id, wholeAnswerError(label, message.id, text, cap));
          }
        }
        sink.message(message);
      },
      requestFailed: (id, error) => {
        if (id === undefined) caps.clear();
        else caps.settled(id);
        sink.requestFailed(id, error);
      },
    },
  });
  const pacer = new ReplyPacer(stdout, (event) => {
    text = event.kind === 'line' ? event.text : '';
    inbound(event); // synchronous: the line is not kept past its delivery
    text = '';
  });
  let stopped = false;
  stdout.on('data', (chunk: Buffer) => {
    if (stopped) return;
    const passed = caps.scan(chunk);
    if (!passed) return decoder.push(chunk, pacer.take);
    // The whole lines before it still count; then nothing more is read.
    if (passed.lineStart > 0) decoder.push(chunk.subarray(0, passed.lineStart), pacer.take);
    stopped = true;
    options.passed(passed);
  });
  stdout.once('end', () => {
    if (!stopped) decoder.end(pacer.take);
  });
  return pacer;
}
