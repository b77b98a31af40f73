import { describe, expect, it } from 'vitest';
import {
  chunkInterest,
  decodeBusMessage,
  encodeBusMessage,
  MAX_BUS_MESSAGE_CHARS,
  MAX_INTEREST_ID_CHARS,
  MAX_INTEREST_URI_CHARS,
  MAX_GAP_SHOWN_CHARS,
  MAX_INTEREST_URIS,
  shownGap,
} from './wire.js';

describe('bus messages', () => {
  it('round-trips events and gap notices', () => {
    for (const message of [
      { from: 'a', event: { type: 'resource-updated' as const, uri: 'file:///d/x.md' } },
      { from: 'b', event: { type: 'list-changed' as const, list: 'resources' as const } },
      { from: 'c', gap: 'could not publish' },
    ])
      expect(decodeBusMessage(encodeBusMessage(message))).toEqual(message);
  });

  it.each([
    ['not JSON', '{'],
    ['not an object', '"x"'],
    ['another version', '{"v":2,"from":"a","event":{"type":"list-changed","list":"tools"}}'],
    ['no sender', '{"v":1,"event":{"type":"list-changed","list":"tools"}}'],
    ['an unknown event', '{"v":1,"from":"a","event":{"type":"deleted","uri":"x:y"}}'],
    ['an unknown list', '{"v":1,"from":"a","event":{"type":"list-changed","list":"roots"}}'],
    ['an empty uri', '{"v":1,"from":"a","event":{"type":"resource-updated","uri":""}}'],
    [
      'both event and gap',
      '{"v":1,"from":"a","gap":"x","event":{"type":"list-changed","list":"tools"}}',
    ],
    ['neither', '{"v":1,"from":"a"}'],
    ['too long', `{"v":1,"from":"a","gap":"${'x'.repeat(MAX_BUS_MESSAGE_CHARS)}"}`],
  ])('drops %s', (_what, text) => {
    expect(decodeBusMessage(text)).toBeUndefined();
  });

  it("repeats another instance's gap notice escaped and cut short", () => {
    const plain = 'instance 1 could not publish a change (Connection is closed.)';
    expect(shownGap(plain)).toBe(plain);
    expect(shownGap('a\u001b[2Jb\u009bc\u202ed\ne\u{e0041}f\ud800')).toBe(
      'a\\x1b[2Jb\\x9bc\\u202ed\\ne\\u{e0041}f\\ud800',
    );
    expect(shownGap('x'.repeat(MAX_GAP_SHOWN_CHARS + 1))).toBe(
      `${'x'.repeat(MAX_GAP_SHOWN_CHARS)}…`,
    );
  });

  it('keeps only the fields it knows', () => {
    const text = '{"v":1,"from":"a","event":{"type":"resource-updated","uri":"a:b","extra":1}}';
    expect(decodeBusMessage(text)).toEqual({
      from: 'a',
      event: { type: 'resource-updated', uri: 'a:b' },
    });
  });
});

