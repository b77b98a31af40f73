import { describe, expect, it } from 'vitest';
import {
  DEFAULT_KEYS_AGE_MS,
  MAX_KEYS_AGE_MS,
  MIN_KEYS_AGE_MS,
  keysLifetimeMs,
} from './keys-lifetime.js';

describe('keysLifetimeMs', () => {
  it('takes max-age, less Age', () => {
    expect(keysLifetimeMs('public, max-age=3600')).toBe(3_600_000);
    expect(keysLifetimeMs('max-age="600", must-revalidate')).toBe(600_000);
    expect(keysLifetimeMs('MAX-AGE=7200', '600')).toBe(6_600_000);
  });

  it('bounds it to 1 minute .. 24 hours', () => {
    expect(keysLifetimeMs('max-age=5')).toBe(MIN_KEYS_AGE_MS);
    expect(keysLifetimeMs('max-age=0')).toBe(MIN_KEYS_AGE_MS);
    expect(keysLifetimeMs('max-age=600', '900')).toBe(MIN_KEYS_AGE_MS);
    expect(keysLifetimeMs('max-age=31536000')).toBe(MAX_KEYS_AGE_MS);
    expect(keysLifetimeMs('no-store')).toBe(MIN_KEYS_AGE_MS);
    expect(keysLifetimeMs('max-age=3600, no-cache')).toBe(MIN_KEYS_AGE_MS);
  });

  it('keeps the default without a usable max-age, and the shorter of two', () => {
    expect(keysLifetimeMs(undefined)).toBe(DEFAULT_KEYS_AGE_MS);
    expect(keysLifetimeMs('public')).toBe(DEFAULT_KEYS_AGE_MS);
    expect(keysLifetimeMs('max-age=-5')).toBe(DEFAULT_KEYS_AGE_MS);
    expect(keysLifetimeMs('max-age=1e9')).toBe(DEFAULT_KEYS_AGE_MS);
    expect(keysLifetimeMs('s-maxage=60')).toBe(DEFAULT_KEYS_AGE_MS);
    expect(keysLifetimeMs('max-age=7200, max-age=120')).toBe(120_000);
  });
});
