import { describe, expect, it } from 'vitest';
import { MCPKIT_ERROR_CODES, type McpKitErrorCode } from './codes.js';
import * as errors from './index.js';
import { isMcpKitError, McpKitError } from './mcpkit-error.js';

const CODES = Object.entries(MCPKIT_ERROR_CODES) as Array<[string, McpKitErrorCode]>;

describe('MCPKIT_ERROR_CODES', () => {
  it('has only values equal to their keys, in SCREAMING_SNAKE_CASE', () => {
    expect(CODES.length).toBeGreaterThan(0);
    for (const [key, value] of CODES) {
      expect(value).toBe(key);
      expect(key).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
    }
  });

  it('is exported from mcpkit/errors', () => {
    expect(errors.MCPKIT_ERROR_CODES).toBe(MCPKIT_ERROR_CODES);
    expect(errors.McpKitError).toBe(McpKitError);
  });

  it.each(CODES)('McpKitError and isMcpKitError accept %s', (_key, code) => {
    const cause = new Error('inner');
    const error = new McpKitError(code, `failed with ${code}`, { cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('McpKitError');
    expect(error.code).toBe(code);
    expect(error.message).toBe(`failed with ${code}`);
    expect(error.cause).toBe(cause);
    expect(isMcpKitError(error)).toBe(true);
    expect(isMcpKitError(error, code)).toBe(true);
    const other = CODES.find(([, c]) => c !== code)?.[1];
    if (other) expect(isMcpKitError(error, other)).toBe(false);
  });

  it('isMcpKitError refuses look-alikes', () => {
    const lookAlike = Object.assign(new Error('x'), {
      code: 'REQUEST_TIMEOUT',
      name: 'McpKitError',
    });
    expect(isMcpKitError(lookAlike)).toBe(false);
    expect(isMcpKitError({ code: 'REQUEST_TIMEOUT' }, 'REQUEST_TIMEOUT')).toBe(false);
    expect(isMcpKitError(null)).toBe(false);
  });
});
