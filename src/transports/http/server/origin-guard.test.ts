import { describe, expect, it } from 'vitest';
import { createOriginGuard, hostsAllowedFor, LOOPBACK_HOSTS } from './origin-guard.js';

describe('hostsAllowedFor', () => {
  it('is the loopback names for a loopback bind, each once', () => {
    expect(hostsAllowedFor('127.0.0.1')).toEqual(LOOPBACK_HOSTS);
    expect(hostsAllowedFor('localhost', ['LOCALHOST', 'localhost'])).toEqual([
      ...LOOPBACK_HOSTS,
      'LOCALHOST',
    ]);
  });

  it('adds the bound host and the extra names, so that a guard built on it accepts them', () => {
    const hosts = hostsAllowedFor('10.0.0.5', ['mcp.example.com']);
    expect(hosts).toEqual([...LOOPBACK_HOSTS, '10.0.0.5', 'mcp.example.com']);
    const guard = createOriginGuard({ allowedHosts: hosts });
    expect(guard('10.0.0.5:8080', undefined)).toBeUndefined();
    expect(guard('MCP.example.com', undefined)).toBeUndefined();
    expect(guard('evil.example', undefined)).toMatch(/Host "evil.example" is not allowed/);
  });

  it('accepts an IPv6 bind address as Host and Origin write it, in brackets', () => {
    const guard = createOriginGuard({ allowedHosts: hostsAllowedFor('fd00::2') });
    expect(guard('[fd00::2]:3333', undefined)).toBeUndefined();
    expect(guard('[FD00::2]', 'http://[fd00::2]:3333')).toBeUndefined();
    expect(guard('[fd00::3]:3333', undefined)).toMatch(/is not allowed/);
    expect(hostsAllowedFor('[fd00::2]')).toEqual([...LOOPBACK_HOSTS, '[fd00::2]']);
  });
});
