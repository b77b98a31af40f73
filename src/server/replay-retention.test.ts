import { describe, expect, it } from 'vitest';
import { stillAlive } from '../testing/gc.js';
import { modern } from '../testing/messages.js';
import { versionedRead } from './encoded-reads.js';
import type { HandleExtra } from './peer.js';
import { createServer } from './server.js';

/**
 * One request's transport objects, reachable only through the request's `extra` (as an HTTP
 * exchange is: its notify, signal and envelope check close over it). What a kept answer must
 * not keep.
 */
function extraOf(text: string): { extra: HandleExtra; exchange: WeakRef<object> } {
  const exchange = { response: 'the transport objects of one request', sent: [] as unknown[] };
  const signal = new AbortController().signal;
  const extra: HandleExtra = {
    notify: (message) => void exchange.sent.push(message),
    signal: () => (exchange.response === '' ? AbortSignal.abort() : signal),
    checkEnvelope: () => (exchange.response === '' ? undefined : undefined),
    replaySetting: 'headers',
    text,
  };
  return { extra, exchange: new WeakRef(exchange) };
}

function server() {
  const s = createServer({ name: 's', version: '1' });
  const version = {};
  s.resource('mem://doc', { name: 'doc', mimeType: 'text/plain' }, (uri) =>
    versionedRead({ contents: [{ uri, mimeType: 'text/plain', text: 'one' }] }, version, {
      valid: true,
    }),
  );
  s.tool('kept', { memo: { generation: () => 1 } }, () => 'kept');
  return s;
}

describe('a kept answer', () => {
  for (const [what, request] of [
    ['a versioned read', modern('resources/read', { uri: 'mem://doc' })],
    ['a memoised tool', modern('tools/call', { name: 'kept', arguments: {} })],
  ] as const) {
    it(`of ${what} keeps nothing of the request it answered (its transport objects go)`, async () => {
      const peer = server().connect({ transport: 'memory', send: () => undefined });
      const text = JSON.stringify({ ...request, id: 1 });
      const exchange = await (async () => {
        const { extra, exchange } = extraOf(text);
        await peer.handle(JSON.parse(text), extra);
        return exchange;
      })();
      // Kept: the same text is answered again from memory.
      expect(peer.replay(JSON.stringify({ ...request, id: 2 }), 'headers')).toMatchObject({
        id: 2,
      });
      expect(await stillAlive([exchange])).toEqual([]);
      expect(peer.replay(JSON.stringify({ ...request, id: 3 }), 'headers')).toMatchObject({
        id: 3,
      });
    });
  }
});
