import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { modern } from '../../../testing/messages.js';
import { until } from '../../../testing/sse.js';
import { createServer } from '../../../server/server.js';
import { LISTEN_MARK_BYTES } from './listen-flow.js';
import { serveStdio } from './serve-stdio.js';

// A client that stops reading stdout: listen frames are held (coalesced) instead of piling up
// in stdout, and a subscription is cut past maxListenQueueBytes.
const LIMIT = 64 * 1024;
const big = (i: number) => `mem://big/${i}/${'p'.repeat(2000)}`;
const turn = () => new Promise((r) => setTimeout(() => setImmediate(r), 1));

function setup(maxListenQueueBytes = LIMIT) {
  const warnings: string[] = [];
  const server = createServer({
    name: 'stdio-slow-reader',
    version: '1',
    maxListenQueueBytes,
    onWarning: (m) => warnings.push(m),
  });
  const input = new PassThrough();
  // congest() waits for stdout to say it is full (writableNeedDrain), which needs its
  // highWaterMark under the mark where the server starts holding frames. Node 22 raised the
  // default from 16 KiB to 64 KiB, the mark itself: the stream would hold, and be cut, first.
  const output = new PassThrough({ highWaterMark: 16 * 1024 });
  const conn = serveStdio(server, { input, output });
  const req = modern('subscriptions/listen', {
    notifications: { resourceSubscriptions: ['mem://big/'] },
  });
  input.write(`${JSON.stringify(req)}\n`);
  /**
   * Sends distinct updates until stdout takes no more after a turn (nothing reads it, so nothing
   * is written from then on), then enough more to pass the mark: the stream holds from there.
   * Distinct, so that what stdout got is a prefix of what was sent, in order.
   */
  const congest = async (send: (uri: string) => void) => {
    let i = 0;
    while (i < 20_000) {
      send(big(i++));
      if (i % 20 !== 0) continue;
      await turn();
      if (output.writableNeedDrain) break;
    }
    expect(output.writableNeedDrain, 'stdout to be full').toBe(true);
    for (const end = i + LISTEN_MARK_BYTES / 2000 + 2; i < end;) send(big(i++));
    return i;
  };
  /** Every line the client reads from stdout once it starts reading, up to `done`. */
  const readAll = async (done: (lines: string[]) => boolean): Promise<string[]> => {
    let text = '';
    output.setEncoding('utf8');
    output.on('data', (chunk: string) => (text += chunk));
    const lines = () => text.split('\n').filter((line) => line !== '');
    await until(() => done(lines()), 'the lines to be read');
    return lines();
  };
  return { server, input, output, conn, req, warnings, congest, readAll };
}

describe('serveStdio: listen streams while stdout is not read', () => {
  it('holds a repeated URI once and cuts the subscription past maxListenQueueBytes', async () => {
    const { server, input, conn, req, warnings, congest, readAll } = setup();
    await until(() => server.listenerCount === 1, 'the listen stream to open');
    const sent: string[] = [];
    const send = (uri: string) => {
      sent.push(uri);
      server.notifyResourceUpdated(uri);
    };
    let i = await congest(send);
    // Each new URI, then repeats of it and of the one before: only distinct URIs take room.
    for (let n = 0; n < 10_000 && server.listenerCount === 1; n++, i++) {
      for (const uri of [big(i), big(i), big(i - 1)]) if (server.listenerCount === 1) send(uri);
      if (n % 20 === 0) await turn();
    }
    expect(server.listenerCount).toBe(0);
    const lines = await readAll((got) => got.some((line) => line.includes('"error"')));
    const last = JSON.parse(lines.at(-1) as string) as unknown;
    expect(last).toMatchObject({
      id: req.id,
      error: { code: -32603, data: { maxListenQueueBytes: LIMIT } },
    });
    // The client got what was written before the stream held, in order, and no held frame; what
    // was held until the cut fit the limit, and the update that cut it would not have.
    const updates = lines.filter((line) => line.includes('resources/updated'));
    const written = updates.map(
      (line) => (JSON.parse(line) as { params: { uri: string } }).params.uri,
    );
    expect(written).toEqual(sent.slice(0, written.length));
    const sizeOf = (uri: string) =>
      (updates[0] as string).length - (written[0] as string).length + uri.length;
    const held = [...new Set(sent.slice(written.length, -1))];
    const heldBytes = held.reduce((sum, uri) => sum + sizeOf(uri), 0);
    expect(held.includes(sent.at(-1) as string)).toBe(false);
    expect(heldBytes).toBeLessThanOrEqual(LIMIT);
    expect(heldBytes + sizeOf(sent.at(-1) as string)).toBeGreaterThan(LIMIT);
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(`ended subscriptions/listen ${req.id}: .*maxListenQueueBytes \\(${LIMIT}\\)`),
      ),
    ]);
    input.end();
    conn.close();
  });

  it('a client that reads late gets every distinct update, in order', async () => {
    const { server, input, conn, congest, readAll } = setup(1024 * 1024); // room for all of it
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
    const firsts = (lines: string[]): string[] => {
      const uris = lines
        .filter((line) => line.includes('resources/updated'))
        .map((line) => (JSON.parse(line) as { params: { uri: string } }).params.uri);
      return [...new Set(uris)];
    };
    const lines = await readAll((got) => firsts(got).length === distinct.length);
    expect(firsts(lines)).toEqual(distinct);
    expect(server.listenerCount).toBe(1);
    input.end();
    await conn.closed;
    expect(server.listenerCount).toBe(0);
  });
});
