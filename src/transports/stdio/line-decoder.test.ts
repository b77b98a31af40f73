import { describe, expect, it } from 'vitest';
import { LineDecoder, type LineEvent } from './line-decoder.js';

function run(limit: number, chunks: string[], end = false): LineEvent[] {
  const out: LineEvent[] = [];
  const d = new LineDecoder(limit);
  for (const c of chunks) d.push(Buffer.from(c), (e) => out.push(e));
  if (end) d.end((e) => out.push(e));
  return out;
}

describe('LineDecoder', () => {
  it('splits lines across and within chunks', () => {
    expect(run(100, ['{"a":', '1}\n{"b"', ':2}\n{"c":3}\n'])).toEqual([
      { kind: 'line', text: '{"a":1}' },
      { kind: 'line', text: '{"b":2}' },
      { kind: 'line', text: '{"c":3}' },
    ]);
  });

  it('strips CR, skips blank lines and flushes the last line at EOF', () => {
    expect(run(100, ['a\r\n\n  \nb'], true)).toEqual([
      { kind: 'line', text: 'a' },
      { kind: 'line', text: 'b' },
    ]);
  });

  it('keeps a multi-byte character split across chunks intact', () => {
    const bytes = Buffer.from('"é"\n');
    const out: LineEvent[] = [];
    const d = new LineDecoder(100);
    d.push(bytes.subarray(0, 2), (e) => out.push(e));
    d.push(bytes.subarray(2), (e) => out.push(e));
    expect(out).toEqual([{ kind: 'line', text: '"é"' }]);
  });

  it('accepts a line of exactly the limit and discards one byte more, then goes on', () => {
    expect(run(5, ['12345\n'])).toEqual([{ kind: 'line', text: '12345' }]);
    expect(run(5, ['123', '456\n', 'ok\n'])).toEqual([
      { kind: 'overflow', bytes: 6 },
      { kind: 'line', text: 'ok' },
    ]);
  });

  it('counts a discarded line that streams in over many chunks without holding it', () => {
    const chunks = Array.from({ length: 100 }, () => 'x'.repeat(1000));
    expect(run(10_000, [...chunks, '\n{"next":1}\n'])).toEqual([
      { kind: 'overflow', bytes: 100_000 },
      { kind: 'line', text: '{"next":1}' },
    ]);
  });

  it('keeps its own copy of an unfinished tail when the producer reuses its Buffer', () => {
    const out: LineEvent[] = [];
    const d = new LineDecoder(1024);
    const buf = Buffer.alloc(16);
    buf.write('{"id":1,');
    d.push(buf.subarray(0, 8), (e) => out.push(e));
    buf.fill(0x58); // the next read lands in the same memory
    buf.write('"x":2}\n');
    d.push(buf.subarray(0, 7), (e) => out.push(e));
    expect(out).toEqual([{ kind: 'line', text: '{"id":1,"x":2}' }]);
  });

  it('keeps the first headBytes of a discarded line when asked', () => {
    const out: LineEvent[] = [];
    const d = new LineDecoder(8, { headBytes: 6 });
    for (const c of ['ab', 'cdefghij', 'klm\nok\n', '0123456789\n']) {
      d.push(Buffer.from(c), (e) => out.push(e));
    }
    const text = (e: LineEvent | undefined) =>
      e?.kind === 'overflow' ? Buffer.from(e.head ?? []).toString() : undefined;
    expect(out.map((e) => e.kind)).toEqual(['overflow', 'line', 'overflow']);
    expect(text(out[0])).toBe('abcdef');
    expect(text(out[2])).toBe('012345');
    const short = new LineDecoder(4, { headBytes: 100 });
    const events: LineEvent[] = [];
    short.push(Buffer.from('12'), (e) => events.push(e));
    short.push(Buffer.from('345'), (e) => events.push(e));
    short.push(Buffer.from('67\n'), (e) => events.push(e));
    expect(text(events[0])).toBe('1234567');
  });
});
