/**
 * A listen stream holds its caller's authorization: it ends (`-32600`, `reason: token-expired`)
 * when the token it was opened with expires, and a token already past `exp` (accepted within
 * the clock skew) is not cut at once but when the skew runs out. A caller without an expiry, or
 * no caller at all, keeps its stream.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JSONRPCMessage } from '../protocol/jsonrpc.js';
import { modern } from '../testing/messages.js';
import type { AuthInfo } from './auth-info.js';
import { createServer } from './server.js';
import { TOKEN_CLOCK_SKEW_S } from './token-expiry.js';

const NOW_S = 1_800_000_000;

function caller(expiresAt?: number): AuthInfo {
  return {
    subject: 'alice',
    clientId: 'c',
    scopes: [],
    claims: {},
    ...(expiresAt === undefined ? {} : { expiresAt }),
  };
}

function open(auth?: AuthInfo) {
  const server = createServer({ name: 's', version: '1' });
  const peer = server.connect({ transport: 'memory', send: () => undefined });
  const frames: JSONRPCMessage[] = [];
  let answer: unknown;
  const req = modern('subscriptions/listen', { notifications: { toolsListChanged: true } });
  void peer
    .handle(req, { notify: (m) => void frames.push(m), ...(auth ? { authInfo: auth } : {}) })
    .then((a) => (answer = a));
  return { server, frames, answered: () => answer as Record<string, unknown> | undefined };
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(NOW_S * 1000);
});
afterEach(() => vi.useRealTimers());

describe('listen streams and token expiry', () => {
  it("ends the stream when the caller's token expires", async () => {
    const stream = open(caller(NOW_S + 30));
    await vi.advanceTimersByTimeAsync(29_900);
    expect(stream.answered()).toBeUndefined();
    expect(stream.server.listenerCount).toBe(1);
    await vi.advanceTimersByTimeAsync(200);
    expect(stream.answered()).toMatchObject({
      error: {
        code: -32600,
        message: expect.stringMatching(/token .*expired.*listen again/),
        data: { reason: 'token-expired', error: 'invalid_token' },
      },
    });
    expect(stream.server.listenerCount).toBe(0);
    // The acknowledgement came first, as for any stream.
    expect(stream.frames[0]).toMatchObject({
      method: 'notifications/subscriptions/acknowledged',
    });
  });

  it('cuts a token accepted past its exp when the clock skew runs out, not at once', async () => {
    const stream = open(caller(NOW_S - 10));
    await vi.advanceTimersByTimeAsync(1000);
    expect(stream.answered()).toBeUndefined();
    await vi.advanceTimersByTimeAsync((TOKEN_CLOCK_SKEW_S - 10) * 1000);
    expect(stream.answered()).toMatchObject({ error: { data: { reason: 'token-expired' } } });
  });

  it('keeps the stream of a caller without expiry, and of no caller', async () => {
    const forever = open(caller());
    const anonymous = open();
    await vi.advanceTimersByTimeAsync(24 * 3600_000);
    expect(forever.answered()).toBeUndefined();
    expect(anonymous.answered()).toBeUndefined();
  });
});
