import type { Writable } from 'node:stream';
import { hasStreamedPart, type MessagePart } from '../../../content/encode-message.js';

/**
 * What stdio has to write. Answers of one event-loop turn go out in one corked writev, shared
 * byte parts uncopied. `bytes` counts from `push` to the write's callback, the stream's buffer
 * included: a client that stops reading shows here whatever the stream's highWaterMark.
 */
export class OutputQueue {
  private pieces: MessagePart[] = [];
  /** What each queued message's `written` callback is, called once stdout took its batch. */
  private callbacks: Array<() => void> = [];
  private queuedBytes = 0;
  private writingBytes = 0;
  private scheduled = false;

  /** `onWritten` runs each time stdout took a batch (bytes went down): time to admit more. */
  constructor(
    private readonly output: Writable,
    private readonly onWritten: () => void,
  ) {}

  /** Bytes pushed and not yet taken by stdout. */
  get bytes(): number {
    return this.queuedBytes + this.writingBytes;
  }

  /**
   * Queues one message's parts (the last one ends the line), `bytes` in all, for the next
   * flush; `written` runs once stdout took it.
   */
  push(parts: readonly MessagePart[], bytes: number, written?: () => void): void {
    // A line cannot be taken back once started, so stdio never streams (streamsBodies is off and
    // encodeForSend refuses a streamed body): one here is a bug, never "[object Object]" on stdout.
    if (hasStreamedPart(parts)) throw new TypeError('mcpkit: stdio cannot write a streamed body');
    for (const part of parts) this.pieces.push(part);
    if (written) this.callbacks.push(written);
    this.queuedBytes += bytes;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Hands everything queued to stdout now. */
  flush(): void {
    this.scheduled = false;
    if (this.pieces.length === 0 || !this.output.writable) return;
    const pieces = this.pieces;
    const bytes = this.queuedBytes;
    const callbacks = this.callbacks;
    this.pieces = [];
    this.callbacks = [];
    this.queuedBytes = 0;
    this.writingBytes += bytes;
    const output = this.output;
    output.cork();
    const last = pieces.length - 1;
    for (let i = 0; i < last; i++) output.write(pieces[i] as MessagePart);
    // Writes complete in order: the last piece's callback means the whole batch was taken.
    output.write(pieces[last] as MessagePart, () => {
      this.writingBytes -= bytes;
      for (const written of callbacks) written();
      this.onWritten();
    });
    output.uncork();
  }
}
