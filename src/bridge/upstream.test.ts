import { describe, expect, it } from 'vitest';
import { McpClient, type ClientTransportSink } from '../client/index.js';
import { McpKitError } from '../errors/index.js';
import { createServer } from '../server/index.js';
import { MemoryClientTransport } from '../testing/memory-client-transport.js';
import { createBridge } from './create-bridge.js';
import { Upstream } from './upstream.js';

/** An in-memory upstream that can drop its connection, and takes 30 ms to start again. */
class DroppingTransport extends MemoryClientTransport {
  private current: ClientTransportSink | undefined;
  private starts = 0;

  override async start(sink: ClientTransportSink): Promise<void> {
    this.current = sink;
    if (this.starts++ > 0) await new Promise((resolve) => setTimeout(resolve, 30));
    return super.start(sink);
  }

  drop(): void {
    this.current?.closed(new McpKitError('PEER_CLOSED', 'the server process exited'));
  }
}

describe('Upstream', () => {
  it('waits for a restart within a timeout past what one timer holds (2^31 ms)', async () => {
    const transport = new DroppingTransport(createServer({ name: 'up', version: '1' }));
    const upstream = new Upstream({ transport, era: 'modern' });
    await upstream.connect();
    transport.drop();
    const client = await upstream.ready(30 * 24 * 3600 * 1000);
    expect(client.connected).toBe(true);
    await upstream.close();
  });
});

describe("the bridge's own tools while the upstream restarts", () => {
  it('list_resources waits for the restart, as read_resource and forwarded requests do', async () => {
    const server = createServer({ name: 'up', version: '1' });
    server.resource('test://doc', { name: 'doc', mimeType: 'text/plain' }, () => 'hello');
    const transport = new DroppingTransport(server);
    const bridge = await createBridge({
      transport,
      client: { era: 'modern' },
      profile: { name: 'no-reads', readsResources: false },
    });
    const host = await new McpClient({
      transport: new MemoryClientTransport(bridge.server),
      era: 'modern',
      cache: false,
    }).connect();
    transport.drop();
    const listed = await host.callTool('list_resources', {});
    expect(listed.isError).toBeFalsy();
    expect(JSON.stringify(listed.structuredContent)).toContain('test://doc');
    await host.close();
    await bridge.close();
  });
});
