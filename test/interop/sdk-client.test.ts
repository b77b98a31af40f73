/**
 * Interop: the official SDK v2 client (@modelcontextprotocol/client) against an mcpkit server,
 * over a spawned stdio process, a spawned HTTP server and an in-process HTTP server, in the
 * legacy (2025-11-25, initialize) and modern (2026-07-28, stateless) eras.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  ProtocolError,
  ResourceNotFoundError,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { serveHttp, type RunningHttpServer } from '../../src/transports/node.js';
import {
  BLOB_BYTES,
  BLOB_MIME,
  BLOB_URI,
  DOC_TEMPLATE,
  DOCS,
  ITEM_COUNT,
  LARGE_TEXT,
  LARGE_URI,
  PAGE_SIZE,
  TEXT,
  TEXT_URI,
  UNICODE_PROMPT,
  createInteropServer,
  itemUri,
} from './interop-server.js';
import { stopChild } from '../e2e/serve-harness.js';

const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const SERVER_SCRIPT = 'test/interop/interop-server.ts';
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const INVALID_PARAMS = -32602;
const LEGACY_RESOURCE_NOT_FOUND = -32002;

type TransportKind = 'stdio' | 'http (spawned)' | 'http (in-process)';
type EraMode = 'legacy' | 'modern (pin)' | 'auto';

const MATRIX: Array<{ transport: TransportKind; mode: EraMode }> = [
  { transport: 'stdio', mode: 'legacy' },
  { transport: 'stdio', mode: 'modern (pin)' },
  { transport: 'stdio', mode: 'auto' },
  { transport: 'http (spawned)', mode: 'legacy' },
  { transport: 'http (spawned)', mode: 'modern (pin)' },
  { transport: 'http (spawned)', mode: 'auto' },
  { transport: 'http (in-process)', mode: 'legacy' },
  { transport: 'http (in-process)', mode: 'modern (pin)' },
];

/** Every resource resources/list must return, in registration order. */
const ALL_URIS = [
  TEXT_URI,
  BLOB_URI,
  LARGE_URI,
  ...Array.from({ length: ITEM_COUNT }, (_, i) => itemUri(i)),
];

