import {
  BodyTally,
  TIMED_OUT,
  type BodyLimits,
  type BodyOutcome,
  type BodyRefusal,
} from './body-limits.js';

const utf8 = new TextDecoder();

type Chunk = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

/** The next chunk, or TIMED_OUT when none comes within `ms` (0: wait for ever). */
function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
): Promise<Chunk | typeof TIMED_OUT> {
  const read = reader.read();
  if (ms <= 0) return read;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([read, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Reads a web-standard request body within `limits`: the node adapter's stall timeout, size cap
 * and shared budget, so that stalled bodies cannot pile up in memory on any runtime either.
 */
export async function readWebBody(request: Request, limits: BodyLimits): Promise<BodyOutcome> {
  const tally = new BodyTally(limits);
  try {
    const refused = tally.declare(request.headers.get('content-length'));
    if (refused) return refused;
    if (!request.body) return '';
    const reader = request.body.getReader();
    const parts: Uint8Array[] = [];
    // Not awaited: a stalled source need not settle its cancel either.
    const cancel = (why: BodyRefusal): BodyRefusal => {
      reader.cancel().catch(() => undefined);
      return why;
    };
    for (;;) {
      const next = await readWithin(reader, limits.idleMs);
      if ('refused' in next) return cancel(next);
      if (next.done) break;
      const over = tally.add(next.value.length);
      if (over) return cancel(over);
      parts.push(next.value);
    }
    const out = new Uint8Array(tally.bytes);
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return utf8.decode(out);
  } finally {
    tally.release();
  }
}
