import { describe, expect, it } from 'vitest';
import { ARTIFACT_URI_PREFIX, MemoryLinkStore } from './link-store.js';

const text = (t: string, mimeType = 'text/plain') => ({
  name: `${t}.txt`,
  mimeType,
  text: t,
  size: t.length,
});

function clocked(options: ConstructorParameters<typeof MemoryLinkStore>[0] = {}) {
  const clock = { now: 1_000 };
  const store = new MemoryLinkStore({ now: () => clock.now, ...options });
  return { store, clock };
}

describe('MemoryLinkStore', () => {
  it('stores an artifact under a content-addressed URI and gets it back', async () => {
    const { store, clock } = clocked({ ttlMs: 500 });
    const uri = await store.put(text('hello'));
    expect(uri).toMatch(/^mcpkit:\/\/artifacts\/[0-9a-f]{64}$/);
    expect(await store.get(uri)).toEqual({
      found: { ...text('hello'), uri, expiresAt: clock.now + 500 },
    });
    const blobUri = await store.put({ name: 'b', mimeType: 'image/png', blob: 'AAEC', size: 3 });
    expect(await store.get(blobUri)).toMatchObject({ found: { blob: 'AAEC', uri: blobUri } });
    expect(store.size).toBe(2);
  });

  it('gives the same URI for the same content and another for other content', async () => {
    const store = new MemoryLinkStore({ secret: 's' });
    const uri = await store.put(text('same'));
    expect(await store.put({ ...text('same'), name: 'renamed.txt' })).toBe(uri);
    expect(store.size).toBe(1);
    const others = await Promise.all([
      store.put(text('other')),
      store.put(text('same', 'text/markdown')),
      store.put({ name: 'x', mimeType: 'text/plain', blob: 'same', size: 3 }),
    ]);
    expect(new Set([uri, ...others]).size).toBe(4);
  });

  it('gives the same URIs under a shared secret and other URIs under another', async () => {
    const content = text('shared');
    const a = await new MemoryLinkStore({ secret: 'one' }).put(content);
    expect(await new MemoryLinkStore({ secret: 'one' }).put(content)).toBe(a);
    expect(await new MemoryLinkStore({ secret: 'two' }).put(content)).not.toBe(a);
    expect(await new MemoryLinkStore().put(content)).not.toBe(a);
    const bytes = new Uint8Array([1, 2, 3]);
    expect(await new MemoryLinkStore({ secret: bytes }).uriFor(content)).toBe(
      await new MemoryLinkStore({ secret: new Uint8Array([1, 2, 3]) }).uriFor(content),
    );
  });

  it('gives with uriFor the URI put would give, without storing', async () => {
    const store = new MemoryLinkStore({ secret: 's' });
    const uri = await store.uriFor(text('later'));
    expect(store.size).toBe(0);
    expect(await store.get(uri)).toEqual({ missing: true });
    expect(await store.put(text('later'))).toBe(uri);
  });

  it.each([
    [`${ARTIFACT_URI_PREFIX}abc`, true],
    [`${ARTIFACT_URI_PREFIX}`, true],
    ['mcpkit://artifact/abc', false],
    ['mem://artifacts/abc', false],
    ['', false],
  ])('owns(%j) is %s', (uri, owned) => {
    expect(new MemoryLinkStore().owns(uri)).toBe(owned);
  });

  it('answers an unknown URI with missing', async () => {
    expect(await new MemoryLinkStore().get(`${ARTIFACT_URI_PREFIX}${'0'.repeat(64)}`)).toEqual({
      missing: true,
    });
  });

  it('expires by TTL (default or per put): expired, then missing once tombstones roll over', async () => {
    const { store, clock } = clocked({ ttlMs: 100, maxTombstones: 2 });
    const a = await store.put(text('a'));
    const short = await store.put(text('short'), 10);
    clock.now += 10;
    expect(await store.get(short)).toEqual({ expired: true });
    expect(await store.get(a)).toMatchObject({ found: { text: 'a' } });
    clock.now += 89;
    expect(await store.get(a)).toMatchObject({ found: { text: 'a' } });
    clock.now += 1;
    expect(await store.get(a)).toEqual({ expired: true });
    expect(await store.get(a)).toEqual({ expired: true });
    expect(store.size).toBe(0);

    // Two more expiries push the oldest tombstone ('short') out, then 'a'.
    const b = await store.put(text('b'));
    clock.now += 100;
    expect(await store.get(b)).toEqual({ expired: true });
    expect(await store.get(short)).toEqual({ missing: true });
    expect(await store.get(a)).toEqual({ expired: true });
    const c = await store.put(text('c'));
    clock.now += 100;
    await store.put(text('d')); // drops the expired head ('c') on the way in
    expect(await store.get(a)).toEqual({ missing: true });
    expect(await store.get(c)).toEqual({ expired: true });
  });

  it('finds an expired artifact again once it is put again', async () => {
    const { store, clock } = clocked({ ttlMs: 100 });
    const uri = await store.put(text('again'));
    clock.now += 100;
    expect(await store.get(uri)).toEqual({ expired: true });
    expect(await store.put(text('again'))).toBe(uri);
    expect(await store.get(uri)).toMatchObject({ found: { text: 'again' } });
  });

  it('evicts the oldest artifacts beyond maxBytes, keeping the newest even when it is larger', async () => {
    const store = new MemoryLinkStore({ maxBytes: 10 });
    const a = await store.put(text('aaaa'));
    const b = await store.put(text('bbbb'));
    const c = await store.put(text('cccc'));
    expect(await store.get(a)).toEqual({ expired: true });
    expect(await store.get(b)).toMatchObject({ found: { text: 'bbbb' } });
    expect(await store.get(c)).toMatchObject({ found: { text: 'cccc' } });
    const big = await store.put(text('x'.repeat(20)));
    expect(store.size).toBe(1);
    expect(await store.get(big)).toMatchObject({ found: { size: 20 } });
    expect(await store.get(c)).toEqual({ expired: true });
  });

  it('counts a re-put artifact once and moves it to the newest place', async () => {
    const store = new MemoryLinkStore({ maxBytes: 8 });
    const a = await store.put(text('aaaa'));
    const b = await store.put(text('bbbb'));
    await store.put(text('aaaa')); // refreshed: 'bbbb' is now the oldest, and 8 bytes still fit
    expect(store.size).toBe(2);
    await store.put(text('c'));
    expect(await store.get(b)).toEqual({ expired: true });
    expect(await store.get(a)).toMatchObject({ found: { text: 'aaaa' } });
  });

  it('a re-put of the same content keeps the stored artifact and moves only its lifetime and name', async () => {
    const { store, clock } = clocked({ ttlMs: 100 });
    const uri = await store.put(text('same'));
    clock.now += 90;
    expect(await store.put({ ...text('same'), name: 'renamed.txt' })).toBe(uri);
    clock.now += 90; // past the first lifetime, within the second
    expect(await store.get(uri)).toEqual({
      found: { ...text('same'), name: 'renamed.txt', uri, expiresAt: clock.now + 10 },
    });
  });

  it("names an artifact by the HMAC of its type and text, whatever the text's characters", async () => {
    const secret = 'shared secret';
    const store = new MemoryLinkStore({ secret });
    const key = await crypto.subtle.importKey(
      'raw',
      new TextEncoder().encode(secret),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    for (const body of [
      'plain ascii',
      'caf\u00e9 \u65e5\u672c \u{1f600} \u2026',
      'lone \ud800 end',
      '',
    ]) {
      const mac = await crypto.subtle.sign(
        'HMAC',
        key,
        new TextEncoder().encode(`text/plain\nt:${body}`),
      );
      const hex = Buffer.from(mac).toString('hex');
      expect(await store.put(text(body))).toBe(`${ARTIFACT_URI_PREFIX}${hex}`);
    }
  });
});
