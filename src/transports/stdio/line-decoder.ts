/** Splits a byte stream into lines, with a hard cap on line size. I/O-free. */

/**
 * `overflow.head`: the first bytes of the discarded line (up to `headBytes`), when asked for, so
 * that a reader can still find which request it answered.
 */
export type LineEvent =
  { kind: 'line'; text: string } | { kind: 'overflow'; bytes: number; head?: Uint8Array };

export interface LineDecoderOptions {
  /** How many leading bytes of a discarded line to keep for its overflow event (default 0). */
  headBytes?: number;
  /**
   * Report an over-long line as soon as it passes the cap (`bytes`: what was seen by then), not
   * at its newline: a line that never ends must not leave its reader waiting. Default false.
   */
  reportAtCap?: boolean;
}

const utf8 = new TextDecoder('utf-8');
// Absent outside Node: the decoder then uses TextDecoder only.
const NodeBuffer: typeof Buffer | (new () => never) =
  typeof Buffer === 'undefined' ? (class {} as never) : Buffer;

/**
 * Accumulates chunks and yields complete lines. A line longer than `maxLineBytes` is discarded as
 * it streams in (never held whole) and reported once, when its newline arrives.
 */
export class LineDecoder {
  private parts: Uint8Array[] = [];
  private size = 0;
  private discarding = false;
  private discarded = 0;
  private readonly headBytes: number;
  private readonly reportAtCap: boolean;
  private head: Uint8Array | undefined;
  private headSize = 0;

  constructor(
    private readonly maxLineBytes: number,
    options: LineDecoderOptions = {},
  ) {
    this.headBytes = options.headBytes ?? 0;
    this.reportAtCap = options.reportAtCap ?? false;
  }

  push(chunk: Uint8Array, emit: (event: LineEvent) => void): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl < 0) {
        // The caller may reuse its buffer: keep a copy of the unfinished tail only.
        this.take(chunk.subarray(start), true, emit);
        return;
      }
      if (this.size === 0 && !this.discarding && nl - start <= this.maxLineBytes) {
        this.emitLine(chunk.subarray(start, nl), emit);
      } else {
        this.take(chunk.subarray(start, nl), false, emit);
        this.finishLine(emit);
      }
      start = nl + 1;
    }
  }

  /** Flushes a last line that has no newline (at EOF). */
  end(emit: (event: LineEvent) => void): void {
    if (this.size > 0 || this.discarding) this.finishLine(emit);
  }

  private take(piece: Uint8Array, copy: boolean, emit: (event: LineEvent) => void): void {
    if (piece.length === 0) return;
    if (this.discarding) {
      this.discarded += piece.length;
      this.keepHead(piece);
      return;
    }
    if (this.size + piece.length > this.maxLineBytes) {
      this.discarding = true;
      this.discarded = this.size + piece.length;
      if (this.headBytes > 0) {
        this.head = new Uint8Array(this.headBytes);
        this.headSize = 0;
        for (const p of this.parts) this.keepHead(p);
        this.keepHead(piece);
      }
      this.parts = [];
      this.size = 0;
      if (this.reportAtCap) this.report(emit);
      return;
    }
    // Buffer#slice is a view like subarray: Uint8Array's slice copies (into a Buffer, for a Buffer).
    this.parts.push(copy ? (Uint8Array.prototype.slice.call(piece) as Uint8Array) : piece);
    this.size += piece.length;
  }

  /** Copies what still fits of `piece` into the head of the line being discarded. */
  private keepHead(piece: Uint8Array): void {
    const head = this.head;
    if (!head || this.headSize >= head.length) return;
    const n = Math.min(head.length - this.headSize, piece.length);
    head.set(piece.subarray(0, n), this.headSize);
    this.headSize += n;
  }

  private report(emit: (event: LineEvent) => void): void {
    const head = this.head?.subarray(0, this.headSize);
    emit(
      head
        ? { kind: 'overflow', bytes: this.discarded, head }
        : { kind: 'overflow', bytes: this.discarded },
    );
  }

  private finishLine(emit: (event: LineEvent) => void): void {
    if (this.discarding) {
      if (!this.reportAtCap) this.report(emit);
      this.discarding = false;
      this.discarded = 0;
      this.head = undefined;
      return;
    }
    const parts = this.parts;
    this.parts = [];
    const size = this.size;
    this.size = 0;
    let bytes: Uint8Array;
    if (parts.length === 1) bytes = parts[0] as Uint8Array;
    else {
      bytes = new Uint8Array(size);
      let at = 0;
      for (const p of parts) {
        bytes.set(p, at);
        at += p.length;
      }
    }
    this.emitLine(bytes, emit);
  }

  private emitLine(bytes: Uint8Array, emit: (event: LineEvent) => void): void {
    // Buffer's decoder is much faster than TextDecoder on short lines; both replace bad UTF-8.
    let text = bytes instanceof NodeBuffer ? bytes.toString('utf8') : utf8.decode(bytes);
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.length === 0 || (text.charCodeAt(0) <= 32 && text.trim().length === 0)) return;
    emit({ kind: 'line', text });
  }
}
