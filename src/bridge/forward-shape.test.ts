import { describe, expect, it } from 'vitest';
import { McpKitError, ProtocolError } from '../errors/index.js';
import { hostError, hostResult, upstreamParams } from './forward-shape.js';

const INFO = { name: 'up', version: '1' };

describe('upstreamParams', () => {
  it("drops the host's envelope keys and keeps every other _meta key", () => {
    const params = {
      name: 't',
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'host', version: '1' },
        progressToken: 7,
        'dev.mcpkit/maxMessageBytes': 1000,
        'com.example/trace': 'abc',
      },
    };
    expect(upstreamParams(params)).toEqual({ name: 't', _meta: { 'com.example/trace': 'abc' } });
    expect(upstreamParams({ name: 't', _meta: { progressToken: 1 } })).toEqual({ name: 't' });
  });
});

describe('hostResult', () => {
  it('2026-07-28: resultType, cache hints for lists and reads, serverInfo next to the upstream _meta', () => {
    const out = hostResult('tools/list', { tools: [], _meta: { 'x/y': 1 } }, 'modern', INFO);
    expect(out).toEqual({
      tools: [],
      resultType: 'complete',
      ttlMs: 0,
      cacheScope: 'public',
      _meta: { 'x/y': 1, 'io.modelcontextprotocol/serverInfo': INFO },
    });
    expect(hostResult('tools/call', { content: [] }, 'modern', INFO)).not.toHaveProperty('ttlMs');
  });

  it('2025-11-25: the 2026-07-28 fields out, non-object output schemas dropped from the listing', () => {
    const upstream = {
      tools: [
        { name: 'a', inputSchema: { type: 'object' }, outputSchema: { type: 'array' } },
        { name: 'b', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } },
      ],
      resultType: 'complete',
      ttlMs: 5,
      cacheScope: 'public',
      _meta: { 'io.modelcontextprotocol/serverInfo': INFO },
    };
    expect(hostResult('tools/list', upstream, 'legacy', INFO)).toEqual({
      tools: [
        { name: 'a', inputSchema: { type: 'object' } },
        { name: 'b', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } },
      ],
    });
  });
});

describe('hostError', () => {
  it("keeps the upstream's JSON-RPC error and names the upstream for the bridge's own failures", () => {
    const own = new ProtocolError(-32602, 'bad');
    expect(hostError('tools/call', own)).toBe(own);
    const lost = hostError(
      'tools/call',
      new McpKitError('REQUEST_TIMEOUT', 'no answer in 1000 ms'),
    );
    expect(lost.code).toBe(-32603);
    expect(lost.message).toBe(
      'tools/call: the upstream server failed: no answer in 1000 ms (REQUEST_TIMEOUT)',
    );
  });
});
