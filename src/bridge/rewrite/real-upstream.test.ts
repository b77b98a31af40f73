import { describe, expect, it } from 'vitest';
import { McpClient } from '../../client/index.js';
import { createServer } from '../../server/server.js';
import { MemoryClientTransport } from '../../testing/memory-client-transport.js';
import { loadProfile } from '../profiles/index.js';
import { DECISIONS_META_KEY, rewriteToolResult, type Decision } from './index.js';

async function upstream() {
  const server = createServer({ name: 'up', version: '1' });
  server.resource('test://doc/{n}', { name: 'doc', mimeType: 'text/plain' }, (uri, { n }) => ({
    contents: [
      { uri, mimeType: 'text/plain', text: n === 'big' ? 'ü'.repeat(50_000) : `document ${n}` },
    ],
  }));
  const client = new McpClient({ transport: new MemoryClientTransport(server) });
  await client.connect();
  return client;
}

describe('rewriting against a real upstream (McpServer in memory)', () => {
  it('reads links with resources/read, cuts a link that lies about its size', async () => {
    const client = await upstream();
    const out = await rewriteToolResult(
      {
        content: [
          { type: 'resource_link', uri: 'test://doc/1', name: 'one' },
          { type: 'resource_link', uri: 'test://doc/big', name: 'big', size: 10 },
        ],
      },
      {
        profile: await loadProfile('claude-code'),
        upstream: client,
        maxLinkBytes: 4096,
        readToolName: 'read_resource',
      },
    );
    const decisions = out._meta?.[DECISIONS_META_KEY] as Decision[];
    expect(decisions[0]).toMatchObject({ uri: 'test://doc/1', action: 'embedded' });
    expect(out.content[0]).toEqual({
      type: 'resource',
      resource: { uri: 'test://doc/1', mimeType: 'text/plain', text: 'document 1' },
    });
    expect(decisions[1]).toMatchObject({ uri: 'test://doc/big' });
    expect(decisions[1]?.reason).toMatch(/^size: /);
    const bigText = out.content
      .map((b) =>
        b.type === 'resource' && 'text' in b.resource
          ? b.resource.text
          : b.type === 'text'
            ? b.text
            : '',
      )
      .join('');
    expect(Buffer.byteLength(bigText)).toBeLessThan(4096 + 1024);
    expect(bigText).toContain('test://doc/big');
    await client.close();
  });
});
