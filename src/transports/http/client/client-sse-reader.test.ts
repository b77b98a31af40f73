import { describe, expect, it } from 'vitest';
import { SseDecoder, type SseEvent } from './client-sse-reader.js';

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Feeds `parts` one by one (chunk boundaries matter) and returns every event. */
function feed(decoder: SseDecoder, ...parts: string[]): SseEvent[] {
  return parts.flatMap((part) => decoder.push(bytes(part)));
}

describe('SseDecoder', () => {
  it('dispatches events with joined data lines, type and id', () => {
    const decoder = new SseDecoder(1024);
    const events = feed(decoder, 'event: message\nid: 7\ndata: {"a":\ndata: 1}\n\n');
    expect(events).toEqual([{ data: '{"a":\n1}', event: 'message', id: '7' }]);
    expect(decoder.lastEventId).toBe('7');
  });

  it.each([
    ['LF', '\n'],
    ['CRLF', '\r\n'],
    ['CR', '\r'],
  ])('takes %s line ends, split anywhere between chunks', (_name, eol) => {
    const text = `data: x${eol}${eol}data: y${eol}${eol}`;
    for (let cut = 0; cut <= text.length; cut++) {
      const events = feed(new SseDecoder(64), text.slice(0, cut), text.slice(cut));
      expect(events.map((e) => e.data)).toEqual(['x', 'y']);
    }
  });

  it('skips comments and priming events but keeps their id and retry', () => {
    const decoder = new SseDecoder(64);
    const events = feed(decoder, ': keep-alive\n\n', 'id: p1\nretry: 500\ndata: \n\n');
    expect(events).toEqual([]);
    expect(decoder.lastEventId).toBe('p1');
    expect(decoder.retryMs).toBe(500);
    feed(decoder, 'retry: soon\n\n');
    expect(decoder.retryMs).toBe(500);
  });

  it('strips a leading BOM and decodes UTF-8 split inside a character', () => {
    const all = new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('data: é€\n\n')]);
    const decoder = new SseDecoder(64);
    const events = [...decoder.push(all.subarray(0, 11)), ...decoder.push(all.subarray(11))];
    expect(events.map((e) => e.data)).toEqual(['é€']);
  });

  it('drops an unfinished event at the end (nothing is dispatched without a blank line)', () => {
    expect(feed(new SseDecoder(64), 'data: {"half":')).toEqual([]);
  });

  it('accepts an event of exactly the cap and refuses one byte more', () => {
    const exact = 'x'.repeat(100);
    expect(feed(new SseDecoder(100), `data: ${exact}\n\n`).map((e) => e.data)).toEqual([exact]);
    // Two lines: 50 + '\n' + 50 = 101 bytes.
    const over = new SseDecoder(100);
    expect(feed(over, `data: ${'x'.repeat(50)}\ndata: ${'x'.repeat(50)}\n\n`)).toEqual([]);
    expect(over.overflowed).toBe(true);
  });

  it('stops buffering a line with no end as soon as it passes the cap', () => {
    const decoder = new SseDecoder(1000);
    const first = feed(decoder, sseEventText('ok'), 'data: ');
    expect(first.map((e) => e.data)).toEqual(['ok']);
    for (let i = 0; i < 10 && !decoder.overflowed; i++) feed(decoder, 'y'.repeat(300));
    expect(decoder.overflowed).toBe(true);
    expect(feed(decoder, '\n\ndata: later\n\n')).toEqual([]);
  });

  it('counts bytes, not characters', () => {
    // 40 three-byte characters: 120 bytes.
    expect(feed(new SseDecoder(100), `data: ${'€'.repeat(40)}\n\n`)).toEqual([]);
    expect(feed(new SseDecoder(120), `data: ${'€'.repeat(40)}\n\n`)).toHaveLength(1);
  });
});

function sseEventText(data: string): string {
  return `data: ${data}\n\n`;
}
