import { describe, expect, it } from 'vitest';
import { callerKey, type AuthInfo } from './auth-info.js';

const anon = (extra: Partial<AuthInfo>): AuthInfo => ({ scopes: [], claims: {}, ...extra });

describe('callerKey', () => {
  it('is the same for two tokens of one caller', () => {
    const a = anon({ issuer: 'https://as', subject: 'alice', clientId: 'c', claims: { jti: '1' } });
    const b = anon({ issuer: 'https://as', subject: 'alice', clientId: 'c', claims: { jti: '2' } });
    expect(callerKey(a)).toBe(callerKey(b));
  });

  it('never collapses callers that name neither subject nor client into one key', () => {
    const one = anon({ issuer: 'https://as', tokenKey: 'h1' });
    const two = anon({ issuer: 'https://as', tokenKey: 'h2' });
    expect(callerKey(one)).not.toBe(callerKey(two));
    // No token hash either (an AuthInfo handed in directly): the claims tell them apart.
    const x = anon({ issuer: 'https://as', claims: { user: 'x' } });
    const y = anon({ issuer: 'https://as', claims: { user: 'y' } });
    expect(callerKey(x)).not.toBe(callerKey(y));
  });
});
