import { describe, expect, it } from 'vitest';
import { guardOptionsFor, type AuthHttpPolicy } from './auth-http.js';
import { authorizationUrl } from './authorization-code.js';

const http = (policy: AuthHttpPolicy) => ({ policy, guard: guardOptionsFor(policy) });

describe('authorizationUrl', () => {
  it('takes an https authorization endpoint', () => {
    expect(
      authorizationUrl('https://as.example/authorize', http({ allowLoopback: false })).href,
    ).toBe('https://as.example/authorize');
  });

  it('refuses any scheme but https, and plain http but to loopback when allowed', () => {
    const strict = http({ allowLoopback: false });
    for (const endpoint of [
      'file:///etc/passwd',
      'javascript:alert(1)',
      'ms-settings:x',
      'http://as.example/authorize',
      'http://127.0.0.1:9/authorize',
      'not a url',
    ])
      expect(() => authorizationUrl(endpoint, strict)).toThrow(/authorization_endpoint/);
    const loopback = http({ allowLoopback: true });
    expect(authorizationUrl('http://127.0.0.1:9/authorize', loopback).host).toBe('127.0.0.1:9');
    expect(() => authorizationUrl('http://as.example/authorize', loopback)).toThrow(/https/);
  });
});
