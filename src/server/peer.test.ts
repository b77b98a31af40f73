import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { modern } from '../testing/messages.js';
import { until, withTimeout } from '../testing/sse.js';
import { createServer } from './server.js';

describe('Peer', () => {
  it('onClose returns an unsubscribe: a removed handler is not kept nor called', () => {
    const server = createServer({ name: 'p', version: '1' });
    const peer = server.connect({ transport: 'memory', send: () => undefined });
    const calls: string[] = [];
    const offs = Array.from({ length: 100 }, (_, i) => peer.onClose(() => calls.push(`gone ${i}`)));
    peer.onClose(() => calls.push('kept'));
    for (const off of offs) off();
    offs[0]!(); // twice is harmless
    peer.close();
    expect(calls).toEqual(['kept']);
  });

  it('close() aborts every in-flight request, even several that share an id', async () => {
    const server = createServer({ name: 'p', version: '1' });
    const seen: number[] = [];
    server.tool('wait', {}, async (_args, ctx) => {
      await new Promise<void>((resolve) =>
        ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      seen.push(1);
      return 'aborted';
    });
    // Like the stateless HTTP peer: shared by clients whose ids collide.
    const peer = server.connect({ transport: 'http', send: () => undefined, cancelById: false });
    const req = { ...modern('tools/call', { name: 'wait' }), id: 1 };
    const pending = [peer.handle(req), peer.handle(req), peer.handle(req)];
    await until(() => peer.inflight.has(1), 'the calls to be in flight');
    peer.close();
    expect(await withTimeout(Promise.all(pending), 2000, 'every call to end')).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(seen).toEqual([1, 1, 1]);
    expect(peer.inflight.size).toBe(0);
  });

  it('a request to the client: nothing is sent once cancelled; its abort listener goes when it ends', async () => {
    const server = createServer({ name: 'p', version: '1' });
    const sent: unknown[] = [];
    const peer = server.connect({ transport: 'memory', send: () => undefined });
    const notify = (message: unknown) => sent.push(message);
    const gone = AbortSignal.abort();
    await expect(peer.request('roots/list', {}, notify, gone)).rejects.toMatchObject({
      code: 'REQUEST_CANCELLED',
    });
    expect(sent).toEqual([]);
    const live = new AbortController();
    for (let i = 0; i < 3; i++) {
      const asked = peer.request('roots/list', {}, notify, live.signal);
      const { id } = sent.at(-1) as { id: string };
      peer.receiveResponse({ jsonrpc: '2.0', id, result: { roots: [] } });
      expect(await asked).toEqual({ roots: [] });
    }
    expect(getEventListeners(live.signal, 'abort')).toHaveLength(0);
    const cancelled = peer.request('roots/list', {}, notify, live.signal);
    live.abort();
    await expect(cancelled).rejects.toMatchObject({ code: 'REQUEST_CANCELLED' });
    peer.close();
  });
});
