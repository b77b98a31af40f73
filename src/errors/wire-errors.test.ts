import { describe, expect, it } from 'vitest';
import { ProtocolError } from './protocol-error.js';
import {
  headerMismatch,
  missingCapability,
  resourceNotFound,
  resourceRefused,
  resultTooLarge,
  unsupportedVersion,
} from './wire-errors.js';

function wire(error: ProtocolError) {
  expect(error).toBeInstanceOf(ProtocolError);
  return error.toJSON();
}

describe('wire error builders', () => {
  it.each([
    ['modern', -32602],
    ['legacy', -32002],
  ] as const)('resourceNotFound in the %s era is %d with data.uri', (era, code) => {
    expect(wire(resourceNotFound('mem://x', era))).toEqual({
      code,
      message: 'Resource not found: mem://x',
      data: { uri: 'mem://x' },
    });
    expect(resourceNotFound('mem://x', era, ' (expired)').message).toBe(
      'Resource not found: mem://x (expired)',
    );
  });

  it('resourceRefused is -32602 quoting the URI, with the variable when given', () => {
    expect(wire(resourceRefused('file:///a/../b', 'traversal'))).toEqual({
      code: -32602,
      message: 'Refused resource URI "file:///a/../b": traversal',
      data: { uri: 'file:///a/../b' },
    });
    expect(resourceRefused('file:///%00', 'NUL', 'path').message).toBe(
      'Refused resource URI "file:///%00" (variable "path"): NUL',
    );
  });

  it('headerMismatch is -32020 naming the header', () => {
    expect(wire(headerMismatch('Mcp-Method disagrees', 'Mcp-Method'))).toEqual({
      code: -32020,
      message: 'Mcp-Method disagrees',
      data: { header: 'Mcp-Method' },
    });
  });

  it('unsupportedVersion is -32022 with a copy of supported and the requested version', () => {
    const supported = ['2026-07-28'];
    const error = unsupportedVersion('v9', supported);
    expect(wire(error)).toEqual({
      code: -32022,
      message: 'Unsupported protocol version "v9"; supported: 2026-07-28',
      data: { supported: ['2026-07-28'], requested: 'v9' },
    });
    expect((error.data as { supported: string[] }).supported).not.toBe(supported);
    expect(unsupportedVersion('v9', ['a', 'b'], 'custom').message).toBe('custom');
    expect(unsupportedVersion('v9', ['a', 'b']).message).toBe(
      'Unsupported protocol version "v9"; supported: a, b',
    );
  });

  it('missingCapability is -32021 with requiredCapabilities', () => {
    expect(wire(missingCapability('tools/call', 'elicitation'))).toEqual({
      code: -32021,
      message:
        'tools/call needs the client capability "elicitation", which this request did not declare',
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  it("resultTooLarge is -32603 with the sizes and reason 'too-large', over any given reason", () => {
    const data = { size: 10, cap: 5, reason: 'other' };
    expect(wire(resultTooLarge('too big', data))).toEqual({
      code: -32603,
      message: 'too big',
      data: { size: 10, cap: 5, reason: 'too-large' },
    });
    expect(data.reason).toBe('other');
  });
});
