import { describe, expect, it } from 'vitest';
import { classifyAddress } from './address.js';

// Every range the guard refuses, with its edges, and the addresses next to them that are public.
const TABLE: Array<[string, string | undefined]> = [
  // IPv4 loopback, and the inet_aton spellings of 127.0.0.1
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['127.1', 'loopback'],
  ['0x7f000001', 'loopback'],
  ['2130706433', 'loopback'],
  ['0177.0.0.1', 'loopback'],
  ['0x7f.0.0.1', 'loopback'],
  ['0x7f.1', 'loopback'],
  // RFC 1918
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['172.15.255.255', undefined],
  ['172.32.0.1', undefined],
  ['192.168.0.1', 'private'],
  ['192.169.0.1', undefined],
  // link-local, CGNAT, the cloud metadata endpoints inside and outside them
  ['169.254.0.1', 'linkLocal'],
  ['169.254.169.254', 'metadata'],
  ['100.64.0.1', 'carrierGradeNat'],
  ['100.127.255.255', 'carrierGradeNat'],
  ['100.128.0.1', undefined],
  ['100.100.100.200', 'metadata'],
  ['168.63.129.16', 'metadata'],
  ['fd00:ec2::254', 'metadata'],
  ['fd00:ec2:0:0:0:0:0:254', 'metadata'],
  // unspecified, broadcast, multicast, reserved
  ['0.0.0.0', 'unspecified'],
  ['0.1.2.3', 'unspecified'],
  ['0', 'unspecified'],
  ['255.255.255.255', 'broadcast'],
  ['224.0.0.1', 'multicast'],
  ['239.255.255.255', 'multicast'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['198.51.100.1', 'reserved'],
  ['203.0.113.1', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['192.88.99.1', 'reserved'],
  // public IPv4 (AS112 and AMT are globally reachable anycast)
  ['8.8.8.8', undefined],
  ['93.184.215.14', undefined],
  ['1.1.1.1', undefined],
  ['192.31.196.1', undefined],
  // IPv6 loopback, unspecified, link-local, unique-local, site-local, multicast
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['[::1]', 'loopback'],
  ['::', 'unspecified'],
  ['fe80::1', 'linkLocal'],
  ['fe80::1%eth0', 'linkLocal'],
  ['febf::1', 'linkLocal'],
  ['fc00::1', 'uniqueLocal'],
  ['fd12:3456::1', 'uniqueLocal'],
  ['fec0::1', 'siteLocal'],
  ['ff02::1', 'multicast'],
  ['ff0e::1', 'multicast'],
  // IPv4 inside IPv6: mapped, compatible, translated, NAT64 and 6to4 (judged by what they embed)
  ['::ffff:127.0.0.1', 'ipv4Mapped'],
  ['::ffff:7f00:1', 'ipv4Mapped'],
  ['[::ffff:127.0.0.1]', 'ipv4Mapped'],
  ['::ffff:8.8.8.8', 'ipv4Mapped'],
  ['::127.0.0.1', 'ipv4Compatible'],
  ['::7f00:1', 'ipv4Compatible'],
  ['::a00:1', 'ipv4Compatible'],
  ['::ffff:0:7f00:1', 'ipv4Translated'],
  ['64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b::a9fe:a9fe', 'metadata'],
  ['64:ff9b::808:808', undefined],
  ['64:ff9b:1::1', 'reserved'],
  ['2002:7f00:1::', 'loopback'],
  ['2002:c0a8:101::1', 'private'],
  ['2002:808:808::1', undefined],
  // reserved IPv6: documentation, Teredo, benchmarking, ORCHID, discard, outside 2000::/3
  ['2001:db8::1', 'reserved'],
  ['2001::1', 'reserved'],
  ['2001:2::1', 'reserved'],
  ['2001:20::1', 'reserved'],
  ['100::1', 'reserved'],
  ['5f00::1', 'reserved'],
  ['4000::1', 'reserved'],
  ['1::1', 'reserved'],
  // public IPv6
  ['2606:4700:4700::1111', undefined],
  ['2a00:1450:4001::200e', undefined],
  // not addresses at all
  ['', 'invalid'],
  ['localhost', 'invalid'],
  ['127.0.0.1.', 'invalid'],
  [' 127.0.0.1', 'invalid'],
  ['256.0.0.1', 'invalid'],
  ['1.2.3.4.5', 'invalid'],
  ['::1::2', 'invalid'],
  ['example.com', 'invalid'],
  // The URL parser that canonicalises IPv6 must not read past a bracket, a path or a port.
  ['2606:4700::1]/x', 'invalid'],
  ['2606:4700::1]:80', 'invalid'],
  ['2606:4700::1]#x', 'invalid'],
  ['2606:4700::1]?x', 'invalid'],
  ['[2606:4700::1]/', 'invalid'],
  [' 2606:4700::1', 'invalid'],
];

describe('classifyAddress', () => {
  it.each(TABLE)('%j is %s', (address, reason) => {
    expect(classifyAddress(address)).toBe(reason);
  });
});
