import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_SOCKETS_PER_ORIGIN, resolveClientOptions } from './client-options.js';

describe('maxSocketsPerOrigin', () => {
  it('defaults to 16', () => {
    expect(DEFAULT_MAX_SOCKETS_PER_ORIGIN).toBe(16);
    expect(resolveClientOptions({ url: 'http://127.0.0.1:1/mcp' }).maxSocketsPerOrigin).toBe(16);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses %s, naming the option', (value) => {
    expect(() =>
      resolveClientOptions({ url: 'http://127.0.0.1:1/mcp', maxSocketsPerOrigin: value }),
    ).toThrow(/maxSocketsPerOrigin must be a positive integer/);
  });
});
