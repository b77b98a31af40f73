import { describe, expect, it } from 'vitest';
import { createServer } from './server.js';
import {
  DEFAULT_INTEREST_REFRESH_MS,
  DEFAULT_MAX_REMOTE_INTEREST,
  DEFAULT_TRANSPORT_CAP_BYTES,
  ENVELOPE_RESERVE_BYTES,
  interestLimitsOf,
  MAX_INTEREST_REFRESH_MS,
  pageSizeOf,
  resultCapBytes,
  type ContentOptions,
} from './options.js';

const options = (content?: ContentOptions) => ({
  name: 'o',
  version: '1',
  ...(content ? { content } : {}),
});

describe('resultCapBytes', () => {
  it('keeps the constants the docs promise', () => {
    expect(ENVELOPE_RESERVE_BYTES).toBe(1024);
    expect(DEFAULT_TRANSPORT_CAP_BYTES).toBe(32 * 1024 * 1024);
  });

  it.each([
    ['content.capBytes wins over a transport cap', { capBytes: 500 }, 1_000_000, 500],
    ['content.capBytes wins without a transport cap', { capBytes: 500 }, undefined, 500],
    ['content.capBytes 0 is kept', { capBytes: 0 }, 1_000_000, 0],
    ['else the transport cap less the reserve', {}, 1_000_000, 1_000_000 - 1024],
    ['content without capBytes is ignored', { explain: true }, 5_000, 5_000 - 1024],
    ['no transport cap: 32 MiB less the reserve', undefined, undefined, 32 * 1024 * 1024 - 1024],
  ])('%s', (_what, content, transportCap, expected) => {
    expect(resultCapBytes(options(content), transportCap)).toBe(expected);
  });
});

describe('pageSizeOf', () => {
  it('is 100 by default, else the option', () => {
    expect(pageSizeOf({})).toBe(100);
    expect(pageSizeOf({ pageSize: 7 })).toBe(7);
  });

  // 0 listed nothing, with no cursor; 2.5 handed out a cursor its next request refused.
  it.each([0, -1, 2.5, Number.NaN])('refuses pageSize %s when the server is made', (value) => {
    expect(() => createServer({ name: 'o', version: '1', pageSize: value })).toThrow(
      /pageSize must be a positive integer/,
    );
  });
});

describe('interestLimitsOf', () => {
  it('has safe defaults', () => {
    expect(DEFAULT_INTEREST_REFRESH_MS).toBe(5000);
    expect(DEFAULT_MAX_REMOTE_INTEREST).toBe(65_536);
    expect(interestLimitsOf()).toEqual({ interestRefreshMs: 5000, maxRemoteInterest: 65_536 });
    expect(interestLimitsOf({ interestRefreshMs: undefined } as never)).toEqual(interestLimitsOf());
  });

  it('takes the edges', () => {
    expect(interestLimitsOf({ interestRefreshMs: 10, maxRemoteInterest: 1 })).toEqual({
      interestRefreshMs: 10,
      maxRemoteInterest: 1,
    });
    expect(interestLimitsOf({ interestRefreshMs: MAX_INTEREST_REFRESH_MS }).interestRefreshMs).toBe(
      86_400_000,
    );
  });

  it.each([
    ['interestRefreshMs', 9],
    ['interestRefreshMs', MAX_INTEREST_REFRESH_MS + 1],
    ['interestRefreshMs', 100.5],
    ['interestRefreshMs', Number.NaN],
    ['interestRefreshMs', '5000'],
    ['maxRemoteInterest', 0],
    ['maxRemoteInterest', -1],
    ['maxRemoteInterest', 1.5],
    ['maxRemoteInterest', Number.POSITIVE_INFINITY],
  ])('refuses %s = %s with a RangeError naming it', (name, value) => {
    expect(() => interestLimitsOf({ [name]: value } as never)).toThrow(
      new RegExp(`^${name} must be`),
    );
    expect(() => interestLimitsOf({ [name]: value } as never)).toThrow(RangeError);
  });
});
