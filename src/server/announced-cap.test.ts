import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '../protocol/jsonrpc.js';
import { initializeRequest, legacy, modern } from '../testing/messages.js';
import { MAX_MESSAGE_BYTES_META } from '../protocol/index.js';
import { announcedMaxBytes } from './announced-cap.js';
import type { RequestContext } from './context.js';
import { ENVELOPE_RESERVE_BYTES, resultCapBytes } from './options.js';
import { createServer } from './server.js';

function setup(transportCap = 1_000_000, capBytes?: number) {
  const server = createServer({
    name: 'cap',
    version: '1',
    onError: () => {},
    ...(capBytes !== undefined ? { content: { capBytes } } : {}),
  });
  const seen: number[] = [];
  server.prompt('capture', {}, (_args, c: RequestContext) => {
    seen.push(c.capBytes);
    return 'ok';
  });
  const sent: JSONRPCMessage[] = [];
  const peer = server.connect({
    transport: 'memory',
    send: (m) => sent.push(m),
    maxMessageBytes: transportCap,
  });
  return { peer, seen };
}

describe('the cap a client announces', () => {
  it('lowers the per-request cap of a 2026-07-28 request, never raises it', async () => {
    const { peer, seen } = setup();
    await peer.handle(
      modern('prompts/get', { name: 'capture', _meta: { [MAX_MESSAGE_BYTES_META]: 65_536 } }),
    );
    await peer.handle(
      modern('prompts/get', { name: 'capture', _meta: { [MAX_MESSAGE_BYTES_META]: 50_000_000 } }),
    );
    await peer.handle(modern('prompts/get', { name: 'capture' }));
    expect(seen).toEqual([65_536, 1_000_000, 1_000_000].map((n) => n - ENVELOPE_RESERVE_BYTES));
  });

  it("lowers the server's own content.capBytes too (the client cannot take more)", async () => {
    const { peer, seen } = setup(1_000_000, 500_000);
    await peer.handle(
      modern('prompts/get', { name: 'capture', _meta: { [MAX_MESSAGE_BYTES_META]: 65_536 } }),
    );
    await peer.handle(
      modern('prompts/get', { name: 'capture', _meta: { [MAX_MESSAGE_BYTES_META]: 50_000_000 } }),
    );
    await peer.handle(modern('prompts/get', { name: 'capture' }));
    expect(seen).toEqual([65_536 - ENVELOPE_RESERVE_BYTES, 500_000, 500_000]);
  });

  it('comes from capabilities.experimental of a 2025-11-25 initialize', async () => {
    const { peer, seen } = setup();
    await peer.handle(
      initializeRequest({ experimental: { [MAX_MESSAGE_BYTES_META]: { bytes: 100_000 } } }),
    );
    await peer.handle({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await peer.handle(legacy('prompts/get', { name: 'capture' }));
    expect(seen).toEqual([100_000 - ENVELOPE_RESERVE_BYTES]);
  });

  it('ignores announcements that are not sane integers', () => {
    for (const bad of [0, 100, 4095, 1.5, -1, '65536', null, Number.MAX_VALUE]) {
      expect(announcedMaxBytes({ [MAX_MESSAGE_BYTES_META]: bad }, undefined)).toBeUndefined();
    }
    expect(announcedMaxBytes({ [MAX_MESSAGE_BYTES_META]: 4096 }, undefined)).toBe(4096);
    const e = ENVELOPE_RESERVE_BYTES;
    expect(resultCapBytes({ name: 'n', version: '1' }, undefined, 5000)).toBe(5000 - e);
    expect(resultCapBytes({ name: 'n', version: '1' }, 8000, undefined)).toBe(8000 - e);
  });
});
