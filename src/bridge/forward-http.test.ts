import { describe, expect, it } from 'vitest';
import { createServer } from '../server/index.js';
import { MemoryClientTransport } from '../testing/memory-client-transport.js';
import { initializeRequest, legacy } from '../testing/messages.js';
import { createHttpHandler } from '../transports/http/server/web-handler.js';
import { createBridge } from './create-bridge.js';

const URL_ = 'http://127.0.0.1/mcp';
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

function upstream() {
  const server = createServer({ name: 'up', version: '1' });
  server.tool('confirm', {}, async (_args, ctx) => {
    const { answer } = await ctx.ask({
      answer: {
        method: 'elicitation/create',
        params: { message: 'sure?', requestedSchema: { type: 'object', properties: {} } },
      },
    });
    return `host said ${String(answer['action'])}`;
  });
  return server;
}

/** The JSON-RPC messages of an SSE body, as they come. */
async function* events(body: ReadableStream<Uint8Array>): AsyncGenerator<Record<string, unknown>> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of body) {
    buffered += decoder.decode(chunk, { stream: true });
    let end;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const event = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const data = event
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .join('');
      if (data) yield JSON.parse(data) as Record<string, unknown>;
    }
  }
}

describe('a 2025-11-25 host over HTTP', () => {
  it("gets the upstream's input request on its tools/call stream, without a GET stream", async () => {
    const bridge = await createBridge({
      transport: new MemoryClientTransport(upstream()),
      client: { era: 'modern' },
      profile: { name: 'passthrough', readsResources: true },
      forwardInput: true,
      requestTimeoutMs: 2000,
    });
    const handle = createHttpHandler(bridge.server, { keepAliveMs: 0, legacy: true });
    const post = (body: unknown, headers: Record<string, string>) =>
      handle(new Request(URL_, { method: 'POST', headers, body: JSON.stringify(body) }));
    const init = await post(initializeRequest({ elicitation: {} }), HEADERS);
    const session = init.headers.get('mcp-session-id') as string;
    const inSession = {
      ...HEADERS,
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
    };
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, inSession);
    const call = await post(legacy('tools/call', { name: 'confirm', arguments: {} }), inSession);
    const seen: Array<Record<string, unknown>> = [];
    for await (const message of events(call.body!)) {
      seen.push(message);
      if (message['method'] === 'elicitation/create')
        await post(
          { jsonrpc: '2.0', id: message['id'], result: { action: 'accept', content: {} } },
          inSession,
        );
      if ('result' in message || 'error' in message) break;
    }
    expect(seen.map((m) => m['method'] ?? 'answer')).toEqual(['elicitation/create', 'answer']);
    expect(seen[1]).toMatchObject({
      result: { content: [{ type: 'text', text: 'host said accept' }] },
    });
    handle.close();
    await bridge.close();
  }, 10_000);
});
