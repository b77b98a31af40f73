/**
 * A server written with the official SDK v2 (`@modelcontextprotocol/server`), for McpClient's
 * interop tests. Both eras: over stdio (`serveStdio`, the opening message pins the era of the
 * connection) and over HTTP on one endpoint (`createMcpHandler`: 2026-07-28 per request,
 * 2025-11-25 through the stateless legacy fallback).
 * Run: node --import tsx test/interop/servers/sdk-server.ts --stdio
 *      node --import tsx test/interop/servers/sdk-server.ts --http   (prints "listening <url>")
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  McpServer,
  ProtocolError,
  ProtocolErrorCode,
  ResourceTemplate,
  createMcpHandler,
  hostHeaderValidationResponse,
  localhostAllowedHostnames,
} from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { toNodeHandler, type NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { z } from 'zod';
import {
  DOC_MIME,
  DOC_TEMPLATE,
  PAGE_SIZE,
  RECAP_TEXT,
  RESOURCES,
  addText,
  docText,
  docUri,
  farewellText,
  greetText,
  linkIntro,
  linkTarget,
  quoteText,
} from './content.js';

export const SDK_SERVER_INFO = { name: 'interop-sdk-v2', version: '2.4.0-test' };

export function createSdkServer(): McpServer {
  const server = new McpServer(SDK_SERVER_INFO, {
    capabilities: { tools: {}, resources: {}, prompts: {} },
    instructions: 'SDK v2 interop server',
  });

  for (const r of RESOURCES) {
    server.registerResource(r.name, r.uri, { mimeType: r.mimeType }, async (uri) => ({
      contents: [
        'text' in r
          ? { uri: uri.href, mimeType: r.mimeType, text: r.text }
          : { uri: uri.href, mimeType: r.mimeType, blob: Buffer.from(r.blob).toString('base64') },
      ],
    }));
  }
  server.registerResource(
    'doc',
    new ResourceTemplate(DOC_TEMPLATE, { list: undefined }),
    { mimeType: DOC_MIME, description: 'A document by name' },
    async (uri, { name }) => ({
      contents: [{ uri: uri.href, mimeType: DOC_MIME, text: docText(String(name)) }],
    }),
  );
  // McpServer answers resources/list in one page; the protocol layer takes cursors, so page here.
  server.server.setRequestHandler('resources/list', async (request) => {
    const cursor = request.params?.cursor;
    const offset = cursor === undefined ? 0 : Number(cursor);
    if (!Number.isSafeInteger(offset) || offset < 0 || offset >= RESOURCES.length) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `bad cursor ${String(cursor)}`);
    }
    const end = offset + PAGE_SIZE;
    return {
      resources: RESOURCES.slice(offset, end).map(({ uri, name, mimeType }) => ({
        uri,
        name,
        mimeType,
      })),
      ...(end < RESOURCES.length ? { nextCursor: String(end) } : {}),
    };
  });

  server.registerTool(
    'add',
    { description: 'Adds two numbers', inputSchema: z.object({ a: z.number(), b: z.number() }) },
    async ({ a, b }) => ({ content: [{ type: 'text', text: addText(a, b) }] }),
  );
  server.registerTool(
    'shout',
    { description: 'Upper-cases a text', inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
  );
  server.registerTool(
    'link',
    {
      description: 'Answers with a resource_link to the text or the blob resource',
      inputSchema: z.object({ target: z.enum(['text', 'blob']) }),
    },
    async ({ target }) => {
      const r = linkTarget(target);
      return {
        content: [
          { type: 'text', text: linkIntro(r.uri) },
          { type: 'resource_link', uri: r.uri, name: r.name, mimeType: r.mimeType },
        ],
      };
    },
  );
  server.registerTool(
    'doc-link',
    {
      description: 'Answers with a resource_link into the doc template',
      inputSchema: z.object({ name: z.string() }),
    },
    async ({ name }) => ({
      content: [
        { type: 'resource_link', uri: docUri(name), name: `doc ${name}`, mimeType: DOC_MIME },
      ],
    }),
  );

  const say = (text: string) => ({
    messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }],
  });
  server.registerPrompt(
    'greet',
    {
      description: 'Greets someone',
      argsSchema: z.object({ who: z.string(), style: z.string().optional() }),
    },
    ({ who, style }) => say(greetText(who, style)),
  );
  server.registerPrompt(
    'farewell',
    { description: 'Says goodbye', argsSchema: z.object({ who: z.string() }) },
    ({ who }) => say(farewellText(who)),
  );
  server.registerPrompt('recap', { description: 'No arguments' }, () => say(RECAP_TEXT));
  server.registerPrompt(
    'quote',
    { description: 'A quote', argsSchema: z.object({ topic: z.string() }) },
    ({ topic }) => say(quoteText(topic)),
  );
  return server;
}

async function serveOverHttp(): Promise<void> {
  const handler = createMcpHandler(() => createSdkServer(), {
    legacy: 'stateless',
    responseMode: 'auto',
  });
  const node = toNodeHandler({
    fetch: async (request, options) =>
      hostHeaderValidationResponse(request, localhostAllowedHostnames()) ??
      handler.fetch(request, options),
  });
  const server = createHttpServer((req, res) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== '/mcp') {
      res.writeHead(404).end();
      return;
    }
    // exactOptionalPropertyTypes: IncomingMessage's `method?: string | undefined` is the same thing.
    void node(req as NodeIncomingMessageLike, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening http://127.0.0.1:${port}/mcp\n`);
  const stop = (): void => {
    void Promise.resolve(handler.close()).finally(() => {
      server.closeAllConnections();
      server.close(() => process.exit(0));
    });
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // The parent went away without signalling: do not outlive it.
  process.stdin.on('end', stop);
  process.stdin.resume();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  if (process.argv.includes('--http')) await serveOverHttp();
  else if (process.argv.includes('--stdio'))
    serveStdio(() => createSdkServer(), { legacy: 'serve' });
  else {
    process.stderr.write('usage: sdk-server.ts --stdio | --http\n');
    process.exit(2);
  }
}
