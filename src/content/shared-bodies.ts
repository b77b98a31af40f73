/**
 * Large strings (a cached file's base64 or text) with their JSON form encoded once, as bytes, so
 * that every response carrying the same string writes the same bytes instead of converting it
 * again. Looked up by the string itself: V8 finds the very string object by pointer, and a long
 * string's hash does not depend on its characters, so a lookup costs no pass over them.
 */
import { isBase64 } from '../protocol/base64.js';

/** Strings shorter than this are not worth a shared encoding: they are cheap to convert. */
export const SHARED_BODY_MIN_BYTES = 64 * 1024;

/** Most bytes all shared bodies may hold at once (a safety net: holders release their own). */
export const DEFAULT_SHARED_BODIES_BYTES = 256 * 1024 * 1024;

/** One hold on a shared body; `release` is idempotent. */
export interface SharedBodyHold {
  /** The JSON string as UTF-8, quotes included. Never to be written to. */
  readonly bytes: Uint8Array;
  release(): void;
}

interface Entry {
  readonly bytes: Uint8Array;
  /** The byte length the bytes had: a detached buffer reads 0. */
  readonly length: number;
  /** What the entry keeps alive: its bytes and its key string. */
  readonly cost: number;
  holders: number;
}

const QUOTE = 0x22;
const encoder = new TextEncoder();

/** `value` as a JSON string in UTF-8: base64 needs no escaping, so it is written in place. */
function encodeJsonString(value: string, kind: 'base64' | 'text'): Uint8Array {
  if (kind === 'text') return encoder.encode(JSON.stringify(value));
  const bytes = new Uint8Array(value.length + 2);
  bytes[0] = QUOTE;
  encoder.encodeInto(value, bytes.subarray(1, value.length + 1));
  bytes[value.length + 1] = QUOTE;
  return bytes;
}

/** The registry of shared bodies; most code uses the one instance, {@link sharedBodies}. */
export class SharedBodies {
  private readonly map = new Map<string, Entry>();
  private held = 0;

  constructor(readonly maxBytes: number = DEFAULT_SHARED_BODIES_BYTES) {}

  /** Bytes held now. */
  get bytes(): number {
    return this.held;
  }

  get size(): number {
    return this.map.size;
  }

  /**
   * Encodes `value` (once: later holds of an equal string share the entry) and keeps it until
   * every hold is released. `kind` says how: 'base64' is checked to be canonical base64 (it is
   * then written without escaping), 'text' is escaped as JSON. Undefined when the string is
   * short, not the base64 it claims to be, or larger than the registry's bound.
   */
  hold(value: string, kind: 'base64' | 'text'): SharedBodyHold | undefined {
    if (value.length < SHARED_BODY_MIN_BYTES) return undefined;
    let entry = this.map.get(value);
    if (entry === undefined) {
      if (kind === 'base64' && !isBase64(value)) return undefined;
      const bytes = encodeJsonString(value, kind);
      // The key string is held as long as its bytes: both count.
      const cost = bytes.byteLength + value.length;
      if (cost > this.maxBytes) return undefined;
      entry = { bytes, length: bytes.byteLength, cost, holders: 0 };
      this.map.set(value, entry);
      this.held += entry.cost;
      this.trim(entry);
    }
    entry.holders++;
    const held = entry;
    let released = false;
    return {
      bytes: held.bytes,
      release: () => {
        if (released) return;
        released = true;
        // An entry dropped meanwhile (trimmed, or replaced) is no longer this hold's to count.
        if (this.map.get(value) !== held) return;
        if (--held.holders <= 0) this.drop(value, held);
      },
    };
  }

  /**
   * The shared JSON bytes of `value`, or undefined. Bytes a consumer detached (transferred
   * their buffer) are dropped here, so that no later response writes an empty body.
   */
  get(value: string): Uint8Array | undefined {
    const entry = this.map.get(value);
    if (entry === undefined) return undefined;
    if (entry.bytes.byteLength !== entry.length) {
      this.drop(value, entry);
      return undefined;
    }
    return entry.bytes;
  }

  clear(): void {
    this.map.clear();
    this.held = 0;
  }

  private drop(value: string, entry: Entry): void {
    this.map.delete(value);
    this.held -= entry.cost;
  }

  /** Past the bound, the oldest entries go (their responses fall back to converting). */
  private trim(keep: Entry): void {
    for (const [value, entry] of this.map) {
      if (this.held <= this.maxBytes) return;
      if (entry !== keep) this.drop(value, entry);
    }
  }
}

/** The registry transports consult when they encode a message. */
export const sharedBodies = new SharedBodies();
