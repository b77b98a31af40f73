/**
 * InterestSync on its own, with a recording bus: what it announces and when, how it answers
 * queries, what it ignores, and that it keeps no timer while there is nothing to keep.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AttachTracker } from './attach-tracker.js';
import type { InterestMessage } from './change-bus.js';
import { InterestSync, MAX_QUERY_ANSWER_GAP_MS, interestSyncFor } from './interest-sync.js';
import { MemoryBus } from './change-bus.js';

function sync(options: { refreshMs?: number; max?: number } = {}) {
  const sent: InterestMessage[] = [];
  const handlers = new Set<(m: InterestMessage) => void>();
  const warnings: string[] = [];
  const tracker = new AttachTracker();
  const hooks: string[] = [];
  tracker.onAttach({ attach: (u) => hooks.push(`+${u}`), detach: (u) => hooks.push(`-${u}`) });
  const s = new InterestSync({
    id: 'me',
    bus: {
      publishInterest: (m) => sent.push(m),
      subscribeInterest: (h) => (handlers.add(h), () => void handlers.delete(h)),
    },
    tracker,
    interestRefreshMs: options.refreshMs ?? 1000,
    maxRemoteInterest: options.max ?? 100,
    warn: (m) => warnings.push(m),
  });
  const hear = (m: InterestMessage) => handlers.forEach((h) => h(m));
  return { s, sent, tracker, hooks, warnings, hear, handlers };
}

const tick = () => new Promise<void>((r) => queueMicrotask(r));

afterEach(() => vi.useRealTimers());

describe('InterestSync', () => {
  it('asks the others at start; announces one listen naming many URIs in one message', async () => {
    vi.useFakeTimers();
    const { s, sent, tracker, hear } = sync();
    expect(sent).toEqual([{ type: 'query', from: 'me' }]);
    for (const uri of ['m://a', 'm://b', 'm://c']) tracker.add(uri);
    tracker.add('m://a'); // a second listener: no news
    expect(sent).toHaveLength(1); // batched until the turn ends
    await tick();
    expect(sent.slice(1)).toEqual([
      { type: 'attach', from: 'me', uris: ['m://a', 'm://b', 'm://c'], everyMs: 1000 },
    ]);
    tracker.remove('m://b');
    tracker.remove('m://a'); // one listener of m://a is left
    tracker.add('m://d');
    tracker.remove('m://d'); // came and went within the turn: nobody needs to hear of it
    await tick();
    expect(sent.slice(2)).toEqual([{ type: 'detach', from: 'me', uris: ['m://b'] }]);
    s.close();
    expect(sent.slice(3)).toEqual([{ type: 'detach', from: 'me', uris: ['m://a', 'm://c'] }]);
    // Closed: no timer left, and nothing more is said, asked or not.
    expect(vi.getTimerCount()).toBe(0);
    hear({ type: 'query', from: 'other' });
    tracker.add('m://e');
    await tick();
    vi.advanceTimersByTime(5000);
    expect(sent).toHaveLength(4);
  });

  it('refreshes the whole set every interval, and keeps a timer only while there is something to keep', async () => {
    vi.useFakeTimers();
    const { s, sent, tracker } = sync({ refreshMs: 1000 });
    expect(vi.getTimerCount()).toBe(0);
    tracker.add('m://a');
    await tick();
    expect(vi.getTimerCount()).toBe(1);
    sent.length = 0;
    vi.advanceTimersByTime(1000);
    vi.advanceTimersByTime(1000);
    expect(sent).toEqual([
      { type: 'refresh', from: 'me', uris: ['m://a'], everyMs: 1000 },
      { type: 'refresh', from: 'me', uris: ['m://a'], everyMs: 1000 },
    ]);
    tracker.remove('m://a');
    await tick();
    vi.advanceTimersByTime(1000);
    expect(vi.getTimerCount()).toBe(0);
    expect(sent.slice(2)).toEqual([{ type: 'detach', from: 'me', uris: ['m://a'] }]);
    s.close();
  });

  it('applies what the others say, ignores its own echo, and expires an instance that went quiet', () => {
    vi.useFakeTimers();
    const { s, hooks, hear, tracker } = sync({ refreshMs: 100 });
    hear({ type: 'attach', from: 'me', uris: ['m://echo'], everyMs: 100 });
    hear({ type: 'attach', from: 'other', uris: ['m://x'], everyMs: 50 });
    expect(hooks).toEqual(['+m://x']);
    expect(tracker.isAttached('m://echo')).toBe(false);
    expect(vi.getTimerCount()).toBe(1); // the sweep runs while remote interest is kept
    vi.advanceTimersByTime(100);
    expect(hooks).toEqual(['+m://x']); // 150 ms not yet passed
    vi.advanceTimersByTime(100);
    expect(hooks).toEqual(['+m://x', '-m://x']);
    vi.advanceTimersByTime(100);
    expect(vi.getTimerCount()).toBe(0);
    s.close();
  });

  it('answers a query with a refresh at once, and a flood of them at most once a second', () => {
    vi.useFakeTimers();
    const { s, sent, hear, tracker } = sync({ refreshMs: 60_000 });
    hear({ type: 'query', from: 'other' });
    expect(sent).toHaveLength(1); // nothing to say yet: no refresh
    tracker.add('m://a');
    sent.length = 0;
    for (let i = 0; i < 50; i++) hear({ type: 'query', from: `q${i}` });
    // The first is answered at once (the pending attach goes out first); the rest wait.
    const refresh = { type: 'refresh', from: 'me', uris: ['m://a'], everyMs: 60_000 };
    expect(sent).toEqual([{ ...refresh, type: 'attach' }, refresh]);
    vi.advanceTimersByTime(MAX_QUERY_ANSWER_GAP_MS - 1);
    expect(sent).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([{ ...refresh, type: 'attach' }, refresh, refresh]);
    vi.advanceTimersByTime(10 * MAX_QUERY_ANSWER_GAP_MS);
    expect(sent).toHaveLength(3);
    s.close();
  });

  it('after a gap, tells everything again and asks the others to', async () => {
    const { s, sent, tracker } = sync();
    tracker.add('m://a');
    await tick();
    sent.length = 0;
    s.gap();
    expect(sent).toEqual([
      { type: 'refresh', from: 'me', uris: ['m://a'], everyMs: 1000 },
      { type: 'query', from: 'me' },
    ]);
    s.close();
  });

  it('a burst of gaps costs one refresh and one query, not one each', async () => {
    vi.useFakeTimers();
    const { s, sent, tracker } = sync({ refreshMs: 60_000 });
    tracker.add('m://a');
    await tick();
    sent.length = 0;
    for (let i = 0; i < 100; i++) s.gap();
    vi.advanceTimersByTime(MAX_QUERY_ANSWER_GAP_MS);
    // One at once, and at most one more once the spacing is over (the last gap's is not dropped).
    expect(sent.filter((m) => m.type === 'refresh').length).toBeLessThanOrEqual(2);
    expect(sent.filter((m) => m.type === 'query')).toHaveLength(2);
    vi.advanceTimersByTime(10 * MAX_QUERY_ANSWER_GAP_MS);
    expect(sent.filter((m) => m.type === 'query')).toHaveLength(2);
    s.close();
  });

  it('announces at most maxRemoteInterest URIs, warns once, and tops up when there is room', async () => {
    vi.useFakeTimers();
    const { s, sent, tracker, warnings } = sync({ max: 2, refreshMs: 1000 });
    for (const uri of ['m://1', 'm://2', 'm://3']) tracker.add(uri);
    await tick();
    expect(sent[1]).toEqual({
      type: 'attach',
      from: 'me',
      uris: ['m://1', 'm://2'],
      everyMs: 1000,
    });
    expect(warnings).toEqual([expect.stringMatching(/more than maxRemoteInterest \(2\)/)]);
    tracker.remove('m://1');
    await tick();
    vi.advanceTimersByTime(1000);
    expect(sent.at(-1)).toEqual({
      type: 'refresh',
      from: 'me',
      uris: ['m://2', 'm://3'],
      everyMs: 1000,
    });
    expect(warnings).toHaveLength(1);
    s.close();
  });

  it('a bus that throws on publish is warned about once and breaks nothing', async () => {
    const warnings: string[] = [];
    const tracker = new AttachTracker();
    const s = new InterestSync({
      bus: {
        publishInterest: () => {
          throw new Error('down');
        },
        subscribeInterest: () => () => undefined,
      },
      tracker,
      interestRefreshMs: 1000,
      maxRemoteInterest: 10,
      warn: (m) => warnings.push(m),
    });
    tracker.add('m://a');
    await tick();
    s.gap();
    s.close();
    expect(warnings).toEqual([expect.stringMatching(/could not announce .*down/)]);
  });

  it('after close it hears nothing and says nothing; remote interest is let go', () => {
    const { s, sent, hear, hooks, handlers } = sync();
    hear({ type: 'attach', from: 'other', uris: ['m://x'], everyMs: 1000 });
    s.close();
    expect(hooks).toEqual(['+m://x', '-m://x']);
    expect(handlers.size).toBe(0);
    const before = sent.length;
    s.gap();
    expect(sent).toHaveLength(before);
  });
});

describe('interestSyncFor', () => {
  it('only for a bus that says it is shared and carries interest', () => {
    const options = {
      tracker: new AttachTracker(),
      interestRefreshMs: 1000,
      maxRemoteInterest: 10,
      warn: () => undefined,
    };
    expect(interestSyncFor(new MemoryBus(), options)).toBeUndefined();
    const noInterest = { ...new MemoryBus(), shared: true } as unknown as MemoryBus;
    expect(interestSyncFor(noInterest, options)).toBeUndefined();
    const shared = interestSyncFor(new MemoryBus({ shared: true }), options);
    expect(shared).toBeInstanceOf(InterestSync);
    shared?.close();
  });
});
