/**
 * A request body a framework parsed already (`express.json()` sets `req.body`; Fastify hands
 * `request.body` over): its stream is consumed, so waiting on it would hang. The value is
 * serialised again and held to the same cap, by that size, then parsed like any body, so that
 * the depth limit and the id checks still apply. The framework's parser owns what came before:
 * Content-Type, its own size limit and its timeouts.
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