describe('interest messages', () => {
  const ok = { type: 'attach', from: 's1', uris: ['file:///a.md'], everyMs: 5000 };
  const text = (interest: unknown) => JSON.stringify({ v: 1, from: 'bus', interest });

  it('round-trip, all four kinds', () => {
    for (const interest of [
      { type: 'attach' as const, from: 's1', uris: ['file:///a.md', 'file:///d/'], everyMs: 5000 },
      { type: 'refresh' as const, from: 's1', uris: ['x:y'], everyMs: 10 },
      { type: 'detach' as const, from: 's1', uris: ['file:///a.md'] },
      { type: 'query' as const, from: 's1' },
    ]) {
      const message = { from: 'bus', interest };
      expect(decodeBusMessage(encodeBusMessage(message))).toEqual(message);
    }
  });

  it('accept the bounds themselves', () => {
    const uris = Array.from({ length: MAX_INTEREST_URIS }, (_, i) => `m://${i}`);
    for (const interest of [
      { ...ok, uris },
      { ...ok, uris: ['u'.repeat(MAX_INTEREST_URI_CHARS)] },
      { ...ok, from: 'i'.repeat(MAX_INTEREST_ID_CHARS) },
      { ...ok, everyMs: 10 },
      { ...ok, everyMs: 86_400_000 },
    ])
      expect(decodeBusMessage(text(interest))?.interest).toEqual(interest);
  });

  it.each([
    ['an unknown type', { ...ok, type: 'subscribe' }],
    ['no server id', { ...ok, from: undefined }],
    ['an empty server id', { ...ok, from: '' }],
    ['a server id too long', { ...ok, from: 'i'.repeat(MAX_INTEREST_ID_CHARS + 1) }],
    ['no uris', { ...ok, uris: undefined }],
    ['uris not a list', { ...ok, uris: 'file:///a.md' }],
    ['an empty list', { ...ok, uris: [] }],
    ['too many uris', { ...ok, uris: Array.from({ length: MAX_INTEREST_URIS + 1 }, () => 'm:x') }],
    ['a uri not a string', { ...ok, uris: ['m:x', 7] }],
    ['an empty uri', { ...ok, uris: [''] }],
    ['a uri too long', { ...ok, uris: ['u'.repeat(MAX_INTEREST_URI_CHARS + 1)] }],
    ['no everyMs on an attach', { ...ok, everyMs: undefined }],
    ['everyMs as text', { ...ok, everyMs: '5000' }],
    ['everyMs below 10', { ...ok, everyMs: 9 }],
    ['everyMs above a day', { ...ok, everyMs: 86_400_001 }],
    ['everyMs not an integer', { ...ok, everyMs: 50.5 }],
    ['everyMs on a detach', { type: 'detach', from: 's1', uris: ['m:x'], everyMs: 5 }],
    ['uris on a query', { type: 'query', from: 's1', uris: ['m:x'] }],
    ['everyMs on a query', { type: 'query', from: 's1', everyMs: 5000 }],
    ['an array', [ok]],
    ['null', null],
    ['a string', 'attach'],
  ])('drop %s', (_what, interest) => {
    expect(decodeBusMessage(text(interest))).toBeUndefined();
  });

  it('drop interest beside an event or a gap', () => {
    const both = { v: 1, from: 'a', gap: 'x', interest: ok };
    expect(decodeBusMessage(JSON.stringify(both))).toBeUndefined();
    const event = { type: 'list-changed', list: 'tools' };
    expect(decodeBusMessage(JSON.stringify({ v: 1, from: 'a', event, interest: ok }))).toBe(
      undefined,
    );
  });

  it('keep only the fields they know', () => {
    expect(decodeBusMessage(text({ ...ok, extra: { deep: [1, 2] } }))?.interest).toEqual(ok);
  });
});

describe('chunkInterest', () => {
  const refresh = (uris: string[]) =>
    ({ type: 'refresh', from: 'server-1', uris, everyMs: 5000 }) as const;

  it('leaves a small message and a query whole', () => {
    expect(chunkInterest(refresh(['m://a']))).toEqual({ chunks: [refresh(['m://a'])], dropped: 0 });
    const query = { type: 'query' as const, from: 's' };
    expect(chunkInterest(query)).toEqual({ chunks: [query], dropped: 0 });
  });

  it('splits by count: every chunk decodes, and together they hold every URI in order', () => {
    const uris = Array.from({ length: 2 * MAX_INTEREST_URIS + 1 }, (_, i) => `file:///d/${i}.md`);
    const { chunks, dropped } = chunkInterest(refresh(uris));
    expect([chunks.map((c) => (c.type === 'query' ? 0 : c.uris.length)), dropped]).toEqual([
      [MAX_INTEREST_URIS, MAX_INTEREST_URIS, 1],
      0,
    ]);
    const decoded = chunks.map(
      (interest) => decodeBusMessage(encodeBusMessage({ from: 'bus', interest }))?.interest,
    );
    expect(decoded).toEqual(chunks);
    expect(chunks.flatMap((c) => (c.type === 'query' ? [] : c.uris))).toEqual(uris);
  });

  it('splits by size: long URIs, and ones JSON escapes, stay under the message bound', () => {
    const long = Array.from({ length: 40 }, (_, i) => `m://${i}/${'x'.repeat(4000)}`);
    const escaped = Array.from({ length: 40 }, (_, i) => `m://${i}/${'\u0001'.repeat(4000)}`);
    for (const uris of [long, escaped]) {
      const { chunks } = chunkInterest(refresh(uris));
      expect(chunks.length).toBeGreaterThan(1);
      for (const interest of chunks) {
        const text = encodeBusMessage({ from: crypto.randomUUID(), interest });
        expect(text.length).toBeLessThanOrEqual(MAX_BUS_MESSAGE_CHARS);
        expect(decodeBusMessage(text)?.interest).toEqual(interest);
      }
      expect(chunks.flatMap((c) => (c.type === 'query' ? [] : c.uris))).toEqual(uris);
    }
  });

  it('leaves out URIs that can never be carried, and sends nothing when none is left', () => {
    const tooLong = 'u'.repeat(MAX_INTEREST_URI_CHARS + 1);
    expect(chunkInterest(refresh(['m://a', tooLong, '']))).toEqual({
      chunks: [refresh(['m://a'])],
      dropped: 2,
    });
    expect(chunkInterest({ type: 'detach', from: 's', uris: [tooLong] })).toEqual({
      chunks: [],
      dropped: 1,
    });
  });
});
