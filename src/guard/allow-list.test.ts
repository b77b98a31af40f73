import { describe, expect, it } from 'vitest';
import { checkAddress, parseAllowList } from './allow-list.js';
import { parseIp } from './address.js';

const CHECK: Array<[string, string[] | undefined, string | undefined]> = [
  ['8.8.8.8', undefined, undefined],
  ['127.0.0.1', undefined, 'loopback'],
  ['127.0.0.1', [], 'loopback'],
  ['127.0.0.1', ['127.0.0.1'], undefined],
  ['127.0.0.2', ['127.0.0.1'], 'loopback'],
  ['127.0.0.2', ['127.0.0.0/8'], undefined],
  ['127.0.0.1', ['127.1'], undefined],
  ['10.9.8.7', ['10.0.0.0/8'], undefined],
  ['11.0.0.1', ['10.0.0.0/8'], undefined],
  ['192.168.1.1', ['10.0.0.0/8'], 'private'],
  ['::1', ['::1'], undefined],
  ['::1', ['[::1]'], undefined],
  ['::1', ['127.0.0.1'], 'loopback'],
  ['fd12::1', ['fd00::/8'], undefined],
  ['fd12::1', ['[fd00::]/8'], undefined],
  ['fe80::1%eth0', ['fe80::/10'], undefined],
  // Mapped IPv6 is matched as written, not through the IPv4 inside it.
  ['::ffff:127.0.0.1', ['127.0.0.1'], 'ipv4Mapped'],
  ['::ffff:127.0.0.1', ['::ffff:127.0.0.1'], undefined],
  ['::ffff:127.0.0.1', ['::ffff:0:0/96'], undefined],
  // A metadata endpoint is exempt only when named exactly, never through a CIDR.
  ['169.254.169.254', ['169.254.0.0/16'], 'metadata'],
  ['169.254.169.254', ['0.0.0.0/0'], 'metadata'],
  ['169.254.169.254', ['169.254.169.254/32'], undefined],
  ['169.254.169.254', ['169.254.169.254'], undefined],
  ['169.254.1.1', ['169.254.0.0/16'], undefined],
  ['fd00:ec2::254', ['fd00::/8'], 'metadata'],
  ['fd00:ec2::254', ['fd00:ec2::254'], undefined],
  ['100.100.100.200', ['100.64.0.0/10'], 'metadata'],
  // … nor through an IPv6 range whose addresses carry it inside.
  ['::ffff:169.254.169.254', ['::/0'], 'ipv4Mapped'],
  ['::ffff:169.254.169.254', ['::ffff:0:0/96'], 'ipv4Mapped'],
  ['::ffff:169.254.169.254', ['::ffff:169.254.169.254'], undefined],
  ['::169.254.169.254', ['::/96'], 'ipv4Compatible'],
  ['64:ff9b::a9fe:a9fe', ['64:ff9b::/96'], 'metadata'],
  ['2002:a9fe:a9fe::1', ['2002::/16'], 'metadata'],
  ['64:ff9b::a00:1', ['64:ff9b::/96'], undefined],
  // Name entries do not count for a bare address.
  ['127.0.0.1', ['localhost'], 'loopback'],
  // Not an address: refused whatever the list says.
  ['not-an-ip', ['0.0.0.0/0'], 'invalid'],
];

describe('checkAddress', () => {
  it.each(CHECK)('%j with allow %j is %s', (address, allow, reason) => {
    expect(checkAddress(address, allow)).toBe(reason);
  });
});

describe('parseAllowList', () => {
  it('matches host names as a URL writes them: any case, trailing dot ignored, IDN as punycode', () => {
    const list = parseAllowList(['Internal.Example.', 'bücher.example', 'localhost']);
    expect(list.hasName('internal.example')).toBe(true);
    expect(list.hasName('INTERNAL.example.')).toBe(true);
    expect(list.hasName('xn--bcher-kva.example')).toBe(true);
    expect(list.hasName('localhost.')).toBe(true);
    expect(list.hasName('other.example')).toBe(false);
    expect(list.hasName('sub.internal.example')).toBe(false);
    expect(list.empty).toBe(false);
    expect(parseAllowList().empty).toBe(true);
  });

  it('keeps addresses out of the name set', () => {
    const list = parseAllowList(['127.0.0.1', '[::1]']);
    expect(list.hasName('127.0.0.1')).toBe(false);
    expect(list.covers(parseIp('127.0.0.1')!)).toBe(true);
    expect(list.covers(parseIp('::1')!)).toBe(true);
    expect(list.covers(parseIp('127.0.0.2')!)).toBe(false);
  });

  it.each([
    [''],
    ['http://example.com'],
    ['example.com:8080'],
    ['user@example.com'],
    ['exa mple.com'],
    ['10.0.0.0/33'],
    ['::/129'],
    ['10.0.0.0/'],
    ['10.0.0.0/x'],
    ['nonsense/8'],
    ['example.com/path'],
    ['.'],
  ])('refuses the entry %j with a TypeError that names it', (entry) => {
    expect(() => parseAllowList([entry])).toThrow(TypeError);
    expect(() => parseAllowList([entry])).toThrow(JSON.stringify(entry));
  });
});
