import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import type { ClientTransportSink } from '../../../client/transport.js';
import { isMcpKitError, type McpKitError } from '../../../errors/index.js';
import type { JSONRPCMessage, RequestId } from '../../../protocol/jsonrpc.js';
import { until } from '../../../testing/sse.js';
import {
  DEFAULT_CLIENT_MAX_LINE_BYTES,
  StdioClientTransport,
  type StdioClientOptions,
} from './client-transport.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'client-server.mjs');
const CAP = 64 * 1024;

/** Everything a transport told its sink. */
class Recorder implements ClientTransportSink {
  messages: JSONRPCMessage[] = [];
  failed: Array<{ id: RequestId | undefined; error: McpKitError }> = [];
  closedWith: McpKitError[] = [];
  warnings: Array<{ code: string; message: string }> = [];
  message(message: JSONRPCMessage): void {
    this.messages.push(message);
  }
  requestFailed(id: RequestId | undefined, error: McpKitError): void {
    this.failed.push({ id, error });
  }
  closed(error: McpKitError): void {
    this.closedWith.push(error);
  }
  warn(code: string, message: string): void {
    this.warnings.push({ code, message });
  }
  answer(id: RequestId): Record<string, unknown> | undefined {
    const found = this.messages.find((m) => 'id' in m && m.id === id && 'result' in m);
    return found && 'result' in found ? found.result : undefined;
  }
}

const open: StdioClientTransport[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((t) => t.close()));
});

let nextId = 1;
async function connect(
  options: Partial<StdioClientOptions> = {},
  mode?: string,
): Promise<{ transport: StdioClientTransport; sink: Recorder; call: Call }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: mode ? [FIXTURE, mode] : [FIXTURE],
    ...options,
  });
  open.push(transport);
  const sink = new Recorder();
  await transport.start(sink);
  return { transport, sink, call: caller(transport, sink) };
}

type Call = (method: string, params?: Record<string, unknown>) => Promise<RequestId>;

/** Sends a request; resolves with its id once the transport handed it over. */
function caller(transport: StdioClientTransport, _sink: Recorder): Call {
  return async (method, params = {}) => {
    const id = nextId++;
    await transport.request({ jsonrpc: '2.0', id, method, params });
    return id;
  };
}

async function answered(sink: Recorder, id: RequestId): Promise<Record<string, unknown>> {
  await until(() => sink.answer(id) !== undefined, `request ${id} is answered`);
  return sink.answer(id) as Record<string, unknown>;
}

async function failedWith(sink: Recorder, id: RequestId | undefined): Promise<McpKitError> {
  await until(() => sink.failed.some((f) => f.id === id), `request ${String(id)} fails`);
  return sink.failed.find((f) => f.id === id)?.error as McpKitError;
}

/** Whether the process is gone (a zombie waiting for its reaper counts as gone). */
function isGone(pid: number): boolean {
  if (process.platform === 'linux') {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return /\) [ZX] /.test(stat);
    } catch {
      return true;
    }
  }
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

