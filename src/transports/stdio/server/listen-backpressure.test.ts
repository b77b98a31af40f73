import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { modern } from '../../../testing/messages.js';
import { coreOf } from '../../../testing/server-core.js';
import { until } from '../../../testing/sse.js';
import { createServer } from '../../../server/server.js';
import { serveStdio } from './serve-stdio.js';

// A client that stops reading stdout: listen frames are held (coalesced) instead of piling up
// in stdout, and a subscription is cut past maxListenQueueBytes.
const LIMIT = 64 * 1024;
const big = (i: number) => `mem://big/${i}/${'p'.repeat(2000)}`;
const turn = () => new Promise((r) => setTimeout(() => setImmediate(r), 1));

function setup() {
  const warnings: string[] = [];
  const server = createServer({
    name: 'stdio-slow-reader',
    version: '1',
    maxListenQueueBytes: LIMIT,
    onWarning: (m) => warnings.push(m),
  });
  const input = new PassThrough();
  const output = new PassThrough();
  const conn = serveStdio(server, { input, output });
  const hub = () => coreOf(server).listen;
  const req = modern('subscriptions/listen', {
    notifications: { resourceSubscriptions: ['mem://big/'] },
  });
  input.write(`${JSON.stringify(req)}\n`);
  /** Sends distinct updates until frames are still held after a turn: stdout is full. */
  const congest = async (send: (uri: string) => void) => {
    let i = 0;
    while (i < 20_000) {
      send(big(i++));
      if (i % 20 !== 0) continue;
      await turn();
      if (hub().queued.frames > 0) break;
    }
    expect(hub().queued.frames, 'the stream to hold frames').toBeGreaterThan(0);
    return i;
  };
  return { server, input, output, conn, hub, req, warnings, congest };
}

describe('serveStdio: listen streams while stdout is not read', () => {
  it('holds a repeated URI once and cuts the subscription past maxListenQueueBytes', async () => {
    const { server, input, conn, hub, req, warnings, congest } = setup();
    await until(() => server.listenerCount === 1, 'the listen stream to open');
    let i = await congest((uri) => server.notifyResourceUpdated(uri));
    const held = hub().queued;
    server.notifyResourceUpdated(big(i - 1));
    expect(hub().queued).toEqual(held);
    let most = 0;
    for (let n = 0; n < 10_000 && server.listenerCount === 1; n++, i++) {
      server.notifyResourceUpdated(big(i));
      most = Math.max(most, hub().queued.maxQueuedBytes);
      if (n % 20 === 0) await turn();
    }
    expect(server.listenerCount).toBe(0);
    expect(most).toBeLessThanOrEqual(LIMIT);
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(`ended subscriptions/listen ${req.id}: .*maxListenQueueBytes \\(${LIMIT}\\)`),
      ),
    ]);
    expect(hub().queued).toEqual({ frames: 0, heldBytes: 0, maxQueuedBytes: 0 });
    input.end();
    conn.close();
  });

  it('a client that reads late gets every distinct update, in order', async () => {
    const { server, input, output, conn, hub, congest } = setup();
    await until(() => server.listenerCount === 1, 'the listen stream to open');
    const sent: string[] = [];
    const send = (uri: string) => {
      sent.push(uri);
      server.notifyResourceUpdated(uri);
    };
    const i = await congest(send);
    for (let k = 0; k < 10; k++) {
      send(big(i - 1));
      send(big(k));
      send(big(i + k));
    }
    const distinct = [...new Set(sent)];
    let text = '';
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => (text += chunk));
    const firsts = (): string[] => {
      const uris = text
        .split('\n')
        .filter((line) => line.includes('resources/updated'))
        .map((line) => (JSON.parse(line) as { params: { uri: string } }).params.uri);
      return [...new Set(uris)];
    };
    await until(() => firsts().length === distinct.length, 'every distinct update');
    expect(firsts()).toEqual(distinct);
    expect(hub().queued.frames).toBe(0);
    expect(server.listenerCount).toBe(1);
    input.end();
    await conn.closed;
    expect(server.listenerCount).toBe(0);
  });
});
