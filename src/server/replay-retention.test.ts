import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { modern } from '../testing/messages.js';
import { versionedRead } from './encoded-reads.js';
import type { HandleExtra } from './peer.js';
import { createServer } from './server.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Whether `ref`'s target is gone after the current job ends and a full collection runs. */
async function collected(ref: WeakRef<object>): Promise<boolean> {
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return ref.deref() === undefined;
}

/** One request's transport objects, held only by the request: what a kept answer must not keep. */
function extraOf(text: string): { extra: HandleExtra; ref: WeakRef<object> } {
  const exchange = { socket: 'the transport objects of one request' };
  const extra: HandleExtra = {
    checkEnvelope: () => (exchange.socket === '' ? undefined : undefined),
    replaySetting: 'headers',
    text,
  };
  return { extra, ref: new WeakRef(extra) };
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
      const ref = await (async () => {
        const { extra, ref } = extraOf(text);
        await peer.handle(JSON.parse(text), extra);
        return ref;
      })();
      // Kept: the same text is answered again from memory.
      expect(peer.replay(JSON.stringify({ ...request, id: 2 }), 'headers')).toMatchObject({
        id: 2,
      });
      expect(await collected(ref)).toBe(true);
      expect(peer.replay(JSON.stringify({ ...request, id: 3 }), 'headers')).toMatchObject({
        id: 3,
      });
    });
  }
});
