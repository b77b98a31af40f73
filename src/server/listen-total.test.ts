/**
 * maxListenQueueTotalBytes: what all listen streams hold together for clients that do not read
 * is bounded too. Past it the stream holding the most is ended as maxListenQueueBytes ends one
 * (-32603, 'fell-behind', a warning), then the next, until the total is within it; a stream that
 * holds little (its client reads) is left alone.
 */
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '../protocol/jsonrpc.js';
import type { SubscriptionFilter } from '../protocol/types.js';
import { modern } from '../testing/messages.js';
import { coreOf, testServer } from '../testing/server-core.js';
import { until, withTimeout } from '../testing/sse.js';
import type { ChannelFlow } from './channel-flow.js';
import type { McpServer } from './server.js';

/** A channel whose congestion and buffer the test sets; drains when told. */
class Channel implements ChannelFlow {
  congested = false;
  bufferedBytes = 0;
  readonly sent: JSONRPCMessage[] = [];
  private drains: Array<() => void> = [];
  readonly notify = (m: JSONRPCMessage): void => void this.sent.push(m);
  onDrain(cb: () => void): void {
    this.drains.push(cb);
  }
  drain(): void {
    this.congested = false;
    this.bufferedBytes = 0;
    for (const cb of this.drains.splice(0)) cb();
  }
}

function open(server: McpServer, filter: SubscriptionFilter) {
  const channel = new Channel();
  const peer = server.connect({ transport: 'memory', send: () => undefined });
  const req = modern('subscriptions/listen', { notifications: filter });
  const pending = peer.handle(req, { notify: channel.notify, flow: channel });
  return { req, pending, channel, peer };
}

const answer = (pending: Promise<unknown>) => withTimeout(pending, 2000, 'the listen answer');

describe('maxListenQueueTotalBytes', () => {
  it('ends the streams that hold the most until all together are within it; a small one stays', async () => {
    const warnings: string[] = [];
    const { server } = testServer({
      maxListenQueueBytes: 1024 * 1024,
      maxListenQueueTotalBytes: 64 * 1024,
      onWarning: (m: string) => void warnings.push(m),
    });
    const big = [0, 1, 2].map(() => open(server, { resourceSubscriptions: ['m://big/'] }));
    const small = open(server, { resourceSubscriptions: ['m://small/'] });
    await until(() => server.listenerCount === 4, 'four listens');
    // Every client stops reading: its channel says so, with 8 KiB buffered.
    for (const s of [...big, small]) {
      s.channel.congested = true;
      s.channel.bufferedBytes = 8 * 1024;
    }
    const hub = coreOf(server).listen;
    server.notifyResourceUpdated('m://small/a');
    // Each big stream may hold 1 MiB, but three at ~30 KiB each pass 64 KiB together.
    for (let i = 0; i < 300 && server.listenerCount === 4; i++)
      server.notifyResourceUpdated(`m://big/${'x'.repeat(80)}-${i}`);
    expect(server.listenerCount).toBe(3);
    const ended = await Promise.race(big.map((b) => answer(b.pending)));
    expect(ended).toMatchObject({
      error: {
        code: -32603,
        message: expect.stringMatching(/maxListenQueueTotalBytes/),
        data: { maxListenQueueTotalBytes: 64 * 1024, reason: 'fell-behind' },
      },
    });
    // More updates: the other big ones go too, one at a time; the small one is never cut.
    for (let i = 300; i < 2000 && server.listenerCount > 1; i++)
      server.notifyResourceUpdated(`m://big/${'x'.repeat(80)}-${i}`);
    expect(server.listenerCount).toBe(1);
    for (const b of big) expect(await answer(b.pending)).toHaveProperty('error');
    expect(hub.size).toBe(1);
    expect(warnings).toHaveLength(3);
    for (const w of warnings)
      expect(w).toMatch(
        /its client is not reading and .* more than maxListenQueueTotalBytes \(65536\)/,
      );
    // The reading client's stream still delivers once it drains.
    small.channel.drain();
    expect(
      small.channel.sent.some(
        (m) => 'params' in m && (m.params as { uri?: string }).uri === 'm://small/a',
      ),
    ).toBe(true);
    small.peer.close();
  });
});
