import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { initializeRequest, legacy, modern } from '../../../testing/messages.js';
import { until } from '../../../testing/sse.js';
import { createServer } from '../../../server/server.js';
import { serveStdio } from './serve-stdio.js';

function collect(output: PassThrough): () => Array<Record<string, unknown>> {
  let text = '';
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => (text += chunk));
  return () =>
    text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('serveStdio', () => {
  it('closes, with nothing thrown, when stdin fails (the client went away mid-read)', async () => {
    const server = createServer({ name: 's', version: '1' });
    const input = new PassThrough();
    const output = new PassThrough();
    const messages = collect(output);
    const conn = serveStdio(server, { input, output });
    const first = modern('tools/list');
    input.write(`${JSON.stringify(first)}\n`);
    await until(() => messages().some((m) => m['id'] === first.id), 'the first answer');
    // A socketpair stdin reads ECONNRESET when the client dies: an 'error' nobody listened to
    // was thrown out of the stream, and took the process down.
    input.destroy(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
    await conn.closed;
    expect(server.connectionCount).toBe(0);
  });

  it('answers -32603 for a result that cannot be encoded, and serves the next request', async () => {
    const server = createServer({ name: 's', version: '1' });
    server.tool('bigint', {}, () => ({
      content: [{ type: 'text', text: 'x' }],
      structuredContent: { n: 10n },
    }));
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 20_000; i++) deep = { a: deep };
    server.tool('deep', {}, () => ({ content: [{ type: 'text', text: 'x' }], _meta: deep }));
    const input = new PassThrough();
    const output = new PassThrough();
    const messages = collect(output);
    const conn = serveStdio(server, { input, output });
    const bad1 = modern('tools/call', { name: 'bigint' });
    const bad2 = modern('tools/call', { name: 'deep' });
    const next = modern('tools/list');
    input.write(`${JSON.stringify(bad1)}\n${JSON.stringify(bad2)}\n${JSON.stringify(next)}\n`);
    await until(() => messages().some((m) => m['id'] === next.id), 'the next answer');
    const byId = (id: unknown) => messages().find((m) => m['id'] === id);
    for (const id of [bad1.id, bad2.id]) {
      expect(byId(id)).toMatchObject({
        jsonrpc: '2.0',
        id,
        error: { code: -32603, message: expect.stringMatching(/could not be encoded/) },
      });
    }
    expect(byId(next.id)).toMatchObject({ result: { tools: expect.any(Array) } });
    input.end();
    await conn.closed;
  });

  it('pauses reading, with no listener per write, when the client stops reading stdout', async () => {
    const server = createServer({ name: 's', version: '1' });
    const input = new PassThrough();
    // A client that never reads: the first write never completes.
    const output = new Writable({ highWaterMark: 16, write: () => undefined });
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      serveStdio(server, { input, output, maxQueuedBytes: 1024 });
      input.write(
        `${JSON.stringify(modern('subscriptions/listen', { notifications: { toolsListChanged: true } }))}\n`,
      );
      await until(() => server.listenerCount === 1, 'the listener to be added');
      for (let i = 0; i < 50; i++) {
        server.notifyListChanged('tools');
        await new Promise((r) => setImmediate(r));
      }
      // What stdout has not taken is counted by write callbacks: no 'drain' listener at all.
      expect(output.listenerCount('drain')).toBe(0);
      expect(input.isPaused()).toBe(true);
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      server.close();
    }
  });

  it('answers a request whose handling failed unexpectedly (the client never waits forever)', async () => {
    const server = createServer({ name: 's', version: '1' });
    const connect = server.connect.bind(server);
    server.connect = (options) => {
      const peer = connect(options);
      peer.handle = () => Promise.reject(new RangeError('Maximum call stack size exceeded'));
      return peer;
    };
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const input = new PassThrough();
      const output = new PassThrough();
      const messages = collect(output);
      const conn = serveStdio(server, { input, output });
      const request = modern('tools/list');
      input.write(`{"jsonrpc":"2.0","method":"notifications/initialized"}\n`);
      input.write(`${JSON.stringify(request)}\n`);
      await until(() => messages().length > 0, 'an answer');
      input.end();
      await conn.closed;
      expect(messages()).toEqual([
        { jsonrpc: '2.0', id: request.id, error: { code: -32603, message: 'Internal error' } },
      ]);
      expect(logged).toHaveBeenCalledWith(
        'mcpkit: unexpected stdio dispatch failure',
        expect.any(RangeError),
      );
    } finally {
      logged.mockRestore();
    }
  });
});

