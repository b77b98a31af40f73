/**
 * The stdio examples (examples/notes, artifact, prompt-files, ask, url-resource), each started as a user would
 * (`tsx examples/.../server.ts`) and used through mcpkit's client, in both protocol eras.
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpClient } from '../../src/client/index.js';
import { connect } from '../../src/transports/connect.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const open: McpClient[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});

type Era = 'modern' | 'legacy';
async function start(
  example: string,
  era: Era,
  sure?: boolean,
  env?: Record<string, string>,
): Promise<McpClient> {
  const client = await connect({
    command: process.execPath,
    args: ['--import', 'tsx', `examples/${example}/server.ts`],
    cwd: ROOT,
    ...(env ? { env: { ...(process.env as Record<string, string>), ...env } } : {}),
    client: {
      era,
      handlers: {
        elicitation: async () => ({ action: 'accept', content: { sure: sure ?? false } }),
      },
    },
  });
  open.push(client);
  return client;
}

describe.each(['modern', 'legacy'] as const)('examples over stdio (%s)', (era) => {
  it('notes: listed, completed, read by name and by revision; a missing one is not found', async () => {
    const client = await start('notes', era);
    const listed = [];
    for await (const r of client.resources()) listed.push(r.uri);
    expect(listed.sort()).toEqual(['note://hello', 'note://todo']);
    const done = await client.complete(
      { type: 'ref/resource', uri: 'note://{name}{?rev}' },
      { name: 'name', value: 't' },
    );
    expect(done.completion.values).toEqual(['todo']);
    expect((await client.readResource('note://hello')).contents[0]).toMatchObject({
      text: '# Hello, world\n',
    });
    expect((await client.readResource('note://hello?rev=0')).contents[0]).toMatchObject({
      text: '# Hello\n',
    });
    await expect(client.readResource('note://nothing')).rejects.toMatchObject({
      code: era === 'modern' ? -32602 : -32002,
    });
  });

  it('artifact: the default export is embedded, a large one linked as an artifact the client can read back', async () => {
    const client = await start('artifact', era);
    const small = await client.callTool('export-rows', { rows: 3 });
    expect(small.content[1]).toMatchObject({
      type: 'resource',
      resource: { mimeType: 'text/csv', text: 'id,value\n0,0\n1,7\n2,14\n' },
    });
    // The default 50,000 rows (about 480 KB) fit the 1 MiB block budget: embedded, as its header says.
    const byDefault = await client.callTool('export-rows', {});
    expect(byDefault.content[1]).toMatchObject({
      type: 'resource',
      resource: { mimeType: 'text/csv' },
    });
    const large = await client.callTool('export-rows', { rows: 200_000 });
    const link = large.content[1] as { type: string; uri: string };
    expect(link.type).toBe('resource_link');
    expect(link.uri).toMatch(/^mcpkit:\/\/artifacts\//);
    const first = (await client.readResource(link.uri)).contents[0] as { text?: string };
    expect(first.text?.startsWith('id,value\n0,0\n')).toBe(true);
  });

  it('prompt-files: the spec embedded, the changelog linked', async () => {
    const client = await start('prompt-files', era);
    const { messages } = await client.getPrompt('check-spec');
    expect(messages[0]?.content).toMatchObject({
      type: 'resource',
      resource: { uri: 'doc:///spec.md', text: expect.stringContaining('100 ms') },
    });
    expect(messages[1]?.content).toMatchObject({
      type: 'resource_link',
      uri: 'doc:///changelog.md',
    });
  });

  it('url-resource: read through the SSRF guard; loopback refused unless allowed', async () => {
    const docs = createHttpServer((req, res) => {
      if (req.url === '/guide.md')
        res.writeHead(200, { 'content-type': 'text/markdown' }).end('# Guide\n');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(docs.address() as AddressInfo).port}/`;
      const allowed = await start('url-resource', era, undefined, {
        DOCS_BASE: base,
        GUARD_ALLOW: '127.0.0.1',
      });
      expect((await allowed.readResource('docs://guide')).contents[0]).toMatchObject({
        uri: 'docs://guide',
        mimeType: 'text/markdown',
        text: '# Guide\n',
      });
      await expect(allowed.readResource('docs://missing')).rejects.toMatchObject({
        code: era === 'modern' ? -32602 : -32002,
      });
      // Without the allow-list entry the guard refuses 127.0.0.1: nothing is fetched.
      const guarded = await start('url-resource', era, undefined, {
        DOCS_BASE: base,
        GUARD_ALLOW: '',
      });
      await expect(guarded.readResource('docs://guide')).rejects.toMatchObject({ code: -32603 });
    } finally {
      docs.closeAllConnections();
      await new Promise<void>((resolve) => docs.close(() => resolve()));
    }
  });

  it.each([true, false])('ask: the user is asked first (sure: %s)', async (sure) => {
    const client = await start('ask', era, sure);
    const result = await client.callTool('delete-note', { name: 'todo' });
    expect(result.content[0]).toEqual({ type: 'text', text: sure ? 'Deleted todo.' : 'Kept it.' });
  });
});
