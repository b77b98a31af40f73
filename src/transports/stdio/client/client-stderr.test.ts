import { describe, expect, it } from 'vitest';
import { escapeForMessage, StderrRing, stderrTail } from './client-stderr.js';

describe('StderrRing', () => {
  it('keeps the last bytes whatever the chunk sizes', () => {
    const ring = new StderrRing(8);
    expect(ring.text()).toBe('');
    ring.push(Buffer.from('abc'));
    expect(ring.text()).toBe('abc');
    ring.push(Buffer.from('defgh'));
    expect(ring.text()).toBe('abcdefgh');
    ring.push(Buffer.from('ij'));
    expect(ring.text()).toBe('cdefghij');
    ring.push(Buffer.from('0123456789'));
    expect(ring.text()).toBe('23456789');
    ring.push(Buffer.from('xyz'));
    expect(ring.text()).toBe('56789xyz');
  });

  it('drops a character cut at the start', () => {
    const ring = new StderrRing(4);
    ring.push(Buffer.from('aé€'));
    expect(ring.text()).toBe('€');
  });
});

describe('stderrTail and escapeForMessage', () => {
  it('quotes the last ten lines with control and bidi characters escaped', () => {
    const text =
      Array.from({ length: 15 }, (_, i) => `line ${i}`).join('\n') + '\u001b[0m\u202e\u0085\n';
    const tail = stderrTail(text);
    expect(tail.startsWith('"line 5\\nline 6')).toBe(true);
    expect(tail.endsWith('line 14\\u001b[0m\\u202e\\u0085"')).toBe(true);
    expect(escapeForMessage('a\u2028b')).toBe('"a\\u2028b"');
  });

  it('keeps at most 2000 characters', () => {
    expect(stderrTail('x'.repeat(5000)).length).toBeLessThan(2010);
  });
});
