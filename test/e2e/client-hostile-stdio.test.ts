/**
 * "A misbehaving server never takes the host down", over stdio: `McpClient` end to end against a
 * real hostile child process (test/e2e/hostile/hostile-stdio-server.mjs). Each misbehaviour must
 * fail the request it concerns with a specific `McpKitError` code, while a healthy request sent
 * before it (held by the server until released, so answered after) still resolves.
 */
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { McpClient, type McpClientOptions } from '../../src/client/index.js';
import {
  StdioClientTransport,
  type StdioClientOptions,
} from '../../src/transports/stdio/client/index.js';
import { expectBoundedFlood, healthy, nextKey, rejection } from './hostile/expect-helpers.js';

const SERVER = fileURLToPath(new URL('./hostile/hostile-stdio-server.mjs', import.meta.url));
const MiB = 1024 * 1024;

const open: McpClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function connect(
  transport: Partial<StdioClientOptions> = {},
  client: Partial<McpClientOptions> = {},
): Promise<{ client: McpClient; transport: StdioClientTransport }> {
  const t = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER],
    closeTimeoutMs: 500,
    ...transport,
  });
  const c = new McpClient({ transport: t, requestTimeoutMs: 20_000, ...client });
  open.push(c);
  await c.connect();
  expect(c.era).toBe('modern');
  return { client: c, transport: t };
}

