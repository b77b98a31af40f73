import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage, RequestId } from '../protocol/jsonrpc.js';
import type { SubscriptionFilter } from '../protocol/types.js';
import { ListenHub } from './listen-hub.js';
import { frame, type Listener } from './listen-stream.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';

function listener(id: RequestId, filter: SubscriptionFilter, notify?: Listener['notify']) {
  const sent: JSONRPCMessage[] = [];
  let ended = 0;
  const l: Listener = {
    id,
    filter,
    notify: notify ?? ((m) => sent.push(m)),
    end: () => ended++,
  };
  return { l, sent, ended: () => ended };
}

describe('ListenHub.honoured', () => {
  const hub = new ListenHub();

  it('keeps only flags that are true', () => {
    const filter = {
      toolsListChanged: true,
      promptsListChanged: false,
      resourcesListChanged: 'yes',
    } as unknown as SubscriptionFilter;
    expect(hub.honoured(filter)).toEqual({ toolsListChanged: true });
    expect(hub.honoured({ promptsListChanged: true, resourcesListChanged: true })).toEqual({
      promptsListChanged: true,
      resourcesListChanged: true,
    });
  });

  it('keeps resourceSubscriptions only as an array, as a copy', () => {
    const subs = ['mem://a'];
    const out = hub.honoured({ resourceSubscriptions: subs });
    expect(out).toEqual({ resourceSubscriptions: ['mem://a'] });
    expect(out.resourceSubscriptions).not.toBe(subs);
    const notArray = { resourceSubscriptions: 'mem://a' } as unknown as SubscriptionFilter;
    expect(hub.honoured(notArray)).toEqual({});
  });
});

describe('ListenHub notifications', () => {
  it.each([
    ['tools', 'toolsListChanged'],
    ['prompts', 'promptsListChanged'],
    ['resources', 'resourcesListChanged'],
  ] as const)('sends %s list_changed only to listeners that asked', (kind, flag) => {
    const hub = new ListenHub();
    const asked = listener('L1', { [flag]: true });
    const other = listener('L2', {
      toolsListChanged: flag !== 'toolsListChanged',
      promptsListChanged: flag !== 'promptsListChanged',
      resourcesListChanged: flag !== 'resourcesListChanged',
    });
    hub.add(asked.l);
    hub.add(other.l);
    hub.listChanged(kind);
    expect(asked.sent).toEqual([
      {
        jsonrpc: '2.0',
        method: `notifications/${kind}/list_changed`,
        params: { _meta: { [SUB]: 'L1' } },
      },
    ]);
    expect(other.sent).toEqual([]);
  });

  it.each([
    ['mem://a', true],
    ['mem://a/b', true],
    ['mem://a#x', true],
    ['mem://a?v=1', true],
    ['mem://ab', false],
    ['mem://', false],
    ['other://a', false],
  ])('resourceUpdated(%j) reaches a subscriber of mem://a: %s', (uri, reached) => {
    const hub = new ListenHub();
    const sub = listener(7, { resourceSubscriptions: ['mem://zzz', 'mem://a'] });
    const none = listener(8, { toolsListChanged: true });
    hub.add(sub.l);
    hub.add(none.l);
    hub.resourceUpdated(uri);
    expect(sub.sent).toEqual(
      reached
        ? [
            {
              jsonrpc: '2.0',
              method: 'notifications/resources/updated',
              params: { uri, _meta: { [SUB]: 7 } },
            },
          ]
        : [],
    );
    expect(none.sent).toEqual([]);
  });

  it('notifies once per listener even when several subscriptions cover the URI', () => {
    const hub = new ListenHub();
    const sub = listener('s', { resourceSubscriptions: ['mem://a', 'mem://a/b'] });
    hub.add(sub.l);
    hub.resourceUpdated('mem://a/b');
    expect(sub.sent).toHaveLength(1);
  });

  it('frame() adds the subscription id to the given params without mutating them', () => {
    const params = { uri: 'mem://x' };
    expect(frame('m', 3, params)).toEqual({
      jsonrpc: '2.0',
      method: 'm',
      params: { uri: 'mem://x', _meta: { [SUB]: 3 } },
    });
    expect(params).toEqual({ uri: 'mem://x' });
  });
});

describe('ListenHub membership and shutdown', () => {
  it('add() returns a remover; size counts open listeners', () => {
    const hub = new ListenHub();
    const a = listener(1, { toolsListChanged: true });
    const b = listener(2, { toolsListChanged: true });
    const removeA = hub.add(a.l);
    hub.add(b.l);
    expect(hub.size).toBe(2);
    removeA();
    removeA();
    expect(hub.size).toBe(1);
    hub.listChanged('tools');
    expect(a.sent).toEqual([]);
    expect(b.sent).toHaveLength(1);
  });

  it('endAll ends every listener once and remembers them per channel until taken', () => {
    const hub = new ListenHub();
    const shared: JSONRPCMessage[] = [];
    const channel: Listener['notify'] = (m) => shared.push(m);
    const one = listener('a', {}, channel);
    const two = listener('b', {}, channel);
    const elsewhere = listener('a', {});
    const removers = [one, two, elsewhere].map((x) => hub.add(x.l));
    // Ending may remove the listener from the hub while endAll iterates.
    one.l.end = () => {
      removers[0]?.();
    };
    hub.endAll();
    expect([two.ended(), elsewhere.ended()]).toEqual([1, 1]);
    expect(hub.size).toBe(2);

    expect(hub.takeEndedByServer(channel, 'a')).toBe(true);
    expect(hub.takeEndedByServer(channel, 'a')).toBe(false);
    expect(hub.takeEndedByServer(channel, 'b')).toBe(true);
    expect(hub.takeEndedByServer(channel, 'b')).toBe(false);
    expect(hub.takeEndedByServer(elsewhere.l.notify, 'a')).toBe(true);
    expect(hub.takeEndedByServer(channel, 'never')).toBe(false);
  });

  it('takeEndedByServer is false for listens the server did not end', () => {
    const hub = new ListenHub();
    const open = listener(1, {});
    hub.add(open.l);
    expect(hub.takeEndedByServer(open.l.notify, 1)).toBe(false);
    expect(open.ended()).toBe(0);
  });
});