describe('serveStdio: the outbound cap (maxResponseBytes)', () => {
  function fillServer() {
    const server = createServer({ name: 's', version: '1' });
    server.resource('fill://{n}', { name: 'fill' }, (uri, { n }) => ({
      uri,
      text: 'a'.repeat(Number(n)),
    }));
    return server;
  }
  const lineOf = (text: string, id: number) =>
    text.split('\n').find((l) => l.startsWith(`{"jsonrpc":"2.0","id":${id},`)) ?? '';

  it('sends a line of exactly maxResponseBytes, newline included, and answers one byte more with -32603', async () => {
    const cap = 8192;
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.setEncoding('utf8').on('data', (c: string) => (text += c));
    const conn = serveStdio(fillServer(), { input, output, maxResponseBytes: cap });
    const read = (id: number, n: number) => {
      const request = {
        ...modern('resources/read', { uri: `fill://${String(n).padStart(5, '0')}` }),
        id,
      };
      input.write(`${JSON.stringify(request)}\n`);
    };
    read(1, 100);
    await until(() => lineOf(text, 1) !== '', 'the probe');
    // One more byte of text, one more byte of line: the envelope is fixed for a fixed-width id.
    const envelope = Buffer.byteLength(lineOf(text, 1)) + 1 - 100;
    read(2, cap - envelope);
    read(3, cap - envelope + 1);
    read(4, 10);
    await until(() => lineOf(text, 4) !== '', 'the last answer');
    expect(Buffer.byteLength(lineOf(text, 2)) + 1).toBe(cap);
    expect(JSON.parse(lineOf(text, 2))).toMatchObject({
      result: { contents: [{ uri: expect.any(String) }] },
    });
    const over = JSON.parse(lineOf(text, 3)) as {
      error: { code: number; message: string; data: unknown };
    };
    expect(over.error.code).toBe(-32603);
    expect(over.error.message).toContain('maxResponseBytes');
    expect(over.error.data).toMatchObject({ bytes: cap, limit: cap - 1 });
    expect(JSON.parse(lineOf(text, 4))).toMatchObject({
      result: { contents: [{ text: 'a'.repeat(10) }] },
    });
    input.end();
    await conn.closed;
  });

  it('defaults to the official SDK client buffer, 10,485,760 bytes, apart from the 32 MiB inbound cap', async () => {
    const input = new PassThrough();
    const output = new PassThrough();
    let text = '';
    output.setEncoding('utf8').on('data', (c: string) => (text += c));
    const conn = serveStdio(fillServer(), { input, output });
    const request = { ...modern('resources/read', { uri: 'fill://10485760' }), id: 1 };
    // The request line itself may be long: inbound is still 32 MiB.
    const padded = {
      ...request,
      params: {
        ...request.params,
        _meta: {
          ...(request.params as { _meta: object })._meta,
          pad: 'p'.repeat(12 * 1024 * 1024),
        },
      },
    };
    input.write(`${JSON.stringify(padded)}\n`);
    await until(() => lineOf(text, 1) !== '', 'the answer');
    const answer = JSON.parse(lineOf(text, 1)) as { error: { code: number; data: unknown } };
    expect(answer.error).toMatchObject({ code: -32603, data: { limit: 10 * 1024 * 1024 - 1 } });
    input.end();
    await conn.closed;
  });

  it('refuses a cap below 4096 bytes, naming the option', () => {
    expect(() =>
      serveStdio(fillServer(), {
        maxResponseBytes: 100,
        input: new PassThrough(),
        output: new PassThrough(),
      }),
    ).toThrow(/maxResponseBytes must be an integer of at least 4096, got 100/);
  });
});

describe('serveStdio: a request to the client over the outbound cap', () => {
  it('fails the handler waiting on it at once, naming the cap, instead of waiting out its timeout', async () => {
    const server = createServer({ name: 's', version: '1' });
    server.tool('ask-big', {}, async (_args, ctx) => {
      const elicit = {
        method: 'elicitation/create' as const,
        params: {
          message: 'x'.repeat(20_000),
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        },
      };
      await ctx.ask({ who: elicit });
      return 'answered';
    });
    const input = new PassThrough();
    const output = new PassThrough();
    const messages = collect(output);
    const conn = serveStdio(server, { input, output, maxResponseBytes: 8192 });
    const init = initializeRequest({ elicitation: {} });
    const call = legacy('tools/call', { name: 'ask-big', arguments: {} });
    input.write(`${JSON.stringify(init)}\n`);
    await until(() => messages().some((m) => m['id'] === init.id), 'initialize');
    input.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    input.write(`${JSON.stringify(call)}\n`);
    // `until` gives up long before the 60 s request timeout.
    await until(() => messages().some((m) => m['id'] === call.id), 'the tool answer');
    const answer = messages().find((m) => m['id'] === call.id) as {
      result: { isError?: boolean; content: Array<{ text: string }> };
    };
    expect(answer.result.isError).toBe(true);
    expect(answer.result.content[0]?.text).toMatch(
      /elicitation\/create could not be sent to the client: over this transport's 8191-byte message cap \(maxResponseBytes\)/,
    );
    expect(messages().some((m) => m['method'] === 'elicitation/create')).toBe(false);
    input.end();
    await conn.closed;
  });
});
