import { describe, expect, it, vi } from 'vitest';
import { connectInMemory } from '../transports/memory.js';
import { modern } from '../testing/messages.js';
import { AttachTracker } from './attach-tracker.js';
import { MemoryBus, type ChangeEvent } from './change-bus.js';
import { createServer } from './server.js';

describe('MemoryBus', () => {
  it('delivers every event to every subscriber at once, in order; a throwing one spoils nothing', () => {
    const bus = new MemoryBus();
    const seen: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    bus.subscribe(() => {
      throw new Error('bad subscriber');
    });
    const off = bus.subscribe((e) => seen.push(e.type === 'resource-updated' ? e.uri : e.list));
    bus.publish({ type: 'resource-updated', uri: 'a:1' });
    bus.publish({ type: 'list-changed', list: 'tools' });
    off();
    bus.publish({ type: 'resource-updated', uri: 'a:2' });
    expect(seen).toEqual(['a:1', 'tools']);
    expect(warn).toHaveBeenCalledTimes(3);
    warn.mockRestore();
  });
});

describe('MemoryBus interest', () => {
  it('is private unless told it is shared, and delivers interest to every subscriber at once', () => {
    expect(new MemoryBus().shared).toBe(false);
    const bus = new MemoryBus({ shared: true });
    expect(bus.shared).toBe(true);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const seen: string[] = [];
    bus.subscribeInterest(() => {
      throw new Error('bad subscriber');
    });
    const off = bus.subscribeInterest((m) => seen.push(`${m.type} ${m.from}`));
    bus.publishInterest({ type: 'query', from: 'a' });
    bus.publishInterest({ type: 'detach', from: 'b', uris: ['m:x'] });
    off();
    bus.publishInterest({ type: 'query', from: 'c' });
    expect(seen).toEqual(['query a', 'detach b']);
    expect(warn).toHaveBeenCalledTimes(3);
    warn.mockRestore();
  });
});

describe('AttachTracker', () => {
  it('attaches on the first interest in a URI, detaches after the last, tells late hooks', () => {
    const t = new AttachTracker();
    const log: string[] = [];
    t.onAttach({ attach: (u) => log.push(`+${u}`), detach: (u) => log.push(`-${u}`) });
    t.add('file:///d/');
    t.add('file:///d/');
    expect(t.isAttached('file:///d/x.md')).toBe(true);
    expect(t.isAttached('file:///e.md')).toBe(false);
    t.remove('file:///d/');
    expect(log).toEqual(['+file:///d/']);
    const late: string[] = [];
    t.onAttach({ attach: (u) => late.push(u), detach: () => undefined });
    expect(late).toEqual(['file:///d/']);
    t.remove('file:///d/');
    t.remove('file:///d/');
    expect(log).toEqual(['+file:///d/', '-file:///d/']);
    expect(t.isAttached('file:///d/x.md')).toBe(false);
  });
});

describe('servers sharing a bus', () => {
  it("an update published on one reaches the other's listen streams, each frame once", async () => {
    const bus = new MemoryBus();
    const one = createServer({ name: 'one', version: '1', bus });
    const two = createServer({ name: 'two', version: '1', bus });
    const conn = connectInMemory(two);
    const listen = modern('subscriptions/listen', {
      notifications: { resourceSubscriptions: ['mem://a'] },
    });
    void conn.send(listen);
    await new Promise((r) => setTimeout(r, 10));
    one.notifyResourceUpdated('mem://a/child');
    two.notifyResourceUpdated('mem://a');
    const updates = conn.received.filter(
      (m) => 'method' in m && m.method === 'notifications/resources/updated',
    );
    expect(updates.map((m) => (m as unknown as { params: { uri: string } }).params.uri)).toEqual([
      'mem://a/child',
      'mem://a',
    ]);
  });
});

describe('server.onChange', () => {
  it('sees every event the server delivers, another instance’s included, before its listeners', () => {
    const bus = new MemoryBus();
    const one = createServer({ name: 'one', version: '1', bus });
    const two = createServer({ name: 'two', version: '1', bus });
    const seen: string[] = [];
    const off = two.onChange((e) => seen.push(e.type === 'resource-updated' ? e.uri : e.list));
    one.notifyResourceUpdated('mem://x');
    one.notifyListChanged('resources');
    off();
    one.notifyResourceUpdated('mem://y');
    expect(seen).toEqual(['mem://x', 'resources']);
  });

  it('the same handler registered twice sees each event twice and is unregistered once per registration', () => {
    const server = createServer({ name: 'one', version: '1' });
    const seen: string[] = [];
    const handler = (e: ChangeEvent) => seen.push(e.type === 'resource-updated' ? e.uri : e.list);
    const first = server.onChange(handler);
    server.onChange(handler);
    server.notifyResourceUpdated('mem://x');
    first();
    server.notifyResourceUpdated('mem://y');
    expect(seen).toEqual(['mem://x', 'mem://x', 'mem://y']);
  });

  it('a closed server leaves a shared bus: it hears no more events, its gaps included', () => {
    const bus = new MemoryBus();
    const one = createServer({ name: 'one', version: '1', bus });
    const two = createServer({ name: 'two', version: '1', bus });
    const seen: string[] = [];
    two.onChange((e) => seen.push(e.type === 'resource-updated' ? e.uri : e.list));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    two.close();
    one.notifyResourceUpdated('mem://x');
    bus.gap('lost');
    expect(seen).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });
});
