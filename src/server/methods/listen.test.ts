import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '../../protocol/jsonrpc.js';
import { META } from '../../protocol/meta-keys.js';
import { testEnv, testServer } from '../../testing/server-core.js';
import { listenMethods } from './listen.js';

const SUB = META.subscriptionId;

/** Starts a listen with request id 42; `settled` tells whether its result came. */
function startListen(notifications: unknown, options: { aborted?: boolean } = {}) {
  const { server, core } = testServer();
  const abort = new AbortController();
  if (options.aborted) abort.abort();
  const env = testEnv(core, {
    requestId: 42,
    signal: abort.signal,
    method: 'subscriptions/listen',
  });
  const state = { settled: false };
  const params = notifications === undefined ? {} : { notifications };
  const done = listenMethods['subscriptions/listen']!.run(params, env).finally(() => {
    state.settled = true;
  });
  return { server, core, abort, sent: env.sent, done, state };
}

const methods = (sent: JSONRPCMessage[]) => sent.map((m) => ('method' in m ? m.method : '?'));
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('subscriptions/listen', () => {
  it('acknowledges first, with the honoured part of the filter and the subscription id', async () => {
    const { sent, abort, done } = startListen({
      toolsListChanged: true,
      promptsListChanged: false,
      resourcesListChanged: 'yes',
      resourceSubscriptions: ['docs://'],
      unknownThing: true,
    });
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/subscriptions/acknowledged',
        params: {
          notifications: { toolsListChanged: true, resourceSubscriptions: ['docs://'] },
          _meta: { [SUB]: 42 },
        },
      },
    ]);
    abort.abort();
    await done;
  });

  it('acknowledges an empty filter when none is sent', async () => {
    const { sent, abort, done } = startListen(undefined);
    expect(sent[0]).toMatchObject({ params: { notifications: {} } });
    abort.abort();
    await done;
  });

  it('stays open, delivering only what the filter asks for, until the client aborts', async () => {
    const { server, core, sent, abort, done, state } = startListen({
      toolsListChanged: true,
      resourceSubscriptions: ['docs://a'],
    });
    expect(core.listen.size).toBe(1);
    server.tool('t', {}, () => 'x'); // tools changed: wanted
    server.prompt('p', {}, () => 'x'); // prompts changed: not asked for
    server.notifyResourceUpdated('docs://a');
    server.notifyResourceUpdated('docs://other');
    await tick();
    expect(state.settled).toBe(false);
    expect(methods(sent)).toEqual([
      'notifications/subscriptions/acknowledged',
      'notifications/tools/list_changed',
      'notifications/resources/updated',
    ]);
    expect(sent[2]).toMatchObject({ params: { uri: 'docs://a', _meta: { [SUB]: 42 } } });

    abort.abort();
    expect(await done).toEqual({ _meta: { [SUB]: 42 } });
    expect(core.listen.size).toBe(0);
    server.tool('t2', {}, () => 'x');
    expect(sent).toHaveLength(3);
  });

  it('ends at once, after the acknowledgement, when the request is already aborted', async () => {
    const { core, sent, done } = startListen({ toolsListChanged: true }, { aborted: true });
    expect(await done).toEqual({ _meta: { [SUB]: 42 } });
    expect(methods(sent)).toEqual(['notifications/subscriptions/acknowledged']);
    expect(core.listen.size).toBe(0);
  });

  it('ends when the server ends every stream', async () => {
    const { core, done, state } = startListen({});
    await tick();
    expect(state.settled).toBe(false);
    core.listen.endAll();
    expect(await done).toEqual({ _meta: { [SUB]: 42 } });
    expect(core.listen.size).toBe(0);
  });
});