function newClient(mode: EraMode): Client {
  const info = { name: 'mcpkit-interop-test', version: '0.0.1' };
  if (mode === 'legacy') return new Client(info);
  return new Client(info, {
    versionNegotiation: { mode: mode === 'auto' ? 'auto' : { pin: MODERN } },
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until every process that registered in pidDir has exited; kills and reports stragglers. */
async function reapAll(pidDir: string, withinMs = 5000): Promise<number[]> {
  const pids = readdirSync(pidDir).map(Number);
  const deadline = Date.now() + withinMs;
  let alive = pids.filter(isAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
    alive = alive.filter(isAlive);
  }
  for (const pid of alive) process.kill(pid, 'SIGKILL');
  return alive;
}

/** Spawns the interop server with --http and resolves with its URL (first stdout line). */
async function spawnHttpServer(
  pidDir: string,
  stderr: string[],
): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_SCRIPT, '--http'], {
    cwd: ROOT,
    env: { ...process.env, INTEROP_PID_DIR: pidDir },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => stderr.push(chunk));
  const url = await new Promise<string>((resolveUrl, reject) => {
    child.once('error', reject);
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(
      () => reject(new Error(`no URL from the HTTP server; stderr: ${stderr.join('')}`)),
      15_000,
    );
    lines.once('line', (line) => {
      clearTimeout(timer);
      const match = /^listening (http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(line);
      if (match?.[1]) resolveUrl(match[1]);
      else reject(new Error(`unexpected first line: ${line}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`HTTP server exited early (${code}); stderr: ${stderr.join('')}`));
    });
  }).catch(async (error: unknown) => {
    await stopChild(child);
    throw error;
  });
  return { child, url };
}

/** Runs `fn`, expecting a ProtocolError; returns it. */
async function protocolError(fn: () => Promise<unknown>): Promise<ProtocolError> {
  const error = await fn().then(
    (value) => new Error(`expected a ProtocolError, got a result: ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
  if (!(error instanceof ProtocolError)) throw error;
  return error;
}

function textOf(content: unknown): string {
  const block = content as { type?: string; text?: string };
  expect(block.type).toBe('text');
  return block.text ?? '';
}

describe.each(MATRIX)('SDK client ↔ mcpkit over $transport, era $mode', ({ transport, mode }) => {
  const modern = mode !== 'legacy';
  /** Spawned server processes write their pid here (INTEROP_PID_DIR), so afterAll can reap them. */
  let pidDir = '';
  const stderr: string[] = [];
  const unexpected: Array<{ method: string; error: unknown }> = [];
  let client: Client;
  /** Every message the client transport delivered after connect, as it came off the wire. */
  const inbound: unknown[] = [];
  /** Errors the client reported out of band (transport failures, unparsable messages, …). */
  const clientErrors: unknown[] = [];
  let child: ChildProcessWithoutNullStreams | undefined;
  let inProcess: RunningHttpServer | undefined;

  beforeAll(async () => {
    pidDir = mkdtempSync(join(tmpdir(), 'mcpkit-interop-'));
    let clientTransport: Transport;
    if (transport === 'stdio') {
      const stdio = new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', SERVER_SCRIPT, '--stdio'],
        cwd: ROOT,
        env: { ...(process.env as Record<string, string>), INTEROP_PID_DIR: pidDir },
        stderr: 'pipe',
      });
      stdio.stderr?.on('data', (chunk: Buffer | string) => stderr.push(String(chunk)));
      clientTransport = stdio;
    } else if (transport === 'http (spawned)') {
      const spawned = await spawnHttpServer(pidDir, stderr);
      child = spawned.child;
      clientTransport = new StreamableHTTPClientTransport(new URL(spawned.url));
    } else {
      inProcess = await serveHttp(
        createInteropServer((error, method) => unexpected.push({ method, error })),
        {
          host: '127.0.0.1',
          port: 0,
        },
      );
      expect(inProcess.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      clientTransport = new StreamableHTTPClientTransport(new URL(inProcess.url));
    }
    client = newClient(mode);
    client.onerror = (error) => clientErrors.push(error);
    await client.connect(clientTransport);
    // Tap the wire: the client installed its handler on connect; record what reaches it.
    const deliver = clientTransport.onmessage;
    clientTransport.onmessage = (message, extra) => {
      inbound.push(message);
      deliver?.(message, extra);
    };
  });

  /** The JSON-RPC error the server sent for a request whose error data carries this uri. */
  const wireErrorFor = (
    uri: string,
  ): { code: number; message: string; data?: unknown } | undefined =>
    (
      inbound as Array<{ error?: { code: number; message: string; data?: { uri?: unknown } } }>
    ).find((m) => m.error?.data?.uri === uri)?.error;

  afterAll(async () => {
    // Clean up first, unconditionally; assert afterwards.
    const outOfBand = [...clientErrors];
    const failures: unknown[] = [];
    const attempt = async <T>(step: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await step();
      } catch (error) {
        failures.push(error);
        return undefined;
      }
    };
    const started = Date.now();
    await attempt(async () => client?.close());
    const closeMs = Date.now() - started;
    const childEnd = child
      ? await attempt(() => stopChild(child as ChildProcessWithoutNullStreams))
      : undefined;
    if (inProcess) await attempt(() => (inProcess as RunningHttpServer).close());
    const registered = pidDir ? readdirSync(pidDir).length : 0;
    const stragglers = pidDir ? await reapAll(pidDir) : [];
    if (pidDir) rmSync(pidDir, { recursive: true, force: true });

    expect(failures, 'errors while closing').toEqual([]);
    expect(stragglers, 'server processes still alive after close').toEqual([]);
    if (inProcess) {
      expect(inProcess?.http.listening).toBe(false);
    } else {
      expect(registered, 'server processes that announced themselves').toBeGreaterThan(0);
    }
    if (child) {
      // SIGTERM runs serveHttp's close(), which must not hang on open sockets or SSE streams.
      expect(childEnd, 'spawned HTTP server should exit 0 on SIGTERM').toEqual({
        code: 0,
        signal: null,
      });
    }
    if (transport === 'stdio') {
      // The SDK waits up to 2 s for the child to exit on stdin EOF before it sends SIGTERM.
      expect(closeMs, 'stdio server should exit on stdin EOF').toBeLessThan(1900);
    }
    expect(outOfBand, 'errors the SDK client reported out of band').toEqual([]);
    expect(stderr.join('')).not.toMatch(/mcpkit:|interop-server:/);
    expect(unexpected).toEqual([]);
  });

  it('sends each era its own result shape on the wire', async () => {
    const from = inbound.length;
    await client.readResource({ uri: TEXT_URI });
    await client.callTool({ name: 'shout', arguments: { text: 'x' } });
    await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } });
    await client.request({ method: 'prompts/list', params: {} });
    const results = (inbound.slice(from) as Array<{ result?: Record<string, unknown> }>)
      .map((m) => m.result)
      .filter((r): r is Record<string, unknown> => r !== undefined);
    const having = (key: string) => results.find((r) => key in r);
    const [read, call, prompt, list] = [
      having('contents'),
      having('content'),
      having('messages'),
      having('prompts'),
    ];
    for (const r of [read, call, prompt, list]) expect(r).toBeDefined();
    if (modern) {
      for (const r of results) {
        expect(r['resultType']).toBe('complete');
        expect(r['_meta']).toMatchObject({
          'io.modelcontextprotocol/serverInfo': { name: 'mcpkit-interop', version: '1.2.3' },
        });
      }
      expect(read).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
      expect(list).toMatchObject({ ttlMs: 0, cacheScope: 'public' });
      expect(call).not.toHaveProperty('ttlMs');
      expect(prompt).not.toHaveProperty('ttlMs');
    } else {
      for (const r of results) {
        for (const key of ['resultType', 'ttlMs', 'cacheScope']) expect(r).not.toHaveProperty(key);
      }
    }
  });

  it('negotiates the expected era and sees the server identity', () => {
    expect(client.getProtocolEra()).toBe(modern ? 'modern' : 'legacy');
    expect(client.getNegotiatedProtocolVersion()).toBe(modern ? MODERN : LEGACY);
    expect(client.getServerVersion()).toMatchObject({ name: 'mcpkit-interop', version: '1.2.3' });
    expect(client.getServerCapabilities()).toMatchObject({
      resources: { listChanged: true },
      tools: { listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
    expect(client.getInstructions()).toBe('Interop test server');
  });

  describe('resources', () => {
    it('lists all resources in order through the auto-paging listResources()', async () => {
      const { resources, nextCursor } = await client.listResources();
      expect(nextCursor).toBeUndefined();
      expect(resources.map((r) => r.uri)).toEqual(ALL_URIS);
      expect(resources.filter((r) => r.uri.startsWith('interop://item/'))).toHaveLength(ITEM_COUNT);
      expect(resources[0]).toEqual({
        uri: TEXT_URI,
        name: 'hello',
        title: 'Hello text',
        mimeType: 'text/plain',
      });
      expect(resources[1]).toEqual({
        uri: BLOB_URI,
        name: 'all-bytes',
        mimeType: BLOB_MIME,
        size: BLOB_BYTES.length,
      });
    });

    it('pages manually with cursors', async () => {
      const first = await client.request({ method: 'resources/list', params: {} });
      const seen = [...first.resources];
      const pageSizes = [first.resources.length];
      let cursor = first.nextCursor;
      while (cursor !== undefined) {
        const page = await client.listResources({ cursor });
        pageSizes.push(page.resources.length);
        seen.push(...page.resources);
        cursor = page.nextCursor;
        expect(pageSizes.length).toBeLessThan(20);
      }
      const pages = Math.ceil(ALL_URIS.length / PAGE_SIZE);
      expect(pageSizes).toEqual([
        ...Array<number>(pages - 1).fill(PAGE_SIZE),
        ALL_URIS.length - (pages - 1) * PAGE_SIZE,
      ]);
      expect(seen.map((r) => r.uri)).toEqual(ALL_URIS);
    });

    it('rejects a cursor it did not issue with -32602', async () => {
      const error = await protocolError(() => client.listResources({ cursor: 'not-a-cursor' }));
      expect(error.code).toBe(INVALID_PARAMS);
    });

    it('reads a text resource', async () => {
      const result = await client.readResource({ uri: TEXT_URI });
      expect(result.contents).toEqual([{ uri: TEXT_URI, mimeType: 'text/plain', text: TEXT }]);
    });

    it('reads a blob resource: bytes and mimeType round-trip', async () => {
      const result = await client.readResource({ uri: BLOB_URI });
      expect(result.contents).toHaveLength(1);
      const item = result.contents[0] as {
        uri: string;
        mimeType?: string;
        blob?: string;
        text?: string;
      };
      expect(item.uri).toBe(BLOB_URI);
      expect(item.mimeType).toBe(BLOB_MIME);
      expect(item.text).toBeUndefined();
      expect(typeof item.blob).toBe('string');
      expect(new Uint8Array(Buffer.from(item.blob as string, 'base64'))).toEqual(BLOB_BYTES);
    });

    it('reads a large multi-byte text resource intact', async () => {
      const result = await client.readResource({ uri: LARGE_URI });
      const item = result.contents[0] as { text?: string; mimeType?: string };
      expect(item.mimeType).toBe('text/plain; charset=utf-8');
      expect(item.text?.length).toBe(LARGE_TEXT.length);
      expect(item.text === LARGE_TEXT).toBe(true);
    });

    it('reads a resource from a later page of the list', async () => {
      const result = await client.readResource({ uri: itemUri(237) });
      expect(result.contents).toEqual([
        { uri: itemUri(237), mimeType: 'text/plain', text: 'item 237' },
      ]);
    });

    it('answers concurrent reads each with its own result', async () => {
      const indexes = Array.from({ length: 30 }, (_, i) => (i * 37) % ITEM_COUNT);
      const results = await Promise.all(
        indexes.map((i) => client.readResource({ uri: itemUri(i) })),
      );
      expect(results.map((r) => (r.contents[0] as { text: string }).text)).toEqual(
        indexes.map((i) => `item ${i}`),
      );
    });

    it('reports an unknown resource as not found', async () => {
      const uri = 'interop://nope/missing';
      const error = await protocolError(() => client.readResource({ uri }));
      // The SDK turns both wire forms into ResourceNotFoundError, whose code is always -32602.
      expect(error).toBeInstanceOf(ResourceNotFoundError);
      expect(error.code).toBe(INVALID_PARAMS);
      expect(error.data).toEqual({ uri });
      expect((error as ResourceNotFoundError).uri).toBe(uri);
      // On the wire: 2026-07-28 says -32602 with data exactly {uri}; 2025-11-25 says -32002.
      expect(wireErrorFor(uri)).toMatchObject({
        code: modern ? INVALID_PARAMS : LEGACY_RESOURCE_NOT_FOUND,
        data: { uri },
      });
    });
  });

  describe('resource templates', () => {
    it('lists the template', async () => {
      const { resourceTemplates, nextCursor } = await client.listResourceTemplates();
      expect(nextCursor).toBeUndefined();
      expect(resourceTemplates).toEqual([
        {
          uriTemplate: DOC_TEMPLATE,
          name: 'doc',
          description: 'A document by name',
          mimeType: 'text/markdown',
        },
      ]);
    });

    it('reads through the template', async () => {
      const result = await client.readResource({ uri: 'interop://doc/alpha' });
      expect(result.contents).toEqual([
        { uri: 'interop://doc/alpha', mimeType: 'text/markdown', text: DOCS['alpha'] },
      ]);
    });

    it('decodes a percent-encoded template variable', async () => {
      const uri = 'interop://doc/gamma%20ray';
      const result = await client.readResource({ uri });
      expect(result.contents).toEqual([
        { uri, mimeType: 'text/markdown', text: DOCS['gamma ray'] },
      ]);
    });

    it('reports a template match the handler does not know as not found', async () => {
      const uri = 'interop://doc/delta';
      const error = await protocolError(() => client.readResource({ uri }));
      expect(error).toBeInstanceOf(ResourceNotFoundError);
      expect(error.code).toBe(INVALID_PARAMS);
      expect(wireErrorFor(uri)?.code).toBe(modern ? INVALID_PARAMS : LEGACY_RESOURCE_NOT_FOUND);
    });

    it('completes a template variable', async () => {
      const result = await client.complete({
        ref: { type: 'ref/resource', uri: DOC_TEMPLATE },
        argument: { name: 'name', value: 'g' },
      });
      expect(result.completion.values).toEqual(['gamma ray']);
    });
  });

  describe('prompts', () => {
    it('lists prompts with their arguments', async () => {
      const { prompts, nextCursor } = await client.listPrompts();
      expect(nextCursor).toBeUndefined();
      expect(prompts.map((p) => p.name)).toEqual(['greet', 'two-messages', UNICODE_PROMPT]);
      expect(prompts[0]).toEqual({
        name: 'greet',
        title: 'Greeting',
        description: 'Greets someone',
        arguments: [
          { name: 'who', description: 'Whom to greet', required: true },
          { name: 'style', description: 'formal or casual' },
        ],
      });
    });

    it('gets a prompt with arguments', async () => {
      const formal = await client.getPrompt({
        name: 'greet',
        arguments: { who: 'Ada', style: 'formal' },
      });
      expect(formal.messages).toHaveLength(1);
      expect(formal.messages[0]?.role).toBe('user');
      expect(textOf(formal.messages[0]?.content)).toBe('Good day, Ada.');
      const casual = await client.getPrompt({ name: 'greet', arguments: { who: 'Grace' } });
      expect(textOf(casual.messages[0]?.content)).toBe('Hi Grace!');
    });

    it('gets a prompt that returns a full GetPromptResult', async () => {
      const result = await client.getPrompt({ name: 'two-messages' });
      expect(result.description).toBe('two messages');
      expect(result.messages.map((m) => [m.role, textOf(m.content)])).toEqual([
        ['user', 'first'],
        ['assistant', 'second'],
      ]);
    });

    it('gets a prompt whose name is not ASCII', async () => {
      const result = await client.getPrompt({ name: UNICODE_PROMPT });
      expect(textOf(result.messages[0]?.content)).toBe('Grüße!');
    });

    it('rejects a missing required argument with -32602', async () => {
      const error = await protocolError(() => client.getPrompt({ name: 'greet', arguments: {} }));
      expect(error.code).toBe(INVALID_PARAMS);
    });

    it('rejects an unknown prompt with -32602', async () => {
      const error = await protocolError(() => client.getPrompt({ name: 'no-such-prompt' }));
      expect(error.code).toBe(INVALID_PARAMS);
    });

    it('completes a prompt argument', async () => {
      const result = await client.complete({
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'who', value: 'a' },
      });
      expect(result.completion.values).toEqual(['Ada', 'Alan']);
      const none = await client.complete({
        ref: { type: 'ref/prompt', name: 'greet' },
        argument: { name: 'who', value: 'zz' },
      });
      expect(none.completion.values).toEqual([]);
    });
  });

  describe('tools', () => {
    it('lists tools with input and output schemas', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['shout', 'stats', 'divide', 'fail', 'explode']);
      const stats = tools.find((t) => t.name === 'stats');
      expect(stats?.inputSchema).toMatchObject({ type: 'object', required: ['numbers'] });
      expect(stats?.outputSchema).toMatchObject({ type: 'object', required: ['sum', 'count'] });
      expect(tools.find((t) => t.name === 'fail')?.inputSchema).toEqual({
        type: 'object',
        additionalProperties: false,
      });
    });

    it('calls a tool that returns text', async () => {
      const result = await client.callTool({ name: 'shout', arguments: { text: 'hello interop' } });
      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: 'text', text: 'HELLO INTEROP' }]);
    });

    it('calls a tool with structuredContent and an outputSchema', async () => {
      const result = await client.callTool({ name: 'stats', arguments: { numbers: [1, 2, 3.5] } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toEqual({ sum: 6.5, count: 3 });
      expect(result.content).toEqual([
        { type: 'text', text: JSON.stringify({ sum: 6.5, count: 3 }) },
      ]);
    });

    it('calls a tool whose schemas are zod (Standard Schema)', async () => {
      const { tools } = await client.listTools();
      const divide = tools.find((t) => t.name === 'divide');
      expect(divide?.inputSchema).toMatchObject({ type: 'object', required: ['a', 'b'] });
      expect(divide?.outputSchema).toMatchObject({ type: 'object', required: ['quotient'] });
      const ok = await client.callTool({ name: 'divide', arguments: { a: 7, b: 2 } });
      expect(ok.isError).toBeFalsy();
      expect(ok.structuredContent).toEqual({ quotient: 3.5 });
      const bad = await client.callTool({ name: 'divide', arguments: { a: 7, b: 0 } });
      expect(bad.isError).toBe(true);
      expect(textOf((bad.content as unknown[])[0])).toContain('b must not be 0');
    });

    it('passes through a tool result with isError', async () => {
      const result = await client.callTool({ name: 'fail', arguments: {} });
      expect(result.isError).toBe(true);
      expect(result.content).toEqual([{ type: 'text', text: 'this tool always fails' }]);
    });

    it('turns a throwing tool into isError', async () => {
      const result = await client.callTool({ name: 'explode', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf((result.content as unknown[])[0])).toContain('kaboom');
    });

    it('reports invalid tool arguments as a tool error', async () => {
      const result = await client.callTool({ name: 'shout', arguments: { text: 42 } });
      expect(result.isError).toBe(true);
      expect(textOf((result.content as unknown[])[0])).toMatch(
        /Invalid arguments for tool "shout"/,
      );
    });

    it('rejects an unknown tool with -32602', async () => {
      const error = await protocolError(() =>
        client.callTool({ name: 'no-such-tool', arguments: {} }),
      );
      expect(error.code).toBe(INVALID_PARAMS);
    });
  });
});
