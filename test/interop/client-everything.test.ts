/**
 * Interop: McpClient against `@modelcontextprotocol/server-everything` 2026.8.31, the reference
 * server of the MCP project (an SDK v1 server nobody here wrote), spawned as a real process over
 * stdio and over Streamable HTTP on 127.0.0.1. It speaks 2025 only: over stdio it answers
 * `server/discover` with -32601, over HTTP with 400 -32000 "Server not initialized"; detection
 * must fall back to `initialize` (2025-11-25). What it serves is checked where its source says
 * what it is: the static documents are its `dist/docs/*.md` files verbatim, the dynamic blobs are
 * the UTF-8 of "Resource <id>: This is a base64 blob created at <time>", and
 * `gzip-file-as-resource` links a session resource whose blob is the gzip of what it was given.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClientWarning, McpClient } from '../../src/client/index.js';
import type { HttpClientTransport } from '../../src/transports/http/client/index.js';
import type { StdioClientTransport } from '../../src/transports/stdio/client/index.js';
import {
  ROOT,
  all,
  base64Bytes,
  blocksOf,
  httpTransport,
  newClient,
  spawnListening,
  stdioTransport,
  stopChild,
  waitGone,
  type SpawnedServer,
} from './client-helpers.js';

const PACKAGE = join(ROOT, 'node_modules/@modelcontextprotocol/server-everything');
const ENTRY = join(PACKAGE, 'dist/index.js');
const DOCS = join(PACKAGE, 'dist/docs');
const PRELOAD = './test/interop/servers/loopback-listen.mjs';

const DOC_NAMES = [
  'architecture.md',
  'extension.md',
  'features.md',
  'how-it-works.md',
  'instructions.md',
  'startup.md',
  'structure.md',
];
const docUri = (name: string): string =>
  `demo://resource/static/document/${encodeURIComponent(name)}`;
/** Tools registered whatever the client declares (12; 5 more need roots, sampling, elicitation). */
const BASE_TOOLS = [
  'echo',
  'get-annotated-message',
  'get-env',
  'get-resource-links',
  'get-resource-reference',
  'get-structured-content',
  'get-sum',
  'get-tiny-image',
  'gzip-file-as-resource',
  'toggle-simulated-logging',
  'toggle-subscriber-updates',
  'trigger-long-running-operation',
];
const PROMPTS = ['simple-prompt', 'args-prompt', 'completable-prompt', 'resource-prompt'];
const TEXT_TEMPLATE = 'demo://resource/dynamic/text/{resourceId}';
const BLOB_TEMPLATE = 'demo://resource/dynamic/blob/{resourceId}';
const dynamicText = (id: number): RegExp =>
  new RegExp(`^Resource ${id}: This is a plaintext resource created at \\S.*$`);
