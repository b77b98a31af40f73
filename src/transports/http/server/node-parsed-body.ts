/**
 * A body a framework parsed already (`express.json()`'s `req.body`, Fastify's `request.body`):
 * its stream is spent. It is serialised again, held to the same cap and parsed like any body, so
 * the depth limit and id checks still apply; Content-Type, size and timeouts were the parser's.
 */
import { TOO_LARGE, UNSERIALISABLE, type BodyLimits, type BodyOutcome } from './body-limits.js';

export function parsedBodyText(value: unknown, limits: BodyLimits): BodyOutcome {
  let text: string | undefined;
  // Bytes are the body as sent; anything else is a parsed value (a string too: a JSON string).
  if (value instanceof Uint8Array)
    text = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('utf8');
  else {
    try {
      text = JSON.stringify(value);
    } catch {
      return UNSERIALISABLE; // nested past the stack, or not data at all (a cycle)
    }
  }
  if (text === undefined) return UNSERIALISABLE; // a function, a symbol
  return Buffer.byteLength(text) > limits.maxBytes ? TOO_LARGE : text;
}
