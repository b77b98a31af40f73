/** The child's stderr as the stdio client keeps it: the last bytes only, in a fixed ring. */

/** Default of `StdioClientOptions.stderrBufferBytes`: how much captured stderr is kept. */
export const DEFAULT_STDERR_BUFFER_BYTES = 64 * 1024;

/** How much of the captured stderr an exit error quotes. */
const TAIL_LINES = 10;
const TAIL_CHARS = 2000;

/**
 * Keeps the last `capacity` bytes written to it, whatever the child writes: memory is allocated
 * once, at the first chunk, and never grows.
 */
export class StderrRing {
  private buffer: Buffer | undefined;
  private end = 0;
  private wrapped = false;

  constructor(private readonly capacity: number) {}

  push(chunk: Uint8Array): void {
    if (this.capacity === 0 || chunk.length === 0) return;
    const buffer = (this.buffer ??= Buffer.alloc(this.capacity));
    // Only the last `capacity` bytes can survive.
    const piece =
      chunk.length > this.capacity ? chunk.subarray(chunk.length - this.capacity) : chunk;
    const first = Math.min(piece.length, this.capacity - this.end);
    buffer.set(piece.subarray(0, first), this.end);
    buffer.set(piece.subarray(first), 0);
    this.wrapped ||= this.end + piece.length >= this.capacity;
    this.end = (this.end + piece.length) % this.capacity;
  }

  /** The bytes kept, oldest first, as text (a character cut at the start is dropped). */
  text(): string {
    const buffer = this.buffer;
    if (!buffer) return '';
    let bytes = this.wrapped
      ? Buffer.concat([buffer.subarray(this.end), buffer.subarray(0, this.end)])
      : buffer.subarray(0, this.end);
    if (this.wrapped) {
      let skip = 0;
      // UTF-8 continuation bytes (10xxxxxx) at the start belong to a character already dropped.
      while (skip < 3 && skip < bytes.length && ((bytes[skip] as number) & 0xc0) === 0x80) skip++;
      bytes = bytes.subarray(skip);
    }
    return bytes.toString('utf8');
  }
}

/**
 * The last lines of `text`, fit to quote in an error message: at most 10 lines and 2000
 * characters, every control or bidi character escaped.
 */
export function stderrTail(text: string): string {
  const lines = text.trimEnd().split('\n').slice(-TAIL_LINES);
  let tail = lines.join('\n');
  if (tail.length > TAIL_CHARS) tail = `…${tail.slice(-TAIL_CHARS)}`;
  return escapeForMessage(tail);
}

/**
 * `text` as a double-quoted string literal with every control character (C0, C1, DEL), line or
 * paragraph separator and bidi override escaped: what a peer wrote cannot forge log lines or
 * reorder a terminal's text.
 */
export function escapeForMessage(text: string): string {
  return JSON.stringify(text).replace(
    /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    hex,
  );
}

/** `text` with the same characters as {@link escapeForMessage} escaped, but unquoted. */
export function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, hex);
}

function hex(ch: string): string {
  return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}
