/**
 * bodyPlan and partPieces, which both HTTP adapters write their bodies with: exact lengths, and a
 * streamed source opened only when reached and closed however the reading stops.
 */
import { describe, expect, it } from 'vitest';
import { streamedBody } from '../../../content/streamed-body.js';
import { bodyPlan, partPieces } from './exchange.js';

/** A streamed part of `n` two-byte chunks that logs its opening and closing; fails at `failAt`. */
function source(log: string[], n: number, failAt = -1) {
  return streamedBody({
    wireBytes: n * 2,
    async *chunks() {
      log.push('open');
      try {
        for (let i = 0; i < n; i++) {
          if (i === failAt) throw new Error('the source failed');
          yield 'ab';
        }
      } finally {
        log.push('closed');
      }
    },
  });
}

describe('bodyPlan', () => {
  it('counts UTF-8 bytes and joins only small bodies with nothing streamed', () => {
    expect(bodyPlan(['é', new Uint8Array(3)])).toEqual({ bytes: 5, joined: true });
    expect(bodyPlan(['x', source([], 2)])).toEqual({ bytes: 5, joined: false });
    expect(bodyPlan(['x'.repeat(64 * 1024)])).toEqual({ bytes: 65536, joined: true });
    expect(bodyPlan(['x'.repeat(64 * 1024 + 1)], Buffer.byteLength).joined).toBe(false);
  });
});

describe('partPieces', () => {
  it('closes the source being read when the consumer stops', async () => {
    const log: string[] = [];
    const pieces = partPieces(['{', source(log, 5), '}']);
    expect((await pieces.next()).value).toBe('{');
    expect((await pieces.next()).value).toBe('ab');
    await pieces.return();
    expect(log).toEqual(['open', 'closed']);
  });

  it('opens no further source once stopped', async () => {
    const log: string[] = [];
    let gone = false;
    const got: unknown[] = [];
    for await (const piece of partPieces(['{', source(log, 2)], undefined, () => gone)) {
      got.push(piece);
      gone = true;
    }
    expect(got).toEqual(['{']);
    expect(log).toEqual([]);
  });

  it('closes the source it is in when stopped partway through it', async () => {
    const log: string[] = [];
    let gone = false;
    const got: unknown[] = [];
    for await (const piece of partPieces([source(log, 4), '}'], undefined, () => gone)) {
      got.push(piece);
      gone = got.length === 2;
    }
    expect(got).toEqual(['ab', 'ab']);
    expect(log).toEqual(['open', 'closed']);
  });

  it('throws what the source throws, and reads no later part', async () => {
    const log: string[] = [];
    const later: string[] = [];
    const pieces = partPieces([source(log, 3, 1), source(later, 2)]);
    await pieces.next();
    await expect(pieces.next()).rejects.toThrow('the source failed');
    expect((await pieces.next()).done).toBe(true);
    expect(later).toEqual([]);
  });
});