describe('StdioClientTransport', () => {
  it('carries requests, notifications and cancellations as lines, and answers back', async () => {
    const { transport, sink, call } = await connect();
    expect(transport.kind).toBe('stdio');
    expect(transport.maxMessageBytes).toBe(DEFAULT_CLIENT_MAX_LINE_BYTES);
    const id = await call('echo', { text: 'héllo\u2028' });
    expect(await answered(sink, id)).toEqual({ params: { text: 'héllo\u2028' } });
    await transport.notify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    transport.cancel(41, 'user gave up');
    transport.cancel('s-1');
    transport.setEra('modern', '2026-07-28');
    transport.resetSession();
    await transport.openServerStream();
    expect(await answered(sink, await call('received'))).toEqual({
      received: [
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        {
          jsonrpc: '2.0',
          method: 'notifications/cancelled',
          params: { requestId: 41, reason: 'user gave up' },
        },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 's-1' } },
      ],
    });
    expect(sink.warnings).toEqual([]);
  });

  it('fails the request an over-cap line answers, then reads the next line', async () => {
    const { transport, sink, call } = await connect({ maxLineBytes: CAP });
    expect(transport.maxMessageBytes).toBe(CAP);
    const id = await call('big', { bytes: 1_000_000 });
    const error = await failedWith(sink, id);
    expect(isMcpKitError(error, 'RESPONSE_TOO_LARGE')).toBe(true);
    expect(error.message).toMatch(/more than \d+ bytes .* exceeds maxLineBytes \(65536 bytes\)/);
    expect(error.message).toMatch(/raise the stdio client option maxLineBytes/);
    const next = await call('echo', { n: 1 });
    expect(await answered(sink, next)).toEqual({ params: { n: 1 } });
    expect(sink.messages).toHaveLength(1);
  });

  it('accepts a line of exactly maxLineBytes (newline not counted) and fails one byte more', async () => {
    const { sink, call } = await connect({ maxLineBytes: CAP });
    const fits = await call('big', { bytes: CAP });
    expect(String((await answered(sink, fits))['pad']).length).toBeGreaterThan(CAP - 100);
    const over = await call('big', { bytes: CAP + 1 });
    expect((await failedWith(sink, over)).message).toMatch(/more than 65536 bytes/);
    expect(sink.failed).toHaveLength(1);
  });

  it('fails every request in flight when the id is not within the first 4 KiB', async () => {
    const { sink, call } = await connect({ maxLineBytes: CAP });
    await call('big', { bytes: CAP * 2, idLast: true });
    const error = await failedWith(sink, undefined);
    expect(error.code).toBe('RESPONSE_TOO_LARGE');
    const next = await call('echo');
    await answered(sink, next);
  });

  it('fails a capped request whose answer hid its id behind a duplicated "id" (JSON.parse keeps the last)', async () => {
    const { transport, sink } = await connect();
    const id = nextId++;
    const pad = 'x'.repeat(5000);
    const lines = [`{"jsonrpc":"2.0","id":999999,"id":${id},"result":{"pad":"${pad}"}}`];
    await transport.request(
      { jsonrpc: '2.0', id, method: 'write', params: { lines } },
      { maxResponseBytes: 1000 },
    );
    // The fixture's own answer comes after that line: by then the line was dealt with.
    await until(() => sink.messages.some((m) => 'result' in m && 'written' in m.result), 'the end');
    const padded = sink.messages.filter((m) => 'result' in m && 'pad' in m.result);
    expect(padded.map((m) => ('id' in m ? m.id : undefined))).toEqual([]);
    const error = await failedWith(sink, id);
    expect(error).toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    expect(error.message).toMatch(/request \d+ .* over the 1000-byte limit .*\(maxResponseBytes\)/);
  });

  it('drops an over-cap server notification or request with a warning, failing nothing', async () => {
    const { sink, call } = await connect({ maxLineBytes: 250 });
    const params = { data: 'x'.repeat(400) };
    const note = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params });
    const request = JSON.stringify({ jsonrpc: '2.0', id: 'srv-2', method: 'roots/list', params });
    await answered(sink, await call('write', { lines: [note, request] }));
    expect(sink.failed).toEqual([]);
    expect(sink.warnings).toEqual([
      { code: 'RESPONSE_TOO_LARGE', message: expect.stringMatching(/^Dropped notification/) },
      { code: 'RESPONSE_TOO_LARGE', message: expect.stringMatching(/^Dropped request/) },
    ]);
    expect(await answered(sink, await call('received'))).toEqual({
      received: [
        {
          jsonrpc: '2.0',
          id: 'srv-2',
          error: { code: -32600, message: expect.any(String), data: { limit: 250, bytes: 473 } },
        },
      ],
    });
  });

  it('warns about lines that are not JSON-RPC and delivers the lines after them', async () => {
    const { sink, call } = await connect();
    const lines = [
      'Server listening on stdio \u001b[31m(red)\u001b[0m',
      '{"jsonrpc":"2.0","id":',
      '[1,2]',
      '{"hello":"world"}',
      '{"jsonrpc":"2.0","id":"r-9","result":42}',
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }),
    ];
    await answered(sink, await call('write', { lines }));
    expect(sink.warnings.map((w) => w.code)).toEqual(Array(5).fill('INVALID_MESSAGE'));
    expect(sink.warnings[0]?.message).toContain('not JSON');
    expect(sink.warnings[0]?.message).not.toMatch(/\p{Cc}/u);
    expect(sink.warnings[2]?.message).toContain('batches');
    const malformed = await failedWith(sink, 'r-9');
    expect(malformed.code).toBe('INVALID_RESPONSE');
    expect(sink.messages[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
    });
  });

  it('fails a 100k-deep answer with INVALID_RESPONSE naming the depth limit, and survives', async () => {
    const { sink, call } = await connect();
    const id = await call('deep', { depth: 100_000 });
    const error = await failedWith(sink, id);
    expect(error.code).toBe('INVALID_RESPONSE');
    expect(error.message).toMatch(
      /more than 64 levels below result \(the stdio client option maxDepth\)/,
    );
    const shallow = await call('deep', { depth: 60 });
    await answered(sink, shallow);
    await answered(
      sink,
      await call('write', { lines: ['['.repeat(100_000) + ']'.repeat(100_000)] }),
    );
    expect(sink.warnings).toHaveLength(1);
  });

  it('answers a too-deep server request with an error instead of passing it on', async () => {
    const { sink, call } = await connect({ maxDepth: 8 });
    const deep = `{"jsonrpc":"2.0","id":"srv-1","method":"sampling/createMessage","params":{"a":${'['.repeat(20)}${']'.repeat(20)}}}`;
    await answered(sink, await call('write', { lines: [deep] }));
    expect(sink.messages.some((m) => 'method' in m)).toBe(false);
    expect(sink.warnings[0]?.message).toMatch(/Dropped a request/);
    expect(await answered(sink, await call('received'))).toEqual({
      received: [
        {
          jsonrpc: '2.0',
          id: 'srv-1',
          error: {
            code: -32602,
            message: expect.stringMatching(/more than 8 levels below params/),
            data: { limit: 8, reason: 'too-deep' },
          },
        },
      ],
    });
  });

  it('reports SERVER_EXITED with the exit code and escaped last stderr lines', async () => {
    const { transport, sink, call } = await connect();
    await call('exit', { code: 3, stderr: 'starting\nfatal: \u001b[31mboom\u001b[0m\n' });
    await until(() => sink.closedWith.length > 0, 'the exit is reported');
    const error = sink.closedWith[0] as McpKitError;
    expect(error.code).toBe('SERVER_EXITED');
    expect(error.message).toMatch(
      /^server ".*" exited with code 3; its last stderr: "starting\\nfatal: \\u001b\[31mboom/,
    );
    expect(error.message).not.toMatch(/\p{Cc}/u);
    expect(transport.pid).toBeUndefined();
    await expect(call('echo')).rejects.toMatchObject({ code: 'PEER_CLOSED' });
    await transport.close();
    expect(sink.closedWith).toHaveLength(1);
  });

  it('SIGKILLs a child that ignores EOF and SIGTERM, after two graces', async () => {
    const { transport, sink } = await connect({ closeTimeoutMs: 200 }, 'stubborn');
    const pid = transport.pid as number;
    await transport.close();
    expect(isGone(pid)).toBe(true);
    // It saw EOF and SIGTERM and outlived both: only SIGKILL can have ended it.
    expect(transport.stderrText()).toBe('ignoring EOF\nignoring SIGTERM\n');
    expect(sink.closedWith.map((e) => [e.code, e.message])).toEqual([
      ['PEER_CLOSED', 'closed by the client'],
    ]);
    await transport.close();
  });

  it('SIGKILLs children left running when the host process exits', async () => {
    const host = join(import.meta.dirname, 'fixtures', 'client-host.mjs');
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', host]);
    const pid = Number(stdout.trim());
    expect(pid).toBeGreaterThan(0);
    try {
      await until(() => isGone(pid), 'the orphaned server is gone', 3000);
    } finally {
      if (!isGone(pid)) process.kill(pid, 'SIGKILL');
    }
  });

  it('sends no signal to a child that exits at EOF', async () => {
    const { transport, sink } = await connect({ closeTimeoutMs: 10_000 });
    const pid = transport.pid as number;
    const started = Date.now();
    await Promise.all([transport.close(), transport.close()]);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(isGone(pid)).toBe(true);
    expect(sink.closedWith.map((e) => e.code)).toEqual(['PEER_CLOSED']);
    await expect(transport.request({ jsonrpc: '2.0', id: 1, method: 'x' })).rejects.toMatchObject({
      code: 'NOT_CONNECTED',
    });
  });

  it('keeps at most stderrBufferBytes of a child writing 50 MB to stderr', async () => {
    const { transport, sink, call } = await connect();
    const id = await call('stderr', { bytes: 50 * 1024 * 1024 });
    expect(await answered(sink, id)).toEqual({ done: true });
    // stdout and stderr are two pipes: the answer may come before the last of stderr.
    await until(
      () => transport.stderrText().endsWith('stderr done\n'),
      'stderr is read to its end',
    );
    const text = transport.stderrText();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(64 * 1024);
    expect(text.endsWith('eee\nstderr done\n')).toBe(true);
    await answered(sink, await call('echo'));
  });

  it('passes stderr to a callback, or drops it, when asked', async () => {
    let seen = '';
    const a = await connect({ stderr: (chunk) => (seen += chunk), stderrBufferBytes: 16 });
    await answered(a.sink, await a.call('stderr', { bytes: 2048 }));
    await until(() => seen.endsWith('stderr done\n'), 'the callback gets stderr');
    expect(seen.length).toBe(2048 + 'stderr done\n'.length);
    expect(a.transport.stderrText()).toBe('');
    const b = await connect({ stderr: 'ignore' });
    await b.call('exit', { code: 1, stderr: 'hidden' });
    await until(() => b.sink.closedWith.length > 0, 'the exit is reported');
    expect(b.sink.closedWith[0]?.message).toMatch(/exited with code 1$/);
  });

  it('gives the child a safe default environment with env over it', async () => {
    process.env['MCPKIT_TEST_SECRET'] = 'hunter2';
    try {
      const { sink, call } = await connect({ env: { EXTRA: 'yes', HOME: undefined } });
      const env = (await answered(sink, await call('env')))['env'] as Record<string, string>;
      expect(env['EXTRA']).toBe('yes');
      expect(env['PATH']).toBe(process.env['PATH']);
      expect(env['MCPKIT_TEST_SECRET']).toBeUndefined();
      expect(env['HOME']).toBeUndefined();
    } finally {
      delete process.env['MCPKIT_TEST_SECRET'];
    }
  });

  it('rejects start with SPAWN_FAILED naming a command that does not exist', async () => {
    const transport = new StdioClientTransport({ command: 'mcpkit-no-such-server-xyz' });
    await expect(transport.start(new Recorder())).rejects.toMatchObject({
      code: 'SPAWN_FAILED',
      message: expect.stringMatching(/"mcpkit-no-such-server-xyz": command not found/),
    });
    await expect(transport.request({ jsonrpc: '2.0', id: 1, method: 'x' })).rejects.toMatchObject({
      code: 'NOT_CONNECTED',
    });
    await transport.close();
  });

  it('starts a fresh child after close', async () => {
    const { transport, sink, call } = await connect();
    const first = transport.pid;
    await answered(sink, await call('echo'));
    await transport.close();
    const again = new Recorder();
    await transport.start(again);
    expect(transport.pid).not.toBe(first);
    const id = nextId++;
    await transport.request({ jsonrpc: '2.0', id, method: 'echo', params: { n: 2 } });
    expect(await answered(again, id)).toEqual({ params: { n: 2 } });
    await expect(transport.start(again)).rejects.toThrow(/already started/);
  });

  it('refuses bad options', () => {
    expect(() => new StdioClientTransport({ command: '' })).toThrow(TypeError);
    expect(() => new StdioClientTransport({ command: 'x', maxLineBytes: 0 })).toThrow(RangeError);
    expect(() => new StdioClientTransport({ command: 'x', closeTimeoutMs: 1.5 })).toThrow(
      /closeTimeoutMs must be a positive integer/,
    );
  });
});
