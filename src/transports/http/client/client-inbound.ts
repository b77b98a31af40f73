import { McpKitError } from '../../../errors/index.js';
import { deepField } from '../../../protocol/depth.js';
import { classify, isRequestId } from '../../../protocol/jsonrpc.js';
import { excerptOf } from './client-failures.js';
import type { JSONRPCMessage, RequestId } from '../../../protocol/jsonrpc.js';

/** What one inbound text (a JSON body, an SSE event's data) turned out to be. */
export type Inbound =
  | { kind: 'message'; message: JSONRPCMessage }
  /** A response that cannot be used: the request it answers fails with `error`. */
  | { kind: 'failed'; id: RequestId; error: McpKitError }
  /** Not a message, and naming no request of ours: worth a warning only. */
  | { kind: 'garbage'; reason: string };

/**
 * Parses, depth-checks and classifies one inbound message. The depth check runs before anyone
 * recurses into the value (JSON.parse takes any depth; validators and user code do not).
 */
export function decodeInbound(text: string, maxDepth: number): Inbound {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // JSON.parse's message quotes the text: what the server wrote must not reach a terminal raw.
    return { kind: 'garbage', reason: `not JSON (${excerptOf((error as Error).message)})` };
  }
  const record: Record<string, unknown> =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const field = deepField(record, maxDepth);
  if (field !== undefined) {
    const reason =
      `the message nests objects or arrays more than ${maxDepth} levels below "${field}" ` +
      '(maxDepth): the client refuses it before anything recurses into it';
    const id = record['id'];
    if (record['method'] === undefined && isRequestId(id)) {
      return { kind: 'failed', id, error: new McpKitError('INVALID_RESPONSE', reason) };
    }
    return { kind: 'garbage', reason };
  }
  const classified = classify(value);
  if (classified.kind !== 'invalid') return { kind: 'message', message: classified.message };
  if (classified.responseTo !== undefined) {
    return {
      kind: 'failed',
      id: classified.responseTo,
      error: new McpKitError('INVALID_RESPONSE', `malformed response: ${classified.reason}`),
    };
  }
  return { kind: 'garbage', reason: classified.reason };
}
