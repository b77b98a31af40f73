import { describe, expect, it } from 'vitest';
import { isMcpKitError } from '../errors/index.js';
import { redisKeys } from './keys.js';

describe('redisKeys', () => {
  it('puts every key and the channel under the prefix', () => {
    const keys = redisKeys('team-a:');
    expect([keys.events, keys.secret, keys.artifact('ab'), keys.artifactSeen('ab')]).toEqual([
      'team-a:events',
      'team-a:secret',
      'team-a:artifact:ab',
      'team-a:artifact-seen:ab',
    ]);
    expect(redisKeys().events).toBe('mcpkit:events');
  });

  it.each(['', 'has space:', 'tab\t', 'x'.repeat(201), 'nul\u0000'])(
    'refuses the prefix %j with BAD_ARGUMENTS',
    (prefix) => {
      expect(() => redisKeys(prefix)).toThrow(
        expect.objectContaining({ code: 'BAD_ARGUMENTS' }) as Error,
      );
      try {
        redisKeys(prefix);
      } catch (error) {
        expect(isMcpKitError(error, 'BAD_ARGUMENTS')).toBe(true);
      }
    },
  );
});
