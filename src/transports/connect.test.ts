import { afterEach, describe, expect, it } from 'vitest';
import type { McpClient } from '../client/index.js';
import { createE2eServer } from '../testing/e2e-server.js';
import { connect } from './connect.js';
import { serveHttp, type RunningHttpServer } from './node.js';

const clients: McpClient[] = [];
const servers: RunningHttpServer[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('connect()', () => {
  it('over HTTP from a url: detects the era and passes client options through', async () => {
    const running = await serveHttp(createE2eServer(), { port: 0 });
    servers.push(running);
    const client = await connect({
      url: running.url,
      client: { clientInfo: { name: 'connect-test', version: '2' }, era: 'legacy' },
    });
    clients.push(client);
    expect(client.era).toBe('legacy');
    expect((await client.callTool('echo', { text: 'hi' })).content[0]).toMatchObject({
      text: 'hi',
    });
  });

  it('over stdio from a command', async () => {
    const client = await connect({
      command: process.execPath,
      args: ['--import', 'tsx', 'src/testing/e2e-server.ts', '--stdio'],
    });
    clients.push(client);
    expect(client.era).toBe('modern');
    expect(client.transport.kind).toBe('stdio');
    expect((await client.readResource('mem://hello')).contents[0]).toMatchObject({
      text: 'Hello, e2e',
    });
  });
});
