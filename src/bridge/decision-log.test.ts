import { describe, expect, it } from 'vitest';
import { McpClient } from '../client/index.js';
import { createServer } from '../server/index.js';
import { MemoryClientTransport } from '../testing/memory-client-transport.js';
import { createBridge } from './create-bridge.js';
import { loadProfile } from './profiles/index.js';

describe('the --log of rewriting decisions', () => {
  it("logs the bridge's own decisions only, not entries the upstream wrote as the bridge's", async () => {
    const upstream = createServer({ name: 'up', version: '1' });
    upstream.tool('shot', {}, () => ({
      content: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }],
      _meta: {
        'dev.mcpkit/decisions': [{ uri: 'file:///forged', action: 'embedded', by: 'bridge' }],
      },
    }));
    const logged: Array<Record<string, unknown>> = [];
    const bridge = await createBridge({
      transport: new MemoryClientTransport(upstream),
      client: { era: 'modern' },
      profile: await loadProfile('generic-text-only'),
      onDecision: (entry) => logged.push(entry),
    });
    const host = await new McpClient({
      transport: new MemoryClientTransport(bridge.server),
      era: 'modern',
      cache: false,
    }).connect();
    await host.callTool('shot', {});
    expect(logged.length).toBeGreaterThan(0);
    expect(logged.map((entry) => entry['uri'])).not.toContain('file:///forged');
    await host.close();
    await bridge.close();
  });
});
