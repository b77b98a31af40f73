import { describe, expect, it } from 'vitest';
import { coversUri } from './covers.js';

describe('coversUri', () => {
  it.each([
    ['file:///a', 'file:///a', true],
    ['file:///a', 'file:///a/b', true],
    ['file:///a', 'file:///a#x', true],
    ['file:///a', 'file:///a?v=2', true],
    ['file:///a/', 'file:///a/b', true],
    ['file:///a', 'file:///ab', false],
    ['file:///a', 'file:///', false],
    ['file:///a/b', 'file:///a', false],
    ['mem://x', 'mem://x.y', false],
    ['', 'file:///a', false],
  ])('%s covers %s: %s', (subscribed, uri, expected) => {
    expect(coversUri(subscribed, uri)).toBe(expected);
  });
});