describe('McpClient over stdio against a hostile server', () => {
  it('garbage lines: warnings only, and the malformed answer fails its request with INVALID_RESPONSE', async () => {
    const { client } = await connect();
    const ok = healthy(client);
    const after = await client.callTool('garbage', { then: 'valid' });
    expect(after.content).toEqual([{ type: 'text', text: 'after the garbage' }]);
    const error = await rejection(client.callTool('garbage'));
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(error.message).toMatch(/Invalid response from server/);
    expect(ok.settled()).toBe(false);
    await ok.finish();
    const invalid = client.warnings.filter((w) => w.code === 'INVALID_MESSAGE');
    expect(invalid.length).toBeGreaterThanOrEqual(14);
    expect(invalid.some((w) => w.message.includes('not JSON'))).toBe(true);
    // Escaped: what the server wrote cannot forge terminal output.
    for (const w of invalid) expect(w.message).not.toMatch(/[\u0000-\u0008\u001b]/);
  });

  it('a line over maxLineBytes with its id up front fails that request only (RESPONSE_TOO_LARGE)', async () => {
    const { client } = await connect({ maxLineBytes: MiB });
    const ok = healthy(client);
    const error = await rejection(client.callTool('overcap', { bytes: 2 * MiB, at: 'head' }));
    expect(error.code).toBe('RESPONSE_TOO_LARGE');
    expect(error.message).toMatch(/a message of more than \d+ bytes/);
    expect(error.message).toContain(`maxLineBytes (${MiB} bytes)`);
    expect(ok.settled()).toBe(false);
    await ok.finish();
  });

  it.each(['tail', 'none', 'text'])(
    'a line over maxLineBytes with no id in its first 4 KiB (%s) fails every request in flight; the next one works',
    async (at) => {
      const { client } = await connect({ maxLineBytes: MiB });
      const key = nextKey('k');
      const held = client.callTool('healthy', { key });
      const error = await rejection(client.callTool('overcap', { bytes: 2 * MiB, at }));
      expect(error.code).toBe('RESPONSE_TOO_LARGE');
      expect(error.message).toMatch(/a message of more than \d+ bytes/);
      expect(error.message).toContain(`maxLineBytes (${MiB} bytes)`);
      // Nobody can tell whom it answered, so no request in flight is left waiting for it.
      expect((await rejection(held)).code).toBe('RESPONSE_TOO_LARGE');
      await client.callTool('release', { key });
      const next = await client.callTool('garbage', { then: 'valid' });
      expect(next.content).toEqual([{ type: 'text', text: 'after the garbage' }]);
    },
  );

  it('a line that passes maxLineBytes and never ends fails its request at the cap, not by timeout', async () => {
    const endless = fileURLToPath(new URL('./hostile/endless-line-server.mjs', import.meta.url));
    const t = new StdioClientTransport({
      command: process.execPath,
      args: [endless],
      maxLineBytes: MiB,
      closeTimeoutMs: 200,
    });
    const c = new McpClient({ transport: t, requestTimeoutMs: 0 });
    open.push(c);
    await c.connect();
    const error = await rejection(c.listTools());
    expect(error.code).toBe('RESPONSE_TOO_LARGE');
    expect(error.message).toContain(`maxLineBytes (${MiB} bytes)`);
  });

  it('an answer for an unknown id is ignored with a warning; the request it did not answer times out', async () => {
    const { client } = await connect({}, { requestTimeoutMs: 300 });
    const ok = healthy(client);
    const error = await rejection(client.callTool('unknown-id'));
    expect(error.code).toBe('REQUEST_TIMEOUT');
    expect(error.message).toContain('tools/call');
    const unknown = client.warnings.filter((w) => w.code === 'UNKNOWN_RESPONSE');
    expect(unknown.map((w) => w.message).join('\n')).toMatch(/987654[^]*"nobody"/);
    expect(ok.settled()).toBe(false);
    await ok.finish();
  });

  it('a schema-violating answer fails with INVALID_RESULT naming the path', async () => {
    const { client } = await connect();
    const ok = healthy(client);
    const error = await rejection(client.callTool('invalid'));
    expect(error.code).toBe('INVALID_RESULT');
    expect(error.message).toContain('tools/call');
    expect(error.message).toContain('content');
    expect(ok.settled()).toBe(false);
    await ok.finish();
  });

  it('a server that never answers: REQUEST_TIMEOUT naming the method and the budget', async () => {
    const { client } = await connect({}, { requestTimeoutMs: 250 });
    const ok = healthy(client);
    const error = await rejection(client.callTool('hang'));
    expect(error.code).toBe('REQUEST_TIMEOUT');
    expect(error.message).toBe('tools/call got no answer within 250 ms');
    expect(ok.settled()).toBe(false);
    await ok.finish();
  });

  it('a server that dies mid-request: SERVER_EXITED with the exit code; reconnect() starts it again', async () => {
    const { client, transport } = await connect();
    const firstPid = transport.pid;
    const inFlight = client.callTool('healthy', { key: 'dies-with-it' });
    const error = await rejection(client.callTool('die', { code: 3 }));
    expect(error.code).toBe('SERVER_EXITED');
    expect(error.message).toContain('exited with code 3');
    expect(error.message).toContain('dies mid-request');
    // The child is gone: what was in flight on it cannot be answered, and says so.
    expect((await rejection(inFlight)).code).toBe('SERVER_EXITED');
    expect(client.connected).toBe(false);
    expect((await rejection(client.callTool('healthy', { key: 'x' }))).code).toBe('NOT_CONNECTED');
    await client.reconnect();
    expect(transport.pid).not.toBe(firstPid);
    const ok = healthy(client);
    await ok.finish();
  });

  it('a 100k-deep JSON answer fails its request with INVALID_RESPONSE, nothing overflows', async () => {
    const { client } = await connect();
    const ok = healthy(client);
    const error = await rejection(client.callTool('deep', { depth: 100_000 }));
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(error.message).toMatch(/more than 64 levels below result/);
    expect(ok.settled()).toBe(false);
    await ok.finish();
  });

  it('a cursor that never ends: PAGE_LIMIT after maxPages', async () => {
    const { client } = await connect({}, { maxPages: 5 });
    const ok = healthy(client);
    const error = await rejection(client.listResources());
    expect(error.code).toBe('PAGE_LIMIT');
    expect(error.message).toContain('resources/list');
    expect(error.message).toContain('after 5');
    expect(ok.settled()).toBe(false);
    await ok.finish();
  });

  it('a flood of 200k notifications on a listen stream: the queue is bounded, memory too', async () => {
    const { client } = await connect();
    await expectBoundedFlood(client, 'k', 20_000);
  });

  it('a child writing endlessly to stderr: the capture stays within its cap and requests work', async () => {
    const cap = 16 * 1024;
    const { client, transport } = await connect({
      args: [SERVER, 'stderr-flood'],
      stderrBufferBytes: cap,
    });
    const ok = healthy(client);
    let written = 0;
    while (written < 8 * MiB) {
      const status = await client.callTool('stderr-status');
      written = Number((status.structuredContent as { stderrBytes: number }).stderrBytes);
    }
    const captured = transport.stderrText();
    expect(Buffer.byteLength(captured)).toBeLessThanOrEqual(cap);
    expect(captured).toMatch(/^e+$/m);
    expect(ok.settled()).toBe(false);
    await ok.finish();
  });
});
