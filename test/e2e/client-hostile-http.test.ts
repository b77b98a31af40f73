/**
 * "A misbehaving server never takes the host down", over Streamable HTTP: `McpClient` end to end
 * against a hostile node:http server in a child process (test/e2e/hostile/hostile-http-server.mjs)
 * on a real 127.0.0.1 socket. Each misbehaviour must fail the request it concerns with a specific
 * `McpKitError` code, while a healthy request sent before it (held by the server until released,
 * so answered after) still resolves.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpClient, type McpClientOptions } from '../../src/client/index.js';
import {
  HttpClientTransport,
  type HttpClientOptions,
} from '../../src/transports/http/client/index.js';
import { withTimeout } from '../../src/testing/sse.js';
import { expectBoundedFlood, healthy, rejection } from './hostile/expect-helpers.js';

const SERVER = fileURLToPath(new URL('./hostile/hostile-http-server.mjs', import.meta.url));
const MiB = 1024 * 1024;

let child: ChildProcess;
let url: string;
let serverStderr = '';

beforeAll(async () => {
  child = spawn(process.execPath, [SERVER], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (serverStderr += chunk));
  child.stdout?.setEncoding('utf8');
  const port = await withTimeout(
    new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('\n')) resolve(out.trim());
      });
      child.once('exit', (code) => reject(new Error(`server exited (${code}): ${serverStderr}`)));
    }),
    10_000,
    'the hostile HTTP server to print its port',
  );
  url = `http://127.0.0.1:${port}/mcp`;
});

afterAll(async () => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await withTimeout(exited, 5000, 'the hostile HTTP server to exit');
});

const open: McpClient[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
  // The server must have survived the test: it serves every file's tests.
  expect(child.exitCode, serverStderr).toBeNull();
});

async function connect(
  transport: Partial<HttpClientOptions> = {},
  client: Partial<McpClientOptions> = {},
): Promise<McpClient> {
  const t = new HttpClientTransport({ url, ...transport });
  const c = new McpClient({ transport: t, requestTimeoutMs: 20_000, ...client });
  open.push(c);
  await c.connect();
  expect(c.era).toBe('modern');
  // The x-mcp-header table is filled once, before any call races for it.
  await c.listTools();
  return c;
}

/** Control characters (but tab and newline) that a warning must never carry raw. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f]/;

describe('McpClient over HTTP against a hostile server', () => {
  it('garbage SSE events are skipped with warnings; a malformed answer fails with INVALID_RESPONSE', async () => {
    const client = await connect();
    const ok = healthy(client, 'h');
    const after = await client.callTool('garbage-sse', { then: 'valid' });
    expect(after.content).toEqual([{ type: 'text', text: 'after the garbage' }]);
    const error = await rejection(client.callTool('garbage-sse'));
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(error.message).toContain('malformed response');
    expect(ok.settled()).toBe(false);
    await ok.finish();
    const invalid = client.warnings.filter((w) => w.code === 'INVALID_MESSAGE');
    expect(invalid.length).toBeGreaterThanOrEqual(12);
    expect(invalid.some((w) => w.message.includes('not JSON'))).toBe(true);
    // Escaped: what the server wrote cannot forge terminal output.
    for (const w of invalid) expect(w.message).not.toMatch(CONTROL);
  });

  it('an SSE stream that stops mid-event: STREAM_INTERRUPTED naming the request', async () => {
    const client = await connect();
    const ok = healthy(client, 'h');
    for (const how of ['end', 'destroy']) {
      const error = await rejection(client.callTool('cut-sse', { how }));
      expect(error.code).toBe('STREAM_INTERRUPTED');
      expect(error.message).toMatch(/the SSE stream of request \d+ ended before its response/);
    }
    expect(ok.settled()).toBe(false);
    await ok.finish();
  });

  it('a response body larger than maxResponseBytes: RESPONSE_TOO_LARGE naming the cap', async () => {
    const client = await connect({ maxResponseBytes: MiB });
    const ok = healthy(client, 'h');
    const calls = [
      client.callTool('big-json', { bytes: 2 * MiB }),
      client.callTool('big-json', { bytes: 2 * MiB, declare: true }),
      client.callTool('big-sse', { bytes: 2 * MiB }),
    ];
    for (const call of calls) {
      const error = await rejection(call);
      expect(error.code).toBe('RESPONSE_TOO_LARGE');
      expect(error.message).toContain(`larger than ${MiB} bytes (maxResponseBytes)`);
    }
    expect(ok.settled()).toBe(false);
    await ok.finish();
  });

  it('a schema-violating answer fails with INVALID_RESULT naming the path', async () => {
    const client = await connect();
    const ok = healthy(client, 'h');
    const error = await rejection(client.callTool('invalid'));
    expect(error.code).toBe('INVALID_RESULT');
    expect(error.message).toContain('tools/call');
    expect(error.message).toContain('content');
    expect(ok.settled()).toBe(false);
    await ok.finish();
  });

  it('an answer for an unknown id: INVALID_RESPONSE as the JSON body, a warning on a stream', async () => {
    const client = await connect();
    const ok = healthy(client, 'h');
    const error = await rejection(client.callTool('unknown-id'));
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(error.message).toMatch(/answered request \d+ with another message than its response/);
    const real = await client.callTool('unknown-id', { sse: true });
    expect(real.content).toEqual([{ type: 'text', text: 'the real answer' }]);
    const unknown = client.warnings.filter((w) => w.code === 'UNKNOWN_RESPONSE');
    expect(unknown).toHaveLength(2);
    expect(unknown[0]?.message).toContain('987654');
    expect(ok.settled()).toBe(false);
    await ok.finish();
  });

  it('a server that never answers: REQUEST_TIMEOUT naming the method and the budget', async () => {
    const client = await connect({}, { requestTimeoutMs: 250 });
    const ok = healthy(client, 'h');
    const error = await rejection(client.callTool('hang'));
    expect(error.code).toBe('REQUEST_TIMEOUT');
    expect(error.message).toBe('tools/call got no answer within 250 ms');
    expect(ok.settled()).toBe(false);
    await ok.finish();
  });

  it('a cursor that never ends: PAGE_LIMIT after maxPages', async () => {
    const client = await connect({}, { maxPages: 5 });
    const ok = healthy(client, 'h');
    const error = await rejection(client.listResources());
    expect(error.code).toBe('PAGE_LIMIT');
    expect(error.message).toContain('resources/list');
    expect(error.message).toContain('after 5');
    expect(ok.settled()).toBe(false);
    await ok.finish();
  });

  it('a 100k-deep JSON answer fails its request with INVALID_RESPONSE, nothing overflows', async () => {
    const client = await connect();
    const ok = healthy(client, 'h');
    const error = await rejection(client.callTool('deep', { depth: 100_000 }));
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(error.message).toMatch(/more than 64 levels below "result"/);
    expect(ok.settled()).toBe(false);
    await ok.finish();
  });

  it('a flood of 200k notifications on a listen stream: the queue is bounded, memory too', async () => {
    const client = await connect();
    await expectBoundedFlood(client, 'h', 25_000);
  });
});
