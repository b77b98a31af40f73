import { describe, expect, it } from 'vitest';
import { createServer } from '../../../server/server.js';
import { initializeRequest, modern } from '../../../testing/messages.js';
import { createHttpHandler } from './web-handler.js';

// Nested past maxDepth: -32602 with the request's id and HTTP 400 (was a 500 from a RangeError).

const LEVELS = 100_000;

/** The body as text, with its "__deep__" placeholder replaced by LEVELS nested arrays. */
function deepBody(message: object): string {
  return JSON.stringify(message).replace(
    '"__deep__"',
    `${'['.repeat(LEVELS)}${']'.repeat(LEVELS)}`,
  );
}

async function post(body: string, headers: Record<string, string>) {
  const server = createServer({ name: 'deep', version: '1', onError: () => undefined });
  server.tool('echo', { input: { type: 'object', properties: { deep: {} } } }, () => 'ok');
  const response = await createHttpHandler(server)(
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...headers,
      },
      body,
    }),
  );
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

const refused = (id: unknown) => ({
  jsonrpc: '2.0',
  id,
  error: {
    code: -32602,
    message: expect.stringContaining('maxDepth 64'),
    data: { limit: 64, reason: 'too-deep' },
  },
});

describe('HTTP status of a request nested past maxDepth', () => {
  it('400 for deep _meta.clientCapabilities.experimental (2026-07-28)', async () => {
    const message = modern('tools/list', {}, { experimental: '__deep__' });
    const headers = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' };
    const { status, json } = await post(deepBody(message), headers);
    expect({ status, json }).toEqual({ status: 400, json: refused(message.id) });
  });

  it('400 for deep tool arguments (2026-07-28)', async () => {
    const message = modern('tools/call', { name: 'echo', arguments: { deep: '__deep__' } });
    const headers = {
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
    };
    const { status, json } = await post(deepBody(message), headers);
    expect({ status, json }).toEqual({ status: 400, json: refused(message.id) });
  });

  it('400 for a deep initialize (2025-11-25): refused as sent, like an invalid request', async () => {
    const message = initializeRequest({ experimental: '__deep__' });
    const { status, json } = await post(deepBody(message), {});
    expect({ status, json }).toEqual({ status: 400, json: refused(message.id) });
  });
});
