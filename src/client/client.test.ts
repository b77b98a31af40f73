import { afterEach, describe, expect, it } from 'vitest';
import { createE2eServer } from '../testing/e2e-server.js';
import { MemoryClientTransport } from '../testing/memory-client-transport.js';
import { McpClient } from './client.js';

const clients: McpClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function open(era?: 'modern' | 'legacy', kind: 'stdio' | 'http' = 'stdio') {
  const transport = new MemoryClientTransport(createE2eServer(), kind);
  const client = new McpClient({ transport, ...(era ? { era } : {}) });
  clients.push(client);
  await client.connect();
  return { client, transport };
}

describe('McpClient against an mcpkit server in memory', () => {
  it('detects 2026-07-28 with server/discover and exposes the capabilities', async () => {
    const { client, transport } = await open();
    expect(client.era).toBe('modern');
    expect(client.protocolVersion).toBe('2026-07-28');
    expect(client.serverCapabilities?.tools).toBeDefined();
    expect(client.serverInfo?.name).toBe('mcpkit-e2e');
    expect(transport.sent[0]).toMatchObject({ method: 'server/discover' });
  });

  it('lists, calls, reads and gets a prompt', async () => {
    const { client, transport } = await open();
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('echo');
    const result = await client.callTool('echo', { text: 'hi' });
    expect(result.content[0]).toMatchObject({ type: 'text', text: 'hi' });
    const read = await client.readResource('mem://hello');
    expect(read.contents[0]).toMatchObject({ text: 'Hello, e2e' });
    const call = transport.sent.find(
      (m) => 'method' in m && m.method === 'tools/call',
    ) as unknown as {
      params: { _meta: Record<string, unknown> };
    };
    expect(call.params._meta['io.modelcontextprotocol/protocolVersion']).toBe('2026-07-28');
    expect(call.params._meta['dev.mcpkit/maxMessageBytes']).toBe(33_554_432);
    const ids = transport.sent.filter((m) => 'id' in m).map((m) => (m as { id: number }).id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('speaks 2025-11-25 when pinned', async () => {
    const { client, transport } = await open('legacy');
    expect(client.era).toBe('legacy');
    expect(transport.sent[0]).toMatchObject({ method: 'initialize' });
    expect(transport.sent[1]).toMatchObject({ method: 'notifications/initialized' });
    const result = await client.callTool('echo', { text: 'old' });
    expect(result.content[0]).toMatchObject({ text: 'old' });
  });
});
