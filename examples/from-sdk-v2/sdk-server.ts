// The notes server with the official TypeScript SDK v2 (@modelcontextprotocol/server).
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';

const notes = new Map([['hello', '# Hello\n']]);

function build(): McpServer {
  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  server.registerResource(
    'note',
    new ResourceTemplate('note://{name}', { list: undefined }),
    { mimeType: 'text/markdown' },
    async (uri, { name }) => {
      const text = notes.get(String(name));
      if (text === undefined) throw new Error(`no note ${String(name)}`);
      return { contents: [{ uri: uri.href, mimeType: 'text/markdown', text }] };
    },
  );
  server.registerTool(
    'shout',
    { description: 'Upper-cases a text', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
  );
  server.registerPrompt(
    'greet',
    { argsSchema: z.object({ who: z.string() }) },
    async ({ who }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${who}.` } }],
    }),
  );
  return server;
}

serveStdio(build);
