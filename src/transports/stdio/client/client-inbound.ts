import type { ClientTransportSink } from '../../../client/transport.js';
import { McpKitError } from '../../../errors/index.js';
import { deepField } from '../../../protocol/depth.js';
import { ERROR_CODES } from '../../../protocol/error-codes.js';
import { classify, errorResponse, type JSONRPCResponse } from '../../../protocol/jsonrpc.js';
import { escapeControls, escapeForMessage } from './client-stderr.js';
import { scanOversizeHead } from './client-oversize.js';
import type { LineEvent } from '../line-decoder.js';

export interface InboundOptions {
  sink: ClientTransportSink;
  /** The server as messages name it: the command, quoted. */
  label: string;
  maxLineBytes: number;
  maxDepth: number;
  /** Answers a server request the core never sees (too large, too deep): it must not wait. */
  answer: (response: JSONRPCResponse) => void;
}

const PREVIEW_CHARS = 80;
const utf8 = new TextDecoder('utf-8');

/**
 * Turns the decoder's events into sink calls: valid messages to `sink.message`, nothing deeper
 * than `maxDepth` ever, and every failure reported against the request it answers when known.
 * I/O-free.
 */
export function createInbound(options: InboundOptions): (event: LineEvent) => void {
  const { sink, label, maxLineBytes, maxDepth, answer } = options;

  const onOverflow = (bytes: number, head: Uint8Array | undefined): void => {
    const found = scanOversizeHead(head ? utf8.decode(head) : '');
    const what = `a message of more than ${bytes - 1} bytes from ${label} exceeds maxLineBytes (${maxLineBytes} bytes) and was discarded; raise the stdio client option maxLineBytes to accept it`;
    if (!found.method) {
      sink.requestFailed(
        found.id,
        new McpKitError('RESPONSE_TOO_LARGE', `Response too large: ${what}`),
      );
      return;
    }
    // A server request or notification: its id is the server's, never one of ours to fail.
    sink.warn(
      'RESPONSE_TOO_LARGE',
      `Dropped ${found.id === undefined ? 'notification' : 'request'}: ${what}`,
    );
    if (found.id !== undefined) {
      answer(
        errorResponse(
          found.id,
          ERROR_CODES.INVALID_REQUEST,
          `Request of ${bytes} bytes exceeds the client's line limit of ${maxLineBytes} bytes`,
          { limit: maxLineBytes, bytes },
        ),
      );
    }
  };

  const invalid = (why: string, text: string): void => {
    const preview = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
    // `why` may quote the line too (JSON.parse's messages do): escaped as the preview is.
    const reason = escapeControls(why);
    sink.warn('INVALID_MESSAGE', `${label} wrote ${reason}; ignored: ${escapeForMessage(preview)}`);
  };

  const onLine = (text: string): void => {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      invalid(`a line that is not JSON (${(error as Error).message})`, text);
      return;
    }
    const c = classify(value);
    if (c.kind === 'invalid') {
      invalid(`a line that is not a JSON-RPC message (${c.reason})`, text);
      if (c.responseTo !== undefined) {
        const error = new McpKitError(
          'INVALID_RESPONSE',
          `Invalid response from ${label}: ${c.reason}`,
        );
        sink.requestFailed(c.responseTo, error);
      }
      return;
    }
    const deep = deepField(c.message, maxDepth);
    if (deep === undefined) {
      sink.message(c.message);
      return;
    }
    const why = `nests objects or arrays more than ${maxDepth} levels below ${deep} (the stdio client option maxDepth)`;
    if (c.kind === 'response' && c.message.id !== null) {
      sink.requestFailed(
        c.message.id,
        new McpKitError('INVALID_RESPONSE', `Invalid response from ${label}: it ${why}`),
      );
      return;
    }
    sink.warn('INVALID_MESSAGE', `Dropped a ${c.kind} from ${label} that ${why}`);
    if (c.kind === 'request') {
      answer(
        errorResponse(
          c.message.id,
          ERROR_CODES.INVALID_PARAMS,
          `The message ${why}; flatten it, or raise maxDepth on the client`,
          { limit: maxDepth, reason: 'too-deep' },
        ),
      );
    }
  };

  return (event) => {
    if (event.kind === 'overflow') onOverflow(event.bytes, event.head);
    else onLine(event.text);
  };
}
