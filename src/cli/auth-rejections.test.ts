import { describe, expect, it } from 'vitest';
import { rejectionReporter } from './auth-rejections.js';

describe('rejectionReporter', () => {
  it('writes the reason, at most one line per interval, counting the rest', () => {
    const lines: string[] = [];
    let t = 0;
    const report = rejectionReporter(
      (l) => lines.push(l),
      1000,
      () => t,
    );
    report('ERR_JWT_EXPIRED');
    report('ERR_JWT_EXPIRED');
    report('ERR_JWS_SIGNATURE_VERIFICATION_FAILED');
    expect(lines).toEqual(['auth: refused a bearer token: ERR_JWT_EXPIRED']);
    t = 1000;
    report('inactive\nsecond line');
    expect(lines[1]).toBe(
      'auth: refused a bearer token: inactive second line (2 more refused since the last line)',
    );
  });
});
