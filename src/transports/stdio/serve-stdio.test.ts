import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { modern } from '../../testing/messages.js';
import { until } from '../../testing/sse.js';
import { createServer } from '../../server/server.js';
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
