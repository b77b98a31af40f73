import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TRANSPORT_CAP_BYTES,
  ENVELOPE_RESERVE_BYTES,
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
