/**
 * Listen streams over the real stdio transport (serveStdio on in-memory pipes): the client ends
 * one with `notifications/cancelled` (no answer, the listener and its attachment gone) and listens
 * again; the server ends them gracefully (close: the listen's result) or with an error (a gap).
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { modern } from '../testing/messages.js';
import { until } from '../testing/sse.js';
import { serveStdio } from '../transports/stdio/server/serve-stdio.js';
import { MemoryBus } from './change-bus.js';
import { createServer } from './server.js';

const SUB = 'io.modelcontextprotocol/subscriptionId';
type Message = Record<string, unknown> & { params?: Record<string, unknown> };

function setup() {
  const bus = new MemoryBus();
  const warnings: string[] = [];
  const server = createServer({
    name: 'stdio-listen',
    version: '1',
    bus,
    onWarning: (m) => warnings.push(m),
  });
  const input = new PassThrough();
  const output = new PassThrough();
  const conn = serveStdio(server, { input, output });
  const received: Message[] = [];
  let buffer = '';
  output.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
      received.push(JSON.parse(buffer.slice(0, at)) as Message);
      buffer = buffer.slice(at + 1);
    }
  });
  const send = (message: unknown) => input.write(`${JSON.stringify(message)}\n`);
  const log: string[] = [];
  server.onAttach({ attach: (u) => log.push(`+${u}`), detach: (u) => log.push(`-${u}`) });
  const of = (id: unknown) =>
    received.filter((m) => m['id'] === id || (m.params?.['_meta'] as Message)?.[SUB] === id);
  const open = async (filter: Record<string, unknown>) => {
    const req = modern('subscriptions/listen', { notifications: filter });
    send(req);
    await until(() => of(req.id).length > 0, 'the acknowledgement');
    expect(of(req.id)[0]).toMatchObject({ method: 'notifications/subscriptions/acknowledged' });
    return req;
  };
  cleanups.push(() => {
    input.end();
    conn.close();
  });
  return { bus, server, send, received, of, open, log, warnings };
}

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('subscriptions/listen over stdio', () => {
  it('listen, notifications/cancelled (no answer, detached), listen again and hear the next change', async () => {
    const { server, send, of, open, log } = setup();
    const first = await open({ resourceSubscriptions: ['m://doc'] });
    server.notifyResourceUpdated('m://doc');
    await until(() => of(first.id).length === 2, 'the update');
    expect(of(first.id)[1]).toMatchObject({
      method: 'notifications/resources/updated',
      params: { uri: 'm://doc', _meta: { [SUB]: first.id } },
    });

    send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: first.id } });
    await until(() => server.listenerCount === 0, 'the cancelled listen to go');
    expect(log).toEqual(['+m://doc', '-m://doc']);

    const second = await open({ resourceSubscriptions: ['m://doc'] });
    server.notifyResourceUpdated('m://doc');
    await until(() => of(second.id).length === 2, 'the update on the new listen');
    // The cancelled listen got no answer and no more frames.
    expect(of(first.id)).toHaveLength(2);
    expect(log).toEqual(['+m://doc', '-m://doc', '+m://doc']);
  });

  it('server.close() ends a listen gracefully: its result, with the subscription id', async () => {
    const { server, of, open } = setup();
    const req = await open({ toolsListChanged: true });
    server.close();
    await until(() => of(req.id).length === 2, 'the result');
    expect(of(req.id)[1]).toEqual({
      jsonrpc: '2.0',
      id: req.id,
      result: { _meta: expect.objectContaining({ [SUB]: req.id }), resultType: 'complete' },
    });
  });

  it('a gap on the bus ends the listen with an error answer, and a new listen works', async () => {
    const { bus, server, of, open, warnings } = setup();
    const req = await open({ resourceSubscriptions: ['m://doc'] });
    bus.gap('test gap');
    expect(warnings).toEqual([
      'mcpkit: change events may have been lost (test gap): ended 1 listen stream(s) so that their clients listen again',
    ]);
    await until(() => of(req.id).length === 2, 'the error');
    expect(of(req.id)[1]).toMatchObject({
      id: req.id,
      error: { code: -32603, data: { reason: 'events-lost' } },
    });
    const again = await open({ resourceSubscriptions: ['m://doc'] });
    server.notifyResourceUpdated('m://doc/part');
    await until(() => of(again.id).length === 2, 'the update of a sub-resource');
    expect(of(again.id)[1]).toMatchObject({ params: { uri: 'm://doc/part' } });
  });
});
