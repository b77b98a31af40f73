import { describe, expect, it } from 'vitest';
import { McpKitError, ProtocolError } from '../errors/index.js';
import {
  ScriptedTransport,
  discoverResult,
  httpStatus,
  initializeResult,
  result,
  rpcError,
  silence,
} from '../testing/scripted-transport.js';
import { McpClient } from './client.js';
import type { McpClientOptions } from './options.js';
import { classifyProbe } from './era-detect.js';

function client(t: ScriptedTransport, options: Partial<McpClientOptions> = {}): McpClient {
  return new McpClient({ transport: t, cache: false, ...options });
}

const sentMethods = (t: ScriptedTransport) =>
  t.sent.map((s) => ('method' in s.message ? s.message.method : `response`));

describe('era detection', () => {
  it('a DiscoverResult means 2026-07-28; capabilities, serverInfo and instructions are visible', async () => {
    const t = new ScriptedTransport().modern({ instructions: 'be nice' });
    const c = await client(t).connect();
    expect(c.era).toBe('modern');
    expect(c.protocolVersion).toBe('2026-07-28');
    expect(c.serverCapabilities).toEqual(discoverResult()['capabilities']);
    expect(c.serverInfo).toEqual({ name: 'scripted', version: '1.0.0' });
    expect(c.instructions).toBe('be nice');
    expect(sentMethods(t)).toEqual(['server/discover']);
    expect(t.eras).toEqual([['modern', '2026-07-28']]);
  });

  it('-32022 whose data.supported lists only 2025-11-25 falls back to initialize', async () => {
    const t = new ScriptedTransport({ kind: 'http' })
      .onRequest(
        'server/discover',
        rpcError(-32022, 'Unsupported protocol version', {
          supported: ['2025-11-25'],
          requested: '2026-07-28',
        }),
      )
      .onRequest('initialize', result(initializeResult()));
    const c = await client(t).connect();
    expect(c.era).toBe('legacy');
    expect(c.protocolVersion).toBe('2025-11-25');
    expect(sentMethods(t)).toEqual(['server/discover', 'initialize', 'notifications/initialized']);
  });

  it('-32022 listing no version we speak is UNSUPPORTED_VERSION, no initialize', async () => {
    const t = new ScriptedTransport().onRequest(
      'server/discover',
      rpcError(-32022, 'Unsupported', { supported: ['2099-01-01'], requested: '2026-07-28' }),
    );
    await expect(client(t).connect()).rejects.toMatchObject({ code: 'UNSUPPORTED_VERSION' });
    expect(t.requests('initialize')).toHaveLength(0);
    expect(t.closes).toBe(1);
  });

  it.each([-32020, -32021])('%i is a modern error: 2026-07-28, no fallback', async (code) => {
    const t = new ScriptedTransport().onRequest('server/discover', rpcError(code));
    const c = await client(t).connect();
    expect(c.era).toBe('modern');
    expect(t.requests('initialize')).toHaveLength(0);
  });

  it.each([404, 405])(
    'an HTTP %i with no JSON-RPC body falls back to initialize',
    async (status) => {
      const t = new ScriptedTransport({ kind: 'http' })
        .onRequest('server/discover', httpStatus(status))
        .onRequest('initialize', result(initializeResult()));
      const c = await client(t).connect();
      expect(c.era).toBe('legacy');
    },
  );

  it('-32601 falls back to initialize', async () => {
    const t = new ScriptedTransport().legacy();
    const c = await client(t).connect();
    expect(c.era).toBe('legacy');
    expect(c.serverInfo).toEqual({ name: 'scripted-legacy', version: '0.9.0' });
    expect(c.serverCapabilities).toEqual(initializeResult()['capabilities']);
  });

  it('a silent server on stdio: initialize after discoverTimeoutMs, the probe cancelled', async () => {
    const t = new ScriptedTransport()
      .onRequest('server/discover', silence)
      .onRequest('initialize', result(initializeResult()));
    const started = Date.now();
    const c = await client(t, { discoverTimeoutMs: 30 }).connect();
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(c.era).toBe('legacy');
    const probe = t.requests('server/discover')[0]!;
    expect(t.cancelled.map((x) => x.id)).toEqual([probe.id]);
  });

  it('a dead server is no sign of an era: SERVER_EXITED is thrown, no initialize', async () => {
    const t = new ScriptedTransport().onRequest('server/discover', {
      fail: new McpKitError('SERVER_EXITED', 'exited with code 3'),
    });
    await expect(client(t).connect()).rejects.toMatchObject({ code: 'SERVER_EXITED' });
    expect(t.requests('initialize')).toHaveLength(0);
  });

  it('a pinned legacy era skips the probe', async () => {
    const t = new ScriptedTransport().onRequest('initialize', result(initializeResult()));
    const c = await client(t, { era: 'legacy' }).connect();
    expect(c.era).toBe('legacy');
    expect(sentMethods(t)).toEqual(['initialize', 'notifications/initialized']);
    expect(t.serverStreams).toEqual([{ 'MCP-Protocol-Version': '2025-11-25' }]);
  });

  it('a pinned modern era refuses a server that is not modern', async () => {
    const t = new ScriptedTransport().legacy();
    const error = await client(t, { era: 'modern' })
      .connect()
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'UNSUPPORTED_VERSION' });
    expect(t.requests('initialize')).toHaveLength(0);
  });

  it('a pinned modern era keeps a timeout a timeout', async () => {
    const t = new ScriptedTransport().onRequest('server/discover', silence);
    await expect(
      client(t, { era: 'modern', requestTimeoutMs: 20 }).connect(),
    ).rejects.toMatchObject({ code: 'REQUEST_TIMEOUT' });
  });

  it('initialize announces maxMessageBytes under capabilities.experimental, then initialized', async () => {
    const t = new ScriptedTransport({ maxMessageBytes: 12345 }).legacy();
    await client(t, {
      capabilities: { experimental: { 'x.other': { on: true } }, roots: {} },
      clientInfo: { name: 'host', version: '2.0.0' },
    }).connect();
    const init = t.requests('initialize')[0]!;
    expect(init.params).toMatchObject({
      protocolVersion: '2025-11-25',
      clientInfo: { name: 'host', version: '2.0.0' },
      capabilities: {
        roots: {},
        experimental: { 'x.other': { on: true }, 'dev.mcpkit/maxMessageBytes': { bytes: 12345 } },
      },
    });
    expect((init.params['_meta'] as Record<string, unknown>)['dev.mcpkit/maxMessageBytes']).toBe(
      12345,
    );
    const names = sentMethods(t);
    expect(names.indexOf('notifications/initialized')).toBe(names.indexOf('initialize') + 1);
    expect(t.eras.at(-1)).toEqual(['legacy', '2025-11-25']);
  });

  it('concurrent connect() calls share one handshake', async () => {
    const t = new ScriptedTransport().modern();
    const c = client(t);
    const [a, b] = await Promise.all([c.connect(), c.connect()]);
    expect(a).toBe(b);
    expect(t.starts).toBe(1);
    expect(t.requests('server/discover')).toHaveLength(1);
  });

  it('a legacy server that answers the probe with an empty result is legacy', async () => {
    const t = new ScriptedTransport()
      .onRequest('server/discover', result({}))
      .onRequest('initialize', result(initializeResult()));
    const c = await client(t).connect();
    expect(c.era).toBe('legacy');
    expect(c.warnings).toEqual([]);
  });

  it('repairs of a modern discover result are warned', async () => {
    const t = new ScriptedTransport().onRequest('server/discover', {
      result: { supportedVersions: ['2026-07-28'], capabilities: {} },
    });
    const c = await client(t).connect();
    expect(c.era).toBe('modern');
    expect(c.warnings.map((w) => w.code)).toEqual([
      'REPAIRED_RESULT',
      'REPAIRED_RESULT',
      'REPAIRED_RESULT',
    ]);
  });

  it('initialize answering a version we do not speak is UNSUPPORTED_VERSION', async () => {
    const t = new ScriptedTransport().legacy({ protocolVersion: '2023-01-01' });
    await expect(client(t).connect()).rejects.toMatchObject({ code: 'UNSUPPORTED_VERSION' });
  });
});

describe('classifyProbe', () => {
  it('a DiscoverResult without our version but with a legacy one is legacy', () => {
    expect(
      classifyProbe({ result: discoverResult({ supportedVersions: ['2025-11-25'] }) }),
    ).toMatchObject({ kind: 'legacy' });
  });
  it('a DiscoverResult with no version we speak throws UNSUPPORTED_VERSION', () => {
    expect(() =>
      classifyProbe({ result: discoverResult({ supportedVersions: ['1999'] }) }),
    ).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_VERSION' }));
  });
  it('any other JSON-RPC error is legacy, not keyed to one code', () => {
    for (const code of [-32600, -32602, -32603, -32000, 1]) {
      expect(classifyProbe({ error: new ProtocolError(code, 'x') }).kind).toBe('legacy');
    }
  });
  it('an HTTP_ERROR without a status (the network failed) is thrown', () => {
    const error = new McpKitError('HTTP_ERROR', 'fetch failed');
    expect(() => classifyProbe({ error })).toThrow(error);
  });
});