const dynamicBlob = (id: number): RegExp =>
  new RegExp(`^Resource ${id}: This is a base64 blob created at \\S.*$`);
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe.each(['stdio', 'http'] as const)(
  'McpClient ↔ server-everything 2026.8.31 over %s, client era auto',
  (transport) => {
    let client: McpClient;
    let server: SpawnedServer | undefined;
    let stdio: StdioClientTransport | undefined;
    let pid: number | undefined;
    const warnings: ClientWarning[] = [];
    /** Methods of the notifications no request claimed, in arrival order. */
    const notifications: string[] = [];

    beforeAll(async () => {
      let clientTransport: StdioClientTransport | HttpClientTransport;
      if (transport === 'stdio') {
        stdio = stdioTransport([ENTRY, 'stdio']);
        clientTransport = stdio;
      } else {
        server = await spawnListening(['--import', PRELOAD, ENTRY, 'streamableHttp'], {
          PORT: '0',
        });
        pid = server.child.pid;
        clientTransport = httpTransport(server.url);
      }
      client = newClient(clientTransport, 'auto', warnings, notifications);
      try {
        await client.connect();
      } catch (error) {
        const output = stdio?.stderrText() ?? server?.output.join('') ?? '';
        throw new Error(`connect failed: ${String(error)}; server output: ${output}`, {
          cause: error,
        });
      }
      pid ??= stdio?.pid;
    });

    afterAll(async () => {
      const failures: unknown[] = [];
      await client?.close().catch((e: unknown) => failures.push(e));
      if (server) await stopChild(server.child);
      const gone = pid === undefined ? true : await waitGone(pid);
      if (!gone && pid !== undefined) process.kill(pid, 'SIGKILL');
      expect(failures, 'errors while closing').toEqual([]);
      expect(pid, 'the server process was seen').toBeTypeOf('number');
      expect(gone, `server process ${pid} still alive after close`).toBe(true);
      expect(warnings, 'client warnings').toEqual([]);
    });

    it('falls back from server/discover to initialize (2025-11-25)', () => {
      expect(client.era).toBe('legacy');
      expect(client.protocolVersion).toBe('2025-11-25');
      expect(client.serverInfo).toMatchObject({ name: 'mcp-servers/everything', version: '2.0.0' });
      expect(client.serverCapabilities).toMatchObject({
        tools: { listChanged: true },
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        logging: {},
      });
      expect(client.instructions).toBe(readFileSync(join(DOCS, 'instructions.md'), 'utf8'));
    });

    it('pages through every list', async () => {
      const tools = (await all(client.tools())).map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(BASE_TOOLS));
      const resources = await all(client.resources());
      expect(resources.map((r) => [r.uri, r.mimeType])).toEqual(
        DOC_NAMES.map((n) => [docUri(n), 'text/markdown']),
      );
      const templates = await all(client.resourceTemplates());
      expect(templates.map((t) => t.uriTemplate).sort()).toEqual([BLOB_TEMPLATE, TEXT_TEMPLATE]);
      const prompts = await all(client.prompts());
      expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(PROMPTS));
      expect(prompts.find((p) => p.name === 'args-prompt')?.arguments).toEqual([
        expect.objectContaining({ name: 'city', required: true }),
        expect.objectContaining({ name: 'state' }),
      ]);
    });

    it('reads every listed resource: the docs verbatim', async () => {
      const listed = await client.listResources();
      expect(listed).toHaveLength(DOC_NAMES.length);
      for (const entry of listed) {
        const name = decodeURIComponent(entry.uri.split('/').pop() as string);
        const expected = readFileSync(join(DOCS, name), 'utf8');
        expect(blocksOf(await client.readResource(entry.uri)), entry.uri).toEqual([
          { uri: entry.uri, mimeType: 'text/markdown', text: expected },
        ]);
      }
    });

    it('reads text and blob resources through the templates', async () => {
      const [text] = blocksOf(await client.readResource('demo://resource/dynamic/text/1'));
      expect(text).toMatchObject({ uri: 'demo://resource/dynamic/text/1', mimeType: 'text/plain' });
      expect(text?.text).toMatch(dynamicText(1));
      const [blob] = blocksOf(await client.readResource('demo://resource/dynamic/blob/2'));
      // The template says application/octet-stream; the read says text/plain (its source does).
      expect(blob).toMatchObject({ uri: 'demo://resource/dynamic/blob/2', mimeType: 'text/plain' });
      expect(blob?.text).toBeUndefined();
      expect(Buffer.from(base64Bytes(blob?.blob)).toString('utf8')).toMatch(dynamicBlob(2));
    });

    it('gets a prompt with arguments', async () => {
      const one = await client.getPrompt('args-prompt', { city: 'Paris' });
      expect(one.messages).toEqual([
        { role: 'user', content: { type: 'text', text: "What's weather in Paris?" } },
      ]);
      const two = await client.getPrompt('args-prompt', { city: 'Zürich', state: 'ZH' });
      expect(two.messages[0]?.content).toEqual({
        type: 'text',
        text: "What's weather in Zürich, ZH?",
      });
      const simple = await client.getPrompt('simple-prompt');
      expect(simple.messages[0]?.role).toBe('user');
    });

    it('calls tools', async () => {
      const sum = await client.callTool('get-sum', { a: 2, b: 3 });
      expect(sum.isError).toBeFalsy();
      expect(sum.content).toEqual([{ type: 'text', text: 'The sum of 2 and 3 is 5.' }]);
      const echo = await client.callTool('echo', { message: 'ünïcödé ✓' });
      expect(echo.content).toEqual([{ type: 'text', text: 'Echo: ünïcödé ✓' }]);
      const image = blocksOf(await client.callTool('get-tiny-image', {})).find(
        (b) => b.type === 'image',
      ) as { mimeType?: string; data?: string } | undefined;
      expect(image?.mimeType).toBe('image/png');
      expect([...base64Bytes(image?.data).subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    });

    it('follows the resource_links of get-resource-links with resources/read', async () => {
      const blocks = blocksOf(await client.callTool('get-resource-links', { count: 4 }));
      expect(blocks[0]).toEqual({
        type: 'text',
        text: 'Here are 4 resource links to resources available in this server:',
      });
      const links = blocks.filter((b) => b.type === 'resource_link');
      // Odd ids link the blob template, even ids the text one.
      expect(links.map((l) => [l.name, l.uri])).toEqual([
        ['Blob Resource 1', 'demo://resource/dynamic/blob/1'],
        ['Text Resource 2', 'demo://resource/dynamic/text/2'],
        ['Blob Resource 3', 'demo://resource/dynamic/blob/3'],
        ['Text Resource 4', 'demo://resource/dynamic/text/4'],
      ]);
      for (const [i, link] of links.entries()) {
        const id = i + 1;
        const [item] = blocksOf(await client.readResource(link.uri as string));
        expect(item?.uri).toBe(link.uri);
        if (id % 2 === 1) {
          expect(Buffer.from(base64Bytes(item?.blob)).toString('utf8')).toMatch(dynamicBlob(id));
        } else {
          expect(item?.text).toMatch(dynamicText(id));
        }
      }
    });

    it('follows the resource_link of gzip-file-as-resource: the blob is the gzip of the input', async () => {
      const input = Buffer.from(`interop ${transport} ünïcödé ✓\n`.repeat(20), 'utf8');
      const name = `interop-${transport}.txt.gz`;
      const result = await client.callTool('gzip-file-as-resource', {
        name,
        data: `data:text/plain;base64,${input.toString('base64')}`,
      });
      expect(result.isError).toBeFalsy();
      const link = blocksOf(result).find((b) => b.type === 'resource_link');
      const uri = `demo://resource/session/${name}`;
      expect(link).toMatchObject({ uri, name, mimeType: 'application/gzip' });
      const [item] = blocksOf(await client.readResource(uri));
      expect(item).toMatchObject({ uri, mimeType: 'application/gzip' });
      const bytes = base64Bytes(item?.blob);
      expect([...bytes.subarray(0, 2)]).toEqual([0x1f, 0x8b]);
      expect(gunzipSync(bytes)).toEqual(input);
    });

    it('hears resources/list_changed for the new session resource, and lists and reads it', async () => {
      // Registered by the previous test; over HTTP the notification comes on the GET stream.
      const uri = `demo://resource/session/interop-${transport}.txt.gz`;
      const deadline = Date.now() + 5000;
      while (!notifications.includes('notifications/resources/list_changed')) {
        if (Date.now() > deadline) throw new Error(`no list_changed; got ${notifications.join()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      // Sent while it handles notifications/initialized: over HTTP that is before the client's
      // GET stream exists, and the server drops it (2025-11-25 promises no delivery then).
      if (transport === 'stdio')
        expect(notifications).toContain('notifications/tools/list_changed');
      const listed = await all(client.resources());
      expect(listed.map((r) => r.uri)).toEqual([...DOC_NAMES.map(docUri), uri]);
      expect(listed.at(-1)).toMatchObject({ mimeType: 'application/gzip' });
      const [item] = blocksOf(await client.readResource(uri));
      expect([...base64Bytes(item?.blob).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    });
  },
);
