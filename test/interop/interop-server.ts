/**
 * The mcpkit server the official SDK client talks to in the interop tests.
 * Run: node --import tsx test/interop/interop-server.ts --stdio
 *      node --import tsx test/interop/interop-server.ts --http   (prints "listening <url>" on stdout)
 * With INTEROP_PID_DIR set, the process leaves a file named after its pid there, so a test can
 * check that every process it caused (including the SDK's probe siblings) is gone afterwards.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { createServer, type McpServer } from '../../src/server/index.js';
import { serveStdio } from '../../src/transports/stdio/server/index.js';
import { serveHttp } from '../../src/transports/node.js';

export const PAGE_SIZE = 40;
export const ITEM_COUNT = 250;
export const itemUri = (i: number): string => `interop://item/${String(i).padStart(3, '0')}`;

export const TEXT_URI = 'interop://text/hello';
export const TEXT = 'Hello, interop! ünïcödé ✓ \u{1F600}\nsecond line\n';
export const BLOB_URI = 'interop://blob/all-bytes';
export const BLOB_MIME = 'application/octet-stream';
/** Every byte value twice, in both directions: catches base64, UTF-8 and sign mix-ups. */
export const BLOB_BYTES = Uint8Array.from({ length: 512 }, (_, i) => (i < 256 ? i : 511 - i));

export const LARGE_URI = 'interop://text/large';
/** ~1.5 MB of mixed 1- to 4-byte UTF-8, so lines and chunks split inside characters. */
export const LARGE_TEXT = 'ab€😀ü\n'.repeat(100_000);
/** A prompt name that is not ASCII: over HTTP the client sends it as `Mcp-Name: =?base64?…?=`. */
export const UNICODE_PROMPT = 'grüße ☕';

export const DOCS: Record<string, string> = {
  alpha: '# Alpha\n',
  beta: '# Beta\n',
  'gamma ray': '# Gamma ray\n',
};
export const DOC_TEMPLATE = 'interop://doc/{name}';
export const WHO = ['Ada', 'Alan', 'Barbara', 'Grace'];

/** Errors handlers threw, other than the deliberate one of the "explode" tool. */
export type UnexpectedErrorSink = (error: unknown, method: string) => void;

export function createInteropServer(onUnexpectedError?: UnexpectedErrorSink): McpServer {
  const server = createServer({
    name: 'mcpkit-interop',
    version: '1.2.3',
    pageSize: PAGE_SIZE,
    instructions: 'Interop test server',
    onError: (error, method) => {
      if (error instanceof Error && error.message === 'kaboom') return;
      (onUnexpectedError ?? ((e, m) => console.error(`interop-server: ${m} failed:`, e)))(
        error,
        method,
      );
    },
  });

  server.resource(
    TEXT_URI,
    { name: 'hello', title: 'Hello text', mimeType: 'text/plain' },
    () => TEXT,
  );
  server.resource(
    BLOB_URI,
    { name: 'all-bytes', mimeType: BLOB_MIME, size: BLOB_BYTES.length },
    () => ({
      blob: Buffer.from(BLOB_BYTES).toString('base64'),
    }),
  );
  server.resource(
    LARGE_URI,
    { name: 'large', mimeType: 'text/plain; charset=utf-8' },
    () => LARGE_TEXT,
  );
  for (let i = 0; i < ITEM_COUNT; i++) {
    server.resource(itemUri(i), { name: `item-${i}`, mimeType: 'text/plain' }, () => `item ${i}`);
  }
  server.resource(
    DOC_TEMPLATE,
    {
      name: 'doc',
      description: 'A document by name',
      mimeType: 'text/markdown',
      complete: { name: (value) => Object.keys(DOCS).filter((n) => n.startsWith(value)) },
    },
    (_uri, { name }) => (typeof name === 'string' ? DOCS[name] : undefined),
  );

  server.prompt(
    'greet',
    {
      title: 'Greeting',
      description: 'Greets someone',
      arguments: [
        { name: 'who', description: 'Whom to greet', required: true },
        { name: 'style', description: 'formal or casual' },
      ],
      complete: {
        who: (value) => WHO.filter((w) => w.toLowerCase().startsWith(value.toLowerCase())),
        style: () => ['formal', 'casual'],
      },
    },
    ({ who, style }) => (style === 'formal' ? `Good day, ${who}.` : `Hi ${who}!`),
  );
  server.prompt('two-messages', { description: 'Returns a full GetPromptResult' }, () => ({
    description: 'two messages',
    messages: [
      { role: 'user', content: { type: 'text', text: 'first' } },
      { role: 'assistant', content: { type: 'text', text: 'second' } },
    ],
  }));

  server.prompt(UNICODE_PROMPT, { description: 'A prompt with a non-ASCII name' }, () => 'Grüße!');

  server.tool(
    'shout',
    {
      description: 'Upper-cases a text',
      input: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    },
    ({ text }: { text: string }) => text.toUpperCase(),
  );
  server.tool(
    'stats',
    {
      description: 'Sum and count of numbers, as structured content',
      input: {
        type: 'object',
        properties: { numbers: { type: 'array', items: { type: 'number' } } },
        required: ['numbers'],
      },
      output: {
        type: 'object',
        properties: { sum: { type: 'number' }, count: { type: 'integer' } },
        required: ['sum', 'count'],
        additionalProperties: false,
      },
    },
    ({ numbers }: { numbers: number[] }) => {
      const structuredContent = { sum: numbers.reduce((a, b) => a + b, 0), count: numbers.length };
      return {
        content: [{ type: 'text', text: JSON.stringify(structuredContent) }],
        structuredContent,
      };
    },
  );
  server.tool(
    'divide',
    {
      description: 'Divides, with zod (Standard Schema) input and output schemas',
      input: z.object({ a: z.number(), b: z.number().refine((b) => b !== 0, 'b must not be 0') }),
      output: z.object({ quotient: z.number() }),
    },
    ({ a, b }: { a: number; b: number }) => ({
      content: [{ type: 'text', text: String(a / b) }],
      structuredContent: { quotient: a / b },
    }),
  );
  server.tool('fail', { description: 'Returns a tool error' }, () => ({
    content: [{ type: 'text', text: 'this tool always fails' }],
    isError: true,
  }));
  server.tool('explode', { description: 'Throws' }, () => {
    throw new Error('kaboom');
  });
  return server;
}

async function main(): Promise<void> {
  const pidDir = process.env['INTEROP_PID_DIR'];
  if (pidDir) writeFileSync(join(pidDir, String(process.pid)), process.argv.slice(2).join(' '));
  const server = createInteropServer();
  if (process.argv.includes('--http')) {
    const running = await serveHttp(server, { host: '127.0.0.1', port: 0 });
    process.stdout.write(`listening ${running.url}\n`);
    const stop = (): void => void running.close().then(() => process.exit(0));
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
    // The parent went away without signalling: do not outlive it.
    process.stdin.on('end', stop);
    process.stdin.resume();
  } else if (process.argv.includes('--stdio')) {
    // No process.exit: the process must end by itself once stdin closes.
    await serveStdio(server).closed;
  } else {
    process.stderr.write('usage: interop-server.ts --stdio | --http\n');
    process.exit(2);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
