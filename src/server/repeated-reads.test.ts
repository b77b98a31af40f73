/**
 * The same read asked many times at once, as clients do: each request is answered under its own
 * id with the content of the version its handler served, a cancelled one gets no answer (and
 * takes nothing from the others), and a new version is served as soon as the handler serves it.
 */
import { describe, expect, it } from 'vitest';
import { stillAlive } from '../testing/gc.js';
import { modern } from '../testing/messages.js';
import { connectInMemory } from '../transports/memory.js';
import type { HandleExtra } from './peer.js';
import { createServer } from './server.js';
import { versionedRead } from './versioned-read.js';

/** A read held at a gate until released; `bump` serves a new version from then on. */
function gated() {
  let reads = 0;
  let release: () => void = () => undefined;
  let gate = new Promise<void>((resolve) => (release = resolve));
  let version = { text: 'first' };
  const server = createServer({ name: 's', version: '1' });
  server.resource('mem://slow', { name: 'slow', mimeType: 'text/plain' }, async (uri) => {
    reads++;
    const served = version;
    await gate;
    return versionedRead(
      { contents: [{ uri, mimeType: 'text/plain', text: served.text }] },
      served,
    );
  });
  return {
    server,
    conn: connectInMemory(server),
    reads: () => reads,
    release: () => release(),
    hold: () => (gate = new Promise<void>((resolve) => (release = resolve))),
    bump: (text: string) => (version = { text }),
  };
}

const ask = (id: number | string) => ({ ...modern('resources/read', { uri: 'mem://slow' }), id });
const textOf = (answer: unknown): unknown =>
  (answer as { result?: { contents?: Array<{ text?: string }> } } | undefined)?.result
    ?.contents?.[0]?.text;
const tick = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('the same read asked many times at once', () => {
  it('answers each under its own id, with the content of its version', async () => {
    const { conn, reads, release } = gated();
    const ids = [1, 'two', 3, 'four', 5];
    const answers = ids.map((id) => conn.send(ask(id)));
    await tick();
    release();
    const done = await Promise.all(answers);
    expect(done.map((a) => (a as { id: unknown }).id)).toEqual(ids);
    for (const a of done) expect(textOf(a)).toBe('first');
    expect(reads()).toBe(ids.length);
  });

  it('a cancelled one gets no answer; the others still get theirs', async () => {
    const { conn, release } = gated();
    const first = conn.send(ask(1));
    const cancelled = conn.send(ask(2));
    await tick();
    await conn.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 2, _meta: modern('x', {}).params._meta },
    });
    release();
    expect(await cancelled).toBeUndefined();
    expect(textOf(await first)).toBe('first');
    expect(textOf(await conn.send(ask(3)))).toBe('first');
  });

  it('closing the connection answers none of those running', async () => {
    const { server, release } = gated();
    const peer = server.connect({ transport: 'memory', send: () => undefined });
    const running = [peer.handle(ask(1)), peer.handle(ask(2))];
    await tick();
    peer.close();
    release();
    expect(await Promise.all(running)).toEqual([undefined, undefined]);
  });

  it('a new version is served at once, never the encoded answer of the old one', async () => {
    const { conn, release, hold, bump } = gated();
    release();
    expect(textOf(await conn.send(ask(1)))).toBe('first');
    expect(textOf(await conn.send(ask(2)))).toBe('first');
    bump('second, longer');
    expect(textOf(await conn.send(ask(3)))).toBe('second, longer');
    // Reads that started on the old version answer it; those after the change, the new one.
    hold();
    const old = conn.send(ask(4));
    await tick();
    bump('third');
    const fresh = conn.send(ask(5));
    release();
    expect(textOf(await old)).toBe('second, longer');
    expect(textOf(await fresh)).toBe('third');
  });

  it('an encoded answer keeps nothing of the request it answered (its transport objects go)', async () => {
    const { server, release } = gated();
    release();
    const peer = server.connect({ transport: 'memory', send: () => undefined });
    const exchange = await (async () => {
      // What an HTTP exchange is to a request: reachable only through its extra's closures.
      const held = { response: 'the transport objects of one request', sent: [] as unknown[] };
      const signal = new AbortController().signal;
      const extra: HandleExtra = {
        notify: (message) => void held.sent.push(message),
        signal: () => (held.response === '' ? AbortSignal.abort() : signal),
      };
      expect(textOf(await peer.handle(ask(1), extra))).toBe('first');
      return new WeakRef(held);
    })();
    expect(await stillAlive([exchange])).toEqual([]);
    expect(textOf(await peer.handle(ask(2)))).toBe('first');
  });
});
