import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '../protocol/jsonrpc.js';
import { hostCapabilities, logSink } from './forward-request.js';

const log = (level: string): JSONRPCMessage => ({
  jsonrpc: '2.0',
  method: 'notifications/message',
  params: { level, data: level },
});

function levelsThrough(era: 'modern' | 'legacy', meta: Record<string, unknown>): string[] {
  const got: string[] = [];
  const sink = logSink(era, { _meta: meta }, (m) =>
    got.push(String((m as unknown as { params: { level: string } }).params.level)),
  );
  for (const level of ['debug', 'info', 'warning', 'error']) sink(log(level));
  return got;
}

describe('logSink', () => {
  it('gives a 2026-07-28 request no upstream log unless it named a level', () => {
    expect(levelsThrough('modern', {})).toEqual([]);
    expect(levelsThrough('modern', { 'io.modelcontextprotocol/logLevel': 'nonsense' })).toEqual([]);
  });

  it('gives a 2026-07-28 request the logs at or above its level', () => {
    expect(levelsThrough('modern', { 'io.modelcontextprotocol/logLevel': 'warning' })).toEqual([
      'warning',
      'error',
    ]);
  });

  it('leaves a 2025-11-25 session its logs (its level went upstream)', () => {
    expect(levelsThrough('legacy', {})).toEqual(['debug', 'info', 'warning', 'error']);
  });
});

describe('hostCapabilities', () => {
  it('reads the declared capabilities, or none', () => {
    const caps = { sampling: {} };
    expect(
      hostCapabilities({ _meta: { 'io.modelcontextprotocol/clientCapabilities': caps } }),
    ).toBe(caps);
    expect(
      hostCapabilities({ _meta: { 'io.modelcontextprotocol/clientCapabilities': [] } }),
    ).toEqual({});
    expect(hostCapabilities({})).toEqual({});
  });
});
