import { describe, expect, it } from 'vitest';
import { McpKitError } from '../errors/index.js';
import type { SubscriptionFilter } from '../protocol/index.js';
import { ListenStream, type ListenNotification } from './listen.js';
import { RESYNC_META, ResilientListenStream, resyncFrames } from './resilient-listen.js';

const filter: SubscriptionFilter = {
  resourceSubscriptions: ['file:///a', 'file:///d/'],
  toolsListChanged: true,
};
const updated = (uri: string) => ({
  jsonrpc: '2.0' as const,
  method: 'notifications/resources/updated',
  params: { uri },
});

function harness(failures: number[] = []) {
  const streams: ListenStream[] = [];
  const injected: ListenNotification[] = [];
  const waits: number[] = [];
  let opens = 0;
  let clientClosed = false;
  const make = () => {
    const s = new ListenStream(filter, () => undefined);
    streams.push(s);
    return s;
  };
  const first = make();
  const stream = new ResilientListenStream(
    first,
    filter,
    {
      open: async () => {
        opens++;
        if (failures.includes(opens))
          throw new McpKitError('PEER_CLOSED', `attempt ${opens} failed`);
        return make();
      },
      inject: (n) => injected.push(n),
      closed: () => clientClosed,
      sleep: async (ms) => void waits.push(ms),
      random: () => 1,
    },
    { minDelayMs: 100, maxDelayMs: 400, maxAttempts: 5 },
  );
  return { stream, streams, injected, waits, closeClient: () => (clientClosed = true) };
}

describe('resyncFrames', () => {
  it('is one list change per list asked for and one update per subscribed URI, marked', () => {
    expect(resyncFrames(filter)).toEqual([
      { method: 'notifications/tools/list_changed', params: { _meta: { [RESYNC_META]: true } } },
      {
        method: 'notifications/resources/updated',
        params: { uri: 'file:///a', _meta: { [RESYNC_META]: true } },
      },
      {
        method: 'notifications/resources/updated',
        params: { uri: 'file:///d/', _meta: { [RESYNC_META]: true } },
      },
    ]);
  });
});

describe('ResilientListenStream', () => {
  it('passes frames through, and after the stream drops listens again and yields the resync frames', async () => {
    const { stream, streams, injected } = harness();
    streams[0]!.push(updated('file:///a'));
    expect((await stream.next()).value).toMatchObject({ params: { uri: 'file:///a' } });
    streams[0]!.end(new McpKitError('STREAM_INTERRUPTED', 'the server went away'));
    const resync = [await stream.next(), await stream.next(), await stream.next()].map(
      (r) => r.value,
    );
    expect(resync).toEqual(resyncFrames(filter));
    expect(injected).toEqual(resyncFrames(filter));
    expect(stream.relistens).toBe(1);
    streams[1]!.push(updated('file:///d/x'));
    expect((await stream.next()).value).toMatchObject({ params: { uri: 'file:///d/x' } });
  });

  it('treats a graceful end by the server as a drop too (an instance going away)', async () => {
    const { stream, streams } = harness();
    streams[0]!.end();
    expect((await stream.next()).value?.method).toBe('notifications/tools/list_changed');
    expect(streams).toHaveLength(2);
  });

  it('backs off, doubling up to maxDelayMs, and fails with the last error after maxAttempts', async () => {
    const retried = harness([1, 2]);
    retried.streams[0]!.end(new Error('drop'));
    await retried.stream.next();
    expect(retried.waits).toEqual([100, 200, 400]);
    const doomed = harness([1, 2, 3, 4, 5]);
    doomed.streams[0]!.end(new Error('drop'));
    await expect(doomed.stream.next()).rejects.toThrow('attempt 5 failed');
    expect(doomed.waits).toEqual([100, 200, 400, 400, 400]);
    expect(doomed.stream.closed).toBe(true);
  });

  it('stops when closed by the application or when its client is closed', async () => {
    const mine = harness();
    const waiting = mine.stream.next();
    await mine.stream.close();
    mine.streams[0]!.end();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(mine.streams).toHaveLength(1);
    const client = harness();
    client.closeClient();
    client.streams[0]!.end(new Error('drop'));
    expect(await client.stream.next()).toEqual({ value: undefined, done: true });
    expect(client.streams).toHaveLength(1);
  });
});
