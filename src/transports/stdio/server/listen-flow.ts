import type { ChannelFlow } from '../../../server/transport.js';

/** What stdout may hold before listen streams hold their frames instead (64 KiB). */
export const LISTEN_MARK_BYTES = 64 * 1024;

/**
 * The backpressure listen streams see on stdio: congested while stdout holds more than `mark`
 * bytes, drained when a write brings it back under (the engine holds their frames meanwhile, up
 * to `maxListenQueueBytes`). `bufferedBytes` is 0: stdout is shared with every answer, so only a
 * stream's own held frames count against its limit. `written`: stdout took a batch.
 */
export type StdioListenFlow = ChannelFlow & { written(): void };

export function stdioListenFlow(
  queuedBytes: () => number,
  mark = LISTEN_MARK_BYTES,
): StdioListenFlow {
  let drainers: Array<() => void> = [];
  return {
    get congested() {
      return queuedBytes() > mark;
    },
    bufferedBytes: 0,
    onDrain(cb) {
      if (queuedBytes() <= mark) setImmediate(cb);
      else drainers.push(cb);
    },
    written() {
      if (drainers.length === 0 || queuedBytes() > mark) return;
      const waiting = drainers;
      drainers = [];
      // A later turn: stdout's callback is no place to write the next round.
      setImmediate(() => {
        for (const cb of waiting) cb();
      });
    },
  };
}
