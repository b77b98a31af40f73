import { describe, expect, it } from 'vitest';
import { parseBearerChallenge } from './www-authenticate.js';
import {
  authorizationServerMetadataUrls,
  resourceCovers,
  resourceMetadataUrls,
} from './discovery.js';
import { selectScope } from './scopes.js';

describe('parseBearerChallenge', () => {
  it('reads quoted and bare params of the Bearer challenge only', () => {
    expect(
      parseBearerChallenge(
        'Basic realm="x", Bearer error=insufficient_scope, scope="a b", resource_metadata="https://r.example/.well-known/oauth-protected-resource/mcp"',
      ),
    ).toEqual({
      error: 'insufficient_scope',
      scope: 'a b',
      resourceMetadata: 'https://r.example/.well-known/oauth-protected-resource/mcp',
    });
    expect(parseBearerChallenge('Bearer realm="a \\"q\\"", scope="s"')).toEqual({ scope: 's' });
    expect(parseBearerChallenge('Basic realm="x"')).toBeUndefined();
    expect(parseBearerChallenge(null)).toBeUndefined();
  });
});

describe('discovery URLs', () => {
  it('PRM: the challenge URL alone, else path-suffixed then root', () => {
    const url = new URL('https://s.example/mcp/');
    expect(resourceMetadataUrls(url, 'https://s.example/custom.json')).toEqual([
      'https://s.example/custom.json',
    ]);
    expect(resourceMetadataUrls(url)).toEqual([
      'https://s.example/.well-known/oauth-protected-resource/mcp',
      'https://s.example/.well-known/oauth-protected-resource',
    ]);
  });

  it('AS metadata: RFC 8414 and OIDC, path inserted then OIDC appended', () => {
    expect(authorizationServerMetadataUrls('https://as.example/tenant1')).toEqual([
      'https://as.example/.well-known/oauth-authorization-server/tenant1',
      'https://as.example/.well-known/openid-configuration/tenant1',
      'https://as.example/tenant1/.well-known/openid-configuration',
    ]);
    expect(authorizationServerMetadataUrls('https://as.example')).toEqual([
      'https://as.example/.well-known/oauth-authorization-server',
      'https://as.example/.well-known/openid-configuration',
    ]);
  });

  it('a PRM resource covers its endpoint or a path above it on the same origin only', () => {
    const server = new URL('https://s.example/mcp');
    expect(resourceCovers('https://s.example/mcp', server)).toBe(true);
    expect(resourceCovers('https://s.example/', server)).toBe(true);
    expect(resourceCovers('https://s.example/other', server)).toBe(false);
    expect(resourceCovers('https://s.example/mc', server)).toBe(false);
    expect(resourceCovers('https://evil.example/mcp', server)).toBe(false);
  });
});

describe('selectScope', () => {
  const as = { issuer: 'https://as.example', scopes_supported: ['a', 'offline_access'] };
  it('challenge, else scopes_supported, else nothing; offline_access only when offered', () => {
    expect(selectScope('x', ['a'], as, undefined)).toBe('x offline_access');
    expect(selectScope(undefined, ['a', 'b'], { issuer: 'i' }, undefined)).toBe('a b');
    expect(selectScope(undefined, undefined, as, undefined)).toBeUndefined();
    expect(selectScope('b', undefined, { issuer: 'i' }, 'a')).toBe('a b');
  });
});
