// Test support only: not part of the mcpkit package (excluded from the build and not published).
/**
 * A `ProviderFs` that records what its file handles do: every `read` (its position, the length
 * asked for and the size of the buffer read into), and how many handles were opened and
 * closed. `afterRead` runs after each read, before its bytes are returned: a writer in between.
 */
import type { FileHandle } from 'node:fs/promises';
import { nodeFs, type ProviderFs } from '../providers/filesystem/fs-types.js';

export interface ReadCall {
  readonly path: string;
  readonly position: number;
  readonly length: number;
  /** Bytes of the buffer the call read into (what the read path allocated). */
  readonly bufferBytes: number;
}

export interface SpyFs extends ProviderFs {
  readonly reads: ReadCall[];
  readonly opened: () => number;
  readonly closed: () => number;
  afterRead: ((call: ReadCall) => Promise<void>) | undefined;
}

/** Wraps `base` (default node:fs with no settle wait) in a recording {@link SpyFs}. */
export function spyFs(base: ProviderFs = { ...nodeFs, settleMs: 0 }): SpyFs {
  let opened = 0;
  let closed = 0;
  const spy: SpyFs = {
    ...base,
    reads: [],
    opened: () => opened,
    closed: () => closed,
    afterRead: undefined,
    open: async (path, flags) => {
      const handle = await base.open(path, flags);
      opened++;
      let counted = false;
      return new Proxy(handle, {
        get(target, prop) {
          if (prop === 'read')
            return async (buffer: Buffer, offset: number, length: number, position: number) => {
              const result = await target.read(buffer, offset, length, position);
              const call = { path, position, length, bufferBytes: buffer.byteLength };
              spy.reads.push(call);
              await spy.afterRead?.(call);
              return result;
            };
          if (prop === 'close')
            return async () => {
              if (!counted) {
                counted = true;
                closed++;
              }
              return target.close();
            };
          const value = Reflect.get(target, prop, target) as unknown;
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      }) as FileHandle;
    },
  };
  return spy;
}
