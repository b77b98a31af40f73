/**
 * Reads a response body under a byte cap on the DECODED bytes: Content-Length is checked first
 * (when there is no content coding), then every chunk is counted as it arrives, so neither a lying
 * length nor a compression bomb gets past the cap; the socket is destroyed the moment it is passed.
 */
import type { IncomingMessage } from 'node:http';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip } from 'node:zlib';
import { GuardError, quoted } from './guard-error.js';
import { InflateEither } from './inflate-either.js';

export interface BodyLimits {
  url: string;
  address: string;
  maxBytes: number;
}

function decoderFor(encoding: string, limits: BodyLimits): Transform | undefined {
  switch (encoding) {
    case '':
    case 'identity':
      return undefined;
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      // zlib-wrapped or raw, as browsers accept it.
      return new InflateEither();
    case 'br':
      return createBrotliDecompress();
    default: {
      const message = `${quoted(limits.url)} (${limits.address}) came with Content-Encoding ${quoted(encoding)}, which the guard does not decode`;
      throw new GuardError('FETCH_FAILED', message, { url: limits.url, address: limits.address });
    }
  }
}

function tooLarge(limits: BodyLimits, what: string): GuardError {
  const message = `${quoted(limits.url)} (${limits.address}) is over the ${limits.maxBytes}-byte cap: ${what}`;
  return new GuardError('GUARD_TOO_LARGE', message, { url: limits.url, address: limits.address });
}

/** The body's decoded bytes, or `GUARD_TOO_LARGE` (the response destroyed) past `maxBytes`. */
export async function readBody(response: IncomingMessage, limits: BodyLimits): Promise<Uint8Array> {
  try {
    return await collectBody(response, limits);
  } finally {
    // Whatever happened, the socket goes: agent: false means it is never reused anyway.
    response.destroy();
  }
}

async function collectBody(response: IncomingMessage, limits: BodyLimits): Promise<Uint8Array> {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder = decoderFor(encoding, limits);
  const declared = response.headers['content-length'];
  if (decoder === undefined && declared !== undefined && /^\d+$/.test(declared)) {
    if (Number(declared) > limits.maxBytes)
      throw tooLarge(limits, `Content-Length says ${declared}`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  let overflow: GuardError | undefined;
  const collect = async (source: AsyncIterable<Uint8Array>) => {
    for await (const chunk of source) {
      total += chunk.length;
      if (total > limits.maxBytes) {
        // Throwing makes pipeline destroy every stream, the socket included. Kept aside: the
        // pipeline may reject with the decoder's AbortError instead of this one.
        overflow = tooLarge(limits, `the body passed it and was cut off`);
        throw overflow;
      }
      chunks.push(chunk);
    }
  };
  const source: Readable = response;
  try {
    if (decoder === undefined) await pipeline(source, collect);
    else await pipeline(source, decoder, collect);
  } catch (error) {
    throw overflow ?? error;
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}
