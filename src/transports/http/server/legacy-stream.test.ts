import { describe, expect, it } from 'vitest';
import { ResourceServer } from '../../../auth/server/resource-server.js';
import type { AuthInfo } from '../../../server/auth-info.js';
import { createServer } from '../../../server/server.js';
import { initializeRequest, legacy } from '../../../testing/messages.js';
import { createHttpHandler } from './web-handler.js';

const URL_ = 'http://127.0.0.1/mcp';
const HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

describe('the 2025-11-25 GET stream of a client that stops reading', () => {
  it('is ended past maxListenQueueBytes, with a warning, instead of buffering without bound', async () => {
    const warnings: string[] = [];
    const server = createServer({
      name: 'get',
      version: '1',
      maxListenQueueBytes: 64 * 1024,
      onWarning: (m) => warnings.push(m),
    });
    const handle = createHttpHandler(server, { keepAliveMs: 0 });
    const post = (body: unknown, headers: Record<string, string>) =>
      handle(new Request(URL_, { method: 'POST', headers, body: JSON.stringify(body) }));
    const init = await post(initializeRequest(), HEADERS);
    const session = init.headers.get('mcp-session-id') as string;
    const inSession = {
      ...HEADERS,
      'mcp-session-id': session,
      'mcp-protocol-version': '2025-11-25',
    };
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, inSession);
    await post(legacy('resources/subscribe', { uri: 'mem://r' }), inSession);
    const stream = await handle(new Request(URL_, { headers: { 'mcp-session-id': session } }));
    expect(stream.status).toBe(200);
    // Nobody reads `stream.body`: every update stays queued in it.
    for (let i = 0; i < 5000 && warnings.length === 0; i++) {
      server.notifyResourceUpdated(`mem://r/${i}-${'x'.repeat(200)}`);
    }
    expect(warnings).toEqual([
      expect.stringMatching(
        /ended the GET stream of session .* more than maxListenQueueBytes \(65536\)/,
      ),
    ]);
    // The stream ended: reading it drains what was queued, then it is done.
    const reader = stream.body!.getReader();
    let bytes = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.length;
    }
    expect(bytes).toBeGreaterThan(64 * 1024);
    expect(bytes).toBeLessThan(256 * 1024);
    // The session lives on: the client may open its stream again.
    const again = await handle(new Request(URL_, { headers: { 'mcp-session-id': session } }));
    expect(again.status).toBe(200);
    handle.close();
  });
});

describe('the 2025-11-25 GET stream of a caller whose token runs out', () => {
  it('ends at the token expiry; the client may open it again with a fresh token', async () => {
    const server = createServer({ name: 'get', version: '1' });
    // A "short" token expires one to two seconds after it is checked (exp is in whole seconds):
    // never already past when the stream opens, whatever the load (the stream would then end
    // only at the clock skew's end). A "fresh" one much later.
    let shortExpiry = 0;
    const caller = (expiresAt: number): AuthInfo => ({
      subject: 'alice',
      scopes: [],
      claims: {},
      expiresAt,
    });
    const auth = new ResourceServer({
      resource: () => URL_,
      issuer: 'https://auth.example.com',
      verify: (token) => {
        const now = Math.floor(Date.now() / 1000);
        if (token === 'fresh') return caller(now + 3600);
        if (token !== 'short') return undefined;
        shortExpiry = now + 2;
        return caller(shortExpiry);
      },
    });
    const handle = createHttpHandler(server, { keepAliveMs: 0, auth });
    const withToken = (token: string) => ({ ...HEADERS, authorization: `Bearer ${token}` });
    const init = await handle(
      new Request(URL_, {
        method: 'POST',
        headers: withToken('short'),
        body: JSON.stringify(initializeRequest()),
      }),
    );
    const session = init.headers.get('mcp-session-id') as string;
    const open = (token: string) =>
      handle(
        new Request(URL_, {
          headers: { 'mcp-session-id': session, authorization: `Bearer ${token}` },
        }),
      );
    const stream = await open('short');
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    while (!(await reader.read()).done);
    // Ended by the expiry of the token it was opened with, not before (without one it would
    // stay open); a timer may fire a millisecond early against the wall clock.
    expect(Date.now()).toBeGreaterThanOrEqual(shortExpiry * 1000 - 5);
    const again = await open('fresh');
    expect(again.status).toBe(200);
    handle.close();
  });
});
