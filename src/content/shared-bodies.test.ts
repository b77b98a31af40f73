import { describe, expect, it } from 'vitest';
import { SHARED_BODY_MIN_BYTES, SharedBodies } from './shared-bodies.js';

const base64 = (bytes: number, fill = 7): string => Buffer.alloc(bytes, fill).toString('base64');
const utf8 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('utf8');

describe('SharedBodies', () => {
  it('holds the JSON form of a base64 string and of a text, exactly as JSON.stringify writes it', () => {
    const bodies = new SharedBodies();
    const blob = base64(SHARED_BODY_MIN_BYTES);
    const text = `${'x'.repeat(SHARED_BODY_MIN_BYTES)} "quoted" \\ é 😀 \n\t\u0001 \ud800 lone`;
    for (const [value, kind] of [
      [blob, 'base64'],
      [text, 'text'],
    ] as const) {
      const hold = bodies.hold(value, kind);
      expect(hold).toBeDefined();
      expect(utf8(hold?.bytes ?? new Uint8Array())).toBe(JSON.stringify(value));
      expect(hold?.bytes.byteLength).toBe(Buffer.byteLength(JSON.stringify(value)));
      expect(bodies.get(value)).toBe(hold?.bytes);
    }
    expect(bodies.size).toBe(2);
  });

  it('finds an equal string (a second read of the same bytes) and shares one entry', () => {
    const bodies = new SharedBodies();
    const a = base64(SHARED_BODY_MIN_BYTES);
    const b = base64(SHARED_BODY_MIN_BYTES);
    const first = bodies.hold(a, 'base64');
    const second = bodies.hold(b, 'base64');
    expect(second?.bytes).toBe(first?.bytes);
    expect(bodies.size).toBe(1);
    first?.release();
    expect(bodies.get(b)).toBe(second?.bytes);
    second?.release();
    expect(bodies.size).toBe(0);
    expect(bodies.bytes).toBe(0);
  });

  it('holds no short string and no base64 that is not canonical', () => {
    const bodies = new SharedBodies();
    expect(bodies.hold('QUJD', 'base64')).toBeUndefined();
    expect(bodies.hold(`${'A'.repeat(SHARED_BODY_MIN_BYTES)}"}`, 'base64')).toBeUndefined();
    expect(bodies.size).toBe(0);
  });

  it('drops an entry once every hold is released, and a release twice counts once', () => {
    const bodies = new SharedBodies();
    const value = base64(SHARED_BODY_MIN_BYTES);
    const one = bodies.hold(value, 'base64');
    const two = bodies.hold(value, 'base64');
    one?.release();
    one?.release();
    expect(bodies.get(value)).toBeDefined();
    two?.release();
    expect(bodies.get(value)).toBeUndefined();
    expect(bodies.bytes).toBe(0);
  });

  it('stays within its bound, dropping the oldest entries; a stale hold releases nothing', () => {
    const value = (fill: number) => base64(SHARED_BODY_MIN_BYTES, fill);
    // Each entry keeps its JSON bytes and its key string.
    const size = value(1).length + 2 + value(1).length;
    const bodies = new SharedBodies(size * 2);
    const first = bodies.hold(value(1), 'base64');
    bodies.hold(value(2), 'base64');
    bodies.hold(value(3), 'base64');
    expect(bodies.bytes).toBe(size * 2);
    expect(bodies.get(value(1))).toBeUndefined();
    const again = bodies.hold(value(1), 'base64');
    first?.release();
    expect(bodies.get(value(1))).toBe(again?.bytes);
    expect(new SharedBodies(size - 1).hold(value(1), 'base64')).toBeUndefined();
  });

  it('forgets bytes whose buffer was transferred away, rather than serve them empty', () => {
    const bodies = new SharedBodies();
    const value = base64(SHARED_BODY_MIN_BYTES);
    const hold = bodies.hold(value, 'base64');
    const buffer = hold?.bytes.buffer as ArrayBuffer;
    structuredClone(buffer, { transfer: [buffer] });
    expect(bodies.get(value)).toBeUndefined();
    expect(bodies.bytes).toBe(0);
  });
});
