/**
 * The rest of results cut to the host's limit, kept so that `read_resource` can serve it (whole or
 * by offset/length). Bounded in bytes and in count, the oldest evicted first; URIs are random
 * (unguessable), so that one host connection cannot read what was cut from another's results.
 */
import { randomUUID } from 'node:crypto';
import { utf8Length } from '../content/index.js';
import { ProtocolError } from '../errors/index.js';
import type { ReadResourceResult } from '../protocol/index.js';

/** Total UTF-8 bytes kept by default (8 MiB). */
export const DEFAULT_SPILL_BYTES = 8 * 1024 * 1024;
/** Texts kept by default. */
export const DEFAULT_SPILL_COUNT = 32;

export const SPILL_URI_PREFIX = 'mcpkit-bridge://spill/';

interface Kept {
  text: string;
  mimeType: string;
  bytes: number;
}

export class SpillStore {
  private readonly kept = new Map<string, Kept>();
  private bytes = 0;

  constructor(
    private readonly maxBytes = DEFAULT_SPILL_BYTES,
    private readonly maxCount = DEFAULT_SPILL_COUNT,
  ) {}

  /** Keeps `text`; returns its URI, or undefined when it alone is over the byte bound. */
  keep(text: string, mimeType: string): string | undefined {
    const bytes = utf8Length(text);
    if (bytes > this.maxBytes || this.maxCount < 1) return undefined;
    while (this.kept.size >= this.maxCount || this.bytes + bytes > this.maxBytes) {
      const [oldest, entry] = this.kept.entries().next().value as [string, Kept];
      this.kept.delete(oldest);
      this.bytes -= entry.bytes;
    }
    const uri = `${SPILL_URI_PREFIX}${randomUUID()}`;
    this.kept.set(uri, { text, mimeType, bytes });
    this.bytes += bytes;
    return uri;
  }

  /** A spill URI's contents; undefined for other URIs; not found once evicted. */
  read(uri: string): ReadResourceResult | undefined {
    if (!uri.startsWith(SPILL_URI_PREFIX)) return undefined;
    const entry = this.kept.get(uri);
    if (!entry)
      throw new ProtocolError(
        -32002,
        `${uri}: no longer kept by the bridge (it keeps the last ${this.maxCount} cut results, ${this.maxBytes} bytes at most)`,
        { uri },
      );
    return { contents: [{ uri, mimeType: entry.mimeType, text: entry.text }] };
  }

  /** Bytes and texts kept now. */
  get size(): { bytes: number; count: number } {
    return { bytes: this.bytes, count: this.kept.size };
  }
}
