import { describe, expect, it } from 'vitest';
import { decodeBusMessage, encodeBusMessage, MAX_BUS_MESSAGE_CHARS } from './wire.js';

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

  it('keeps only the fields it knows', () => {
    const text = '{"v":1,"from":"a","event":{"type":"resource-updated","uri":"a:b","extra":1}}';
    expect(decodeBusMessage(text)).toEqual({
      from: 'a',
      event: { type: 'resource-updated', uri: 'a:b' },
    });
  });
});
