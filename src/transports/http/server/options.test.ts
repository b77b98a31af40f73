import { describe, expect, it } from 'vitest';
import { createServer } from '../../../server/server.js';
import { modern, modernHeaders } from '../../../testing/messages.js';
import { createHttpHandler } from './web-handler.js';
import {
  DEFAULT_HTTP_MAX_RESPONSE_BYTES,
  endpointLimitsOf,
  maxResponseBytesOf,
} from './options.js';

describe('maxResponseBytes (HTTP outbound cap)', () => {
  it('defaults to 32 MiB, whatever the inbound body cap', () => {
    expect(DEFAULT_HTTP_MAX_RESPONSE_BYTES).toBe(32 * 1024 * 1024);
    expect(maxResponseBytesOf({})).toBe(32 * 1024 * 1024);
    expect(maxResponseBytesOf({ maxBodyBytes: 1024 * 1024 })).toBe(32 * 1024 * 1024);
    expect(maxResponseBytesOf({ maxResponseBytes: 4096 })).toBe(4096);
  });

  it('refuses a cap below 4096 bytes or not an integer, naming the option', () => {
    for (const bad of [4095, 0, -1, 1.5, Number.NaN])
      expect(() => maxResponseBytesOf({ maxResponseBytes: bad })).toThrow(
        /maxResponseBytes must be an integer of at least 4096/,
      );
  });

  it('answers a 5 MiB read whole with a 4 MiB body cap, and -32603 past maxResponseBytes', async () => {
    const server = createServer({ name: 's', version: '1' });
    server.resource('fill://{n}', { name: 'fill' }, (uri, { n }) => ({
      uri,
      text: 'a'.repeat(Number(n)),
    }));
    const post = async (handler: (r: Request) => Promise<Response>, n: number) => {
      const body = modern('resources/read', { uri: `fill://${n}` });
      const res = await handler(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: modernHeaders('resources/read', `fill://${n}`),
          body: JSON.stringify(body),
        }),
      );
      return (await res.json()) as {
        result?: { contents: Array<{ text: string }> };
        error?: { code: number; data: unknown };
      };
    };
    const byDefault = createHttpHandler(server, { maxBodyBytes: 4 * 1024 * 1024 });
    const whole = await post(byDefault, 5 * 1024 * 1024);
    expect(whole.result?.contents[0]?.text.length).toBe(5 * 1024 * 1024);
    const small = createHttpHandler(server, { maxResponseBytes: 64 * 1024 });
    const refused = await post(small, 70 * 1024);
    expect(refused.error).toMatchObject({ code: -32603, data: { limit: 64 * 1024 } });
  });
});

describe('maxResponseBytes covers what the server sends on its own over SSE', () => {
  it('drops (and reports) a progress notification that would pass the cap, framing included, and answers', async () => {
    const server = createServer({ name: 's', version: '1' });
    server.tool('chatty', {}, async (_args, ctx) => {
      await ctx.progress(1, 3, 'x'.repeat(100_000));
      await ctx.progress(2, 3, 'small');
      return 'done';
    });
    const reports: string[] = [];
    const error = console.error;
    console.error = (text: unknown) => void reports.push(String(text));
    try {
      const handler = createHttpHandler(server, { maxResponseBytes: 8192 });
      const body = modern('tools/call', {
        name: 'chatty',
        arguments: {},
        _meta: { progressToken: 'p' },
      });
      const res = await handler(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: modernHeaders('tools/call', 'chatty'),
          body: JSON.stringify(body),
        }),
      );
      const text = await res.text();
      const events = text
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
      expect(events.map((e) => e['method'] ?? 'result')).toEqual([
        'notifications/progress',
        'result',
      ]);
      expect(events[0]).toMatchObject({ params: { progress: 2, message: 'small' } });
      expect(events[1]).toMatchObject({ result: { content: [{ type: 'text', text: 'done' }] } });
      expect(reports.join('\n')).toMatch(
        /dropped a \d+-byte notifications\/progress: over the 8169-byte cap \(maxResponseBytes\)/,
      );
    } finally {
      console.error = error;
    }
  });
});

describe('the body and session limits', () => {
  it('default when absent, and take the edges they allow', () => {
    expect(endpointLimitsOf({})).toEqual({
      maxBodyBytes: 4 * 1024 * 1024,
      maxBodyTotalBytes: 64 * 1024 * 1024,
      bodyTimeoutMs: 10_000,
      sessionIdleMs: 30 * 60_000,
      maxSessions: 10_000,
    });
    const edges = {
      maxBodyBytes: 1,
      maxBodyTotalBytes: 1,
      bodyTimeoutMs: 0,
      sessionIdleMs: 2_147_483_647,
      maxSessions: 1,
    };
    expect(endpointLimitsOf(edges)).toEqual(edges);
  });

  it.each([
    ['maxBodyBytes', 0, /http: maxBodyBytes must be a positive integer, got 0/],
    ['maxBodyBytes', 1.5, /maxBodyBytes must be a positive integer, got 1.5/],
    ['maxBodyTotalBytes', -1, /maxBodyTotalBytes must be a positive integer, got -1/],
    ['bodyTimeoutMs', 2 ** 31, /bodyTimeoutMs must be an integer from 0 \(never\) to 2147483647/],
    ['bodyTimeoutMs', Number.NaN, /bodyTimeoutMs must be an integer from 0/],
    ['sessionIdleMs', 0, /sessionIdleMs must be an integer from 1 to 2147483647, got 0/],
    ['maxSessions', 0.5, /maxSessions must be a positive integer, got 0.5/],
  ] as const)('refuse %s = %s, naming it, when the handler is made', (name, value, message) => {
    const server = createServer({ name: 's', version: '1' });
    expect(() => createHttpHandler(server, { [name]: value })).toThrow(message);
  });
});
