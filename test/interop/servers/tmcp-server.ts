/**
 * A server written with tmcp (`tmcp`, `@tmcp/transport-stdio`, `@tmcp/transport-http`, zod via
 * `@tmcp/adapter-zod`), for McpClient's interop tests. tmcp serves both eras on one connection
 * or endpoint: 2026-07-28 per request, and `initialize` (it negotiates 2025-06-18 at most).
 * Run: node --import tsx test/interop/servers/tmcp-server.ts --stdio
 *      node --import tsx test/interop/servers/tmcp-server.ts --http   (prints "listening <url>")
 */
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { McpServer } from 'tmcp';
import { prompt, resource, tool } from 'tmcp/utils';
import { ZodJsonSchemaAdapter } from '@tmcp/adapter-zod';
import { StdioTransport } from '@tmcp/transport-stdio';
import { HttpTransport } from '@tmcp/transport-http';
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

export const TMCP_SERVER_INFO = { name: 'interop-tmcp', version: '1.20.0-test' };

export function createTmcpServer(): McpServer<z.ZodType> {
  const server = new McpServer<z.ZodType>(
    { ...TMCP_SERVER_INFO, description: 'tmcp interop server' },
    {
      adapter: new ZodJsonSchemaAdapter(),
      capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} },
      instructions: 'tmcp interop server',
      pagination: {
        tools: { size: PAGE_SIZE },
        resources: { size: PAGE_SIZE },
        prompts: { size: PAGE_SIZE },
      },
    },
  );

  for (const r of RESOURCES) {
    server.resource(
      { name: r.name, description: `resource ${r.name}`, uri: r.uri, mimeType: r.mimeType },
      (uri) =>
        'text' in r
          ? resource.text(uri, r.text, r.mimeType)
          : resource.blob(uri, Buffer.from(r.blob).toString('base64'), r.mimeType),
    );
  }
  server.template(
    { name: 'doc', description: 'A document by name', uri: DOC_TEMPLATE, mimeType: DOC_MIME },
    (uri, { name }) => resource.text(uri, docText(String(name)), DOC_MIME),
  );

  server.tool(
    {
      name: 'add',
      description: 'Adds two numbers',
      schema: z.object({ a: z.number(), b: z.number() }),
    },
    ({ a, b }) => tool.text(addText(a, b)),
  );
  server.tool(
    { name: 'shout', description: 'Upper-cases a text', schema: z.object({ text: z.string() }) },
    ({ text }) => tool.text(text.toUpperCase()),
  );
  server.tool(
    {
      name: 'link',
      description: 'Answers with a resource_link to the text or the blob resource',
      schema: z.object({ target: z.enum(['text', 'blob']) }),
    },
    ({ target }) => {
      const r = linkTarget(target);
      return tool.mix([
        tool.text(linkIntro(r.uri)),
        tool.resourceLink({ uri: r.uri, name: r.name, mimeType: r.mimeType }),
      ]);
    },
  );
  server.tool(
    {
      name: 'doc-link',
      description: 'Answers with a resource_link into the doc template',
      schema: z.object({ name: z.string() }),
    },
    ({ name }) => tool.resourceLink({ uri: docUri(name), name: `doc ${name}`, mimeType: DOC_MIME }),
  );

  server.prompt(
    {
      name: 'greet',
      description: 'Greets someone',
      schema: z.object({ who: z.string(), style: z.string().optional() }),
    },
    ({ who, style }) => prompt.message(greetText(who, style)),
  );
  server.prompt(
    { name: 'farewell', description: 'Says goodbye', schema: z.object({ who: z.string() }) },
    ({ who }) => prompt.message(farewellText(who)),
  );
  server.prompt({ name: 'recap', description: 'No arguments' }, () => prompt.message(RECAP_TEXT));
  server.prompt(
    { name: 'quote', description: 'A quote', schema: z.object({ topic: z.string() }) },
    ({ topic }) => prompt.message(quoteText(topic)),
  );
  return server;
}

/** tmcp's HttpTransport is fetch-shaped (`respond(Request)`); this mounts it on node:http. */
function toRequest(req: IncomingMessage): Request {
  const url = new URL(req.url ?? '/', `http://${req.headers.host ?? '127.0.0.1'}`);
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(key, v);
    else if (value !== undefined) headers.set(key, value);
  }
  const controller = new AbortController();
  req.socket.once('close', () => controller.abort()); // lets tmcp see a client go away
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = {
    method: req.method ?? 'GET',
    headers,
    signal: controller.signal,
  };
  if (hasBody) {
    init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  return new Request(url, init);
}

async function serveOverHttp(): Promise<void> {
  const transport = new HttpTransport(createTmcpServer(), { path: '/mcp' });
  const server = createHttpServer((req, res) => {
    void (async () => {
      try {
        const response =
          (await transport.respond(toRequest(req))) ?? new Response('Not Found', { status: 404 });
        res.writeHead(response.status, Object.fromEntries(response.headers));
        if (!response.body) {
          res.end();
          return;
        }
        res.flushHeaders();
        Readable.fromWeb(response.body as unknown as WebReadableStream<Uint8Array>)
          .on('error', () => res.destroy())
          .pipe(res);
      } catch (error) {
        if (!res.headersSent) res.writeHead(500);
        res.end(String(error));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`listening http://127.0.0.1:${port}/mcp\n`);
  const stop = (): void => {
    void transport.close().finally(() => {
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
  else if (process.argv.includes('--stdio')) new StdioTransport(createTmcpServer()).listen();
  else {
    process.stderr.write('usage: tmcp-server.ts --stdio | --http\n');
    process.exit(2);
  }
}
