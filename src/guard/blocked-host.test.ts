import { describe, expect, it } from 'vitest';
import { blockedHost } from './index.js';

describe('blockedHost', () => {
  it.each([
    ['localhost', 'loopback'],
    ['localhost.', 'loopback'],
    ['LocalHost', 'loopback'],
    ['a.localhost.', 'loopback'],
    ['metadata.google.internal.', 'metadata'],
    ['METADATA.GOOG', 'metadata'],
    ['127.0.0.1', 'loopback'],
    ['[::1]', 'loopback'],
    ['169.254.169.254', 'metadata'],
    ['10.1.2.3', 'private'],
    ['[::ffff:127.0.0.1]', 'ipv4Mapped'],
  ])('%s is %s', (host, reason) => expect(blockedHost(host)).toBe(reason));

  it.each(['example.com', '93.184.215.14', '169.254.169.254.nip.io', 'a.txt', '5'])(
    '%s is not refused without DNS',
    (host) => expect(blockedHost(host)).toBeUndefined(),
  );
});
