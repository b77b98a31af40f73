/** A settled request keeps nothing alive, though a slower one with the same timeout is in flight. */
import { describe, expect, it } from 'vitest';
import { stillAlive } from '../testing/gc.js';
import { Connection } from './connection.js';
import type { ClientTransport, ClientTransportSink } from './transport.js';

describe('a settled request', () => {
  it('leaves its result, signal and progress callback to the collector', async () => {
    let sink: ClientTransportSink | undefined;
    const transport = {
      kind: 'stdio',
      maxMessageBytes: 1e9,
      start: async (s: ClientTransportSink) => void (sink = s),
      setEra() {},
      openServerStream: async () => {},
      resetSession() {},
      request: async () => {},
      notify: async () => {},
      respond: async () => {},
      cancel() {},
      close: async () => {},
    } as unknown as ClientTransport;
    const conn = new Connection(transport, {
      notification() {},
      serverRequest() {},
      warn() {},
      closed() {},
    });
    await conn.start();
    void conn.send('tools/call', {}, { timeoutMs: 60_000 }).done.catch(() => undefined); // slow, in flight
    const refs = await (async () => {
      const out: WeakRef<object>[] = [];
      for (let i = 0; i < 10; i++) {
        const signal = new AbortController().signal;
        const onProgress = (): void => undefined;
        const { id, done } = conn.send(
          'resources/read',
          { uri: 'x' },
          { timeoutMs: 60_000, signal, onProgress },
        );
        const result = { contents: [{ uri: 'x', text: `${i}` }] };
        out.push(new WeakRef(result), new WeakRef(signal), new WeakRef(onProgress));
        sink?.message({ jsonrpc: '2.0', id, result });
        await done;
      }
      return out;
    })();
    expect((await stillAlive(refs)).length).toBe(0);
    conn.failAll(new Error('end') as never);
  });
});
