import { describe, expect, it } from 'vitest';
import { validateClientResult, validateDef, validateParams } from './validate.js';

const meta = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

describe('validateParams', () => {
  it('accepts valid modern params', () => {
    expect(
      validateParams('modern', 'resources/read', { _meta: meta, uri: 'test://x' }),
    ).toBeUndefined();
    expect(
      validateParams('modern', 'tools/call', { _meta: meta, name: 't', arguments: { a: 1 } }),
    ).toBeUndefined();
  });

  it.each([
    ['resources/read', { _meta: meta }, 'params.uri', 'params.uri is required'],
    ['resources/read', { _meta: meta, uri: 'no scheme' }, 'params.uri', 'absolute URI'],
    ['tools/call', { _meta: meta, name: 5 }, 'params.name', 'must be string'],
    ['tools/list', { _meta: meta, cursor: 3 }, 'params.cursor', 'must be string'],
    [
      'resources/list',
      { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
      'params._meta["io.modelcontextprotocol/clientCapabilities"]',
      'is required',
    ],
    ['subscriptions/listen', { _meta: meta }, 'params.notifications', 'is required'],
    [
      'prompts/get',
      { _meta: meta, name: 'p', arguments: { a: 1 } },
      'params.arguments.a',
      'must be string',
    ],
  ])('names the field for %s %j', (method, params, field, message) => {
    const issue = validateParams('modern', method, params);
    expect(issue?.field).toBe(field);
    expect(issue?.message).toContain(message);
  });

  it('uses the legacy schema for legacy requests', () => {
    expect(validateParams('legacy', 'resources/list', {})).toBeUndefined();
    expect(
      validateParams('legacy', 'initialize', { protocolVersion: '2025-11-25', capabilities: {} })
        ?.field,
    ).toBe('params.clientInfo');
  });

  it('ignores methods without a schema', () => {
    expect(validateParams('modern', 'vendor/custom', { anything: true })).toBeUndefined();
  });
});

describe('validateClientResult and validateDef', () => {
  it('checks a legacy client result', () => {
    expect(
      validateClientResult('elicitation/create', { action: 'accept', content: { a: 'b' } }),
    ).toBeUndefined();
    expect(validateClientResult('elicitation/create', { action: 'maybe' })?.field).toBe(
      'result.action',
    );
  });

  it('checks any named definition and fails loudly on unknown ones', () => {
    expect(validateDef('modern', 'TextContent', { type: 'text', text: 'hi' })).toBeUndefined();
    expect(validateDef('modern', 'TextContent', { type: 'text' })?.message).toContain(
      'value.text is required',
    );
    expect(() => validateDef('modern', 'NoSuchThing', {})).toThrow(/NoSuchThing/);
  });
});

describe('lookups by a client-chosen method name', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])(
    'treats %s as a method without a schema (never a prototype member)',
    (method) => {
      for (const era of ['modern', 'legacy'] as const) {
        expect(validateParams(era, method, {})).toBeUndefined();
      }
      expect(validateClientResult(method, {})).toBeUndefined();
    },
  );
});
