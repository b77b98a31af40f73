/**
 * An incremental Server-Sent Events parser (WHATWG "event stream interpretation") over bytes,
 * with a cap on what it buffers: the client reads server streams it does not control, and one
 * endless line or event must not grow memory past the cap.
 */

/** One dispatched event: its joined `data` lines, its type and the last event id at dispatch. */
export interface SseEvent {
  data: string;
  event: string | undefined;
  id: string | undefined;
}

const LF = 0x0a;
const CR = 0x0d;
/** `data: ` is framing, not message: a line may exceed the cap by this much. */
const FIELD_ALLOWANCE = 'data: '.length;

export class SseDecoder {
  /** The last `id:` seen (the value for `Last-Event-ID`), events without data included. */
  lastEventId: string | undefined;
  /** The last valid `retry:` value, in milliseconds. */
  retryMs: number | undefined;
  /** Set once an event or line passed the cap; the decoder then takes no more bytes. */
  overflowed = false;

  private readonly decoder = new TextDecoder();
  private line: Uint8Array[] = [];
  private lineBytes = 0;
  private data: string[] = [];
  private dataBytes = 0;
  private event: string | undefined;
  private skipLf = false;
  private first = true;

  /** @param maxEventBytes the most bytes of `data` one event may carry (lines joined). */
  constructor(private readonly maxEventBytes: number) {}

  /** Feeds bytes; returns the events they completed (those before an overflow). */
  push(chunk: Uint8Array): SseEvent[] {
    const events: SseEvent[] = [];
    if (this.overflowed) return events;
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte !== LF && byte !== CR) continue;
      // CRLF is one line end: the LF after a CR (possibly in the next chunk) ends nothing.
      if (byte === LF && this.skipLf && i === start) {
        this.skipLf = false;
        start = i + 1;
        continue;
      }
      this.skipLf = byte === CR;
      if (!this.append(chunk.subarray(start, i))) return events;
      this.endLine(events);
      if (this.overflowed) return events;
      start = i + 1;
    }
    if (start < chunk.length) {
      this.skipLf = false;
      this.append(chunk.subarray(start));
    }
    return events;
  }

  /** Appends to the line in progress; false (and overflowed) when that passes the cap. */
  private append(bytes: Uint8Array): boolean {
    if (bytes.length === 0) return true;
    this.lineBytes += bytes.length;
    if (this.dataBytes + Math.max(0, this.lineBytes - FIELD_ALLOWANCE) > this.maxEventBytes) {
      this.overflow();
      return false;
    }
    this.line.push(bytes);
    return true;
  }

  private endLine(events: SseEvent[]): void {
    let bytes = this.lineBytes;
    let text = this.takeLine();
    if (this.first) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) {
        text = text.slice(1);
        bytes -= 3;
      }
    }
    if (text === '') {
      this.dispatch(events);
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data': {
        // The field name, colon and space are ASCII: the rest of the line's bytes are the value's.
        const added = bytes - (text.length - value.length) + (this.data.length > 0 ? 1 : 0);
        if (this.dataBytes + added > this.maxEventBytes) {
          this.overflow();
          return;
        }
        this.dataBytes += added;
        this.data.push(value);
        return;
      }
      case 'event':
        this.event = value;
        return;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        return;
      case 'retry':
        if (/^\d+$/.test(value)) this.retryMs = Number(value);
        return;
      default:
        return;
    }
  }

  private dispatch(events: SseEvent[]): void {
    const data = this.data;
    const event = this.event;
    this.data = [];
    this.dataBytes = 0;
    this.event = undefined;
    // An event without data (a priming event: `id:` and empty `data:`) is not dispatched.
    if (data.length === 0 || (data.length === 1 && data[0] === '')) return;
    events.push({ data: data.join('\n'), event, id: this.lastEventId });
  }

  private takeLine(): string {
    const parts = this.line;
    this.line = [];
    this.lineBytes = 0;
    if (parts.length === 0) return '';
    if (parts.length === 1) return this.decoder.decode(parts[0]);
    const total = parts.reduce((sum, p) => sum + p.length, 0);
    const joined = new Uint8Array(total);
    let offset = 0;
    for (const part of parts) {
      joined.set(part, offset);
      offset += part.length;
    }
    return this.decoder.decode(joined);
  }

  private overflow(): void {
    this.overflowed = true;
    this.line = [];
    this.data = [];
  }
}
