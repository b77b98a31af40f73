import { McpKitError } from '../../../errors/index.js';
import type { RequestId } from '../../../protocol/jsonrpc.js';
import { OVERSIZE_HEAD_BYTES, scanOversizeHead } from './client-oversize.js';

/** An answer that passed the limit its request set, found while its line streams in. */
export interface CapPassed {
  /** The request it answers; undefined when its head names no id (every request was capped). */
  id: RequestId | undefined;
  cap: number;
  /** Bytes of the line seen so far. */
  bytes: number;
  /** Where in the chunk the line began (0: in an earlier one); what came before is whole lines. */
  lineStart: number;
}

const utf8 = new TextDecoder('utf-8');

/**
 * Per-request answer limits over stdio (`SendOptions.maxResponseBytes`), checked on each chunk
 * before the line decoder: once a line passes the smallest limit in flight, its first 4 KiB say
 * which request it answers, and past that limit the caller ends the connection (the rest of a
 * line cannot be skipped). A head with no id counts against the largest limit when every request
 * in flight set one (listen streams aside), else only `maxLineBytes` holds while it streams in,
 * and `overLimit` fails its request once it is parsed.
 */
export class AnswerCaps {
  /** Requests in flight: their limit, or Infinity (NaN: long-lived, no limit). */
  private readonly inFlight = new Map<RequestId, number>();
  private capped = 0;
  /** Requests in flight with no limit, long-lived ones (listen streams) not counted. */
  private open = 0;
  private lineBytes = 0;
  private readonly head = new Uint8Array(OVERSIZE_HEAD_BYTES);
  private headSize = 0;
  /** The limit the current line counts against: undefined until judged, Infinity for none. */
  private lineCap: number | undefined;
  private lineId: RequestId | undefined;

  /**
   * A request went out; `cap` undefined: no limit of its own. A long-lived one (a listen stream,
   * whose final answer is small) does not keep a line with no id from being judged.
   */
  sent(id: RequestId, cap: number | undefined, longLived = false): void {
    const limit = cap !== undefined && cap > 0 ? cap : longLived ? Number.NaN : Infinity;
    this.settled(id);
    this.inFlight.set(id, limit);
    this.count(limit, 1);
  }

  /** Answered, failed or cancelled. */
  settled(id: RequestId): void {
    const was = this.inFlight.get(id);
    if (was === undefined) return;
    this.inFlight.delete(id);
    this.count(was, -1);
  }

  clear(): void {
    this.inFlight.clear();
    this.capped = 0;
    this.open = 0;
  }

  private count(limit: number, by: 1 | -1): void {
    if (Number.isFinite(limit)) this.capped += by;
    else if (limit === Infinity) this.open += by;
  }

  /**
   * A whole answer line, parsed: its size against the limit of the request JSON.parse says it
   * answers, which the head scan may have missed (an "id" past the first 4 KiB while a request
   * with no limit is in flight, or a duplicated "id": JSON.parse keeps the last). The limit, or
   * undefined when within it.
   */
  overLimit(id: RequestId, text: string): number | undefined {
    const cap = this.inFlight.get(id);
    if (cap === undefined || !Number.isFinite(cap)) return undefined;
    // UTF-8 bytes are never fewer than characters: a longer text is over without counting.
    return text.length > cap || Buffer.byteLength(text, 'utf8') > cap ? cap : undefined;
  }

  /** Scans a chunk; returns the passed limit, if the current line passed one. */
  scan(chunk: Uint8Array): CapPassed | undefined {
    let start = 0;
    if (this.capped === 0) {
      // Nothing to judge: only the line still open at the chunk's end matters, for later.
      const last = chunk.lastIndexOf(10);
      if (last >= 0) {
        this.newLine();
        start = last + 1;
      }
      this.take(chunk, start, chunk.length);
      return undefined;
    }
    for (;;) {
      const nl = chunk.indexOf(10, start);
      const end = nl < 0 ? chunk.length : nl;
      const passed = this.take(chunk, start, end);
      if (passed) return passed;
      if (nl < 0) return undefined;
      this.newLine();
      start = nl + 1;
    }
  }

  private newLine(): void {
    this.lineBytes = 0;
    this.headSize = 0;
    this.lineCap = undefined;
    this.lineId = undefined;
  }

  private take(chunk: Uint8Array, start: number, end: number): CapPassed | undefined {
    const n = end - start;
    if (n === 0) return undefined;
    if (this.headSize < this.head.length) {
      const keep = Math.min(this.head.length - this.headSize, n);
      this.head.set(chunk.subarray(start, start + keep), this.headSize);
      this.headSize += keep;
    }
    const lineStart = this.lineBytes === 0 ? start : 0;
    this.lineBytes += n;
    if (this.capped === 0) return undefined;
    if (this.lineCap === undefined) this.judge();
    const cap = this.lineCap;
    if (cap === undefined || this.lineBytes <= cap) return undefined;
    return { id: this.lineId, cap, bytes: this.lineBytes, lineStart };
  }

  /** Finds which limit the current line counts against, once it is over the smallest one. */
  private judge(): void {
    let smallest = Infinity;
    let largest = 0;
    for (const cap of this.inFlight.values()) {
      if (!Number.isFinite(cap)) continue;
      smallest = Math.min(smallest, cap);
      largest = Math.max(largest, cap);
    }
    if (this.lineBytes <= smallest) return;
    const found = scanOversizeHead(utf8.decode(this.head.subarray(0, this.headSize)));
    const complete = this.headSize >= this.head.length;
    if (found.method) {
      // The server's own request or notification: no answer of ours.
      this.lineCap = Infinity;
    } else if (found.id !== undefined) {
      this.lineId = found.id;
      const cap = this.inFlight.get(found.id);
      this.lineCap = cap !== undefined && Number.isFinite(cap) ? cap : Infinity;
    } else if (complete) {
      // No id up front: it may answer any request; bounded here only when all set a limit.
      this.lineCap = this.open === 0 ? largest : Infinity;
    }
  }
}

/** What a request fails with when its answer, read whole, is over its limit. */
export function wholeAnswerError(
  label: string,
  id: RequestId,
  text: string,
  cap: number,
): McpKitError {
  const bytes = Buffer.byteLength(text, 'utf8');
  return new McpKitError(
    'RESPONSE_TOO_LARGE',
    `Response too large: the answer to request ${String(id)} from ${label} is ${bytes} bytes, over the ${cap}-byte limit its request set (maxResponseBytes)`,
  );
}

/** What the request that passed its limit fails with, and every other request in flight. */
export function capErrors(
  label: string,
  passed: CapPassed,
): { request: McpKitError; connection: McpKitError } {
  const { id, cap, bytes } = passed;
  const whose = id === undefined ? 'an answer' : `the answer to request ${String(id)}`;
  const why =
    `${whose} from ${label} passed ${bytes} bytes, over the ${cap}-byte limit its request set ` +
    '(maxResponseBytes); over stdio the rest of a line cannot be skipped, so the connection was ended';
  return {
    request: new McpKitError('RESPONSE_TOO_LARGE', `Response too large: ${why}`),
    connection: new McpKitError('PEER_CLOSED', `Connection ended: ${why}`),
  };
}
