/**
 * The McpClient checks run against each server this test suite writes with a third-party library
 * (servers/sdk-server.ts, servers/tmcp-server.ts): both serve servers/content.ts, so every byte
 * read is checked against what they were told to serve.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { McpClient, ClientWarning } from '../../src/client/index.js';
import { ProtocolError } from '../../src/errors/index.js';
import type { HttpClientTransport } from '../../src/transports/http/client/index.js';
import type { StdioClientTransport } from '../../src/transports/stdio/client/index.js';
import {
  all,
  base64Bytes,
  blocksOf,
  httpTransport,
  newClient,
  spawnListening,
  stdioTransport,
  stopChild,
  waitGone,
  type ClientEra,
  type SpawnedServer,
} from './client-helpers.js';
import {
  BLOB_BYTES,
  BLOB_URI,
  DOC_MIME,
  DOC_TEMPLATE,
  PAGE_SIZE,
  PROMPT_NAMES,
  RECAP_TEXT,
  RESOURCES,
  TEXT,
  TEXT_URI,
  TOOL_NAMES,
  addText,
  docText,
  docUri,
  farewellText,
  greetText,
  linkIntro,
  quoteText,
  type ServedResource,
} from './servers/content.js';

type ListMethod = 'tools/list' | 'resources/list' | 'prompts/list';

export interface OwnServerCase {
  transport: 'stdio' | 'http';
  /** What the client is told: detect (`auto`) or pin 2025 (`legacy`). */
  era: ClientEra;
  expectEra: 'modern' | 'legacy';
  expectVersion: string;
}

export interface OwnServerSpec {
  label: string;
  /** The server script, relative to the repo root; it takes --stdio or --http. */
  script: string;
  serverInfo: { name: string; version: string };
  /** The lists the library pages by PAGE_SIZE (the others come in one page). */
  paged: readonly ListMethod[];
  cases: readonly OwnServerCase[];
}

/** Checks one read of `r` (static or through a link): exactly one content, bytes as served. */
function expectServed(contents: ReturnType<typeof blocksOf>, r: ServedResource, uri = r.uri): void {
  expect(contents).toHaveLength(1);
  const [item] = contents;
  expect(item?.uri).toBe(uri);
  expect(item?.mimeType).toBe(r.mimeType);
  if ('text' in r) {
    expect(item?.blob).toBeUndefined();
    // Compared as a boolean first: a diff of the large resource would drown the report.
    expect(item?.text?.length, `${uri}: text length`).toBe(r.text.length);
    if (item?.text !== r.text) expect(item?.text).toBe(r.text);
  } else {
    expect(item?.text).toBeUndefined();
    expect(base64Bytes(item?.blob)).toEqual(r.blob);
  }
}

export function ownServerSuite(spec: OwnServerSpec): void {
  /** One HTTP server process serves every HTTP case (both eras on one endpoint). */
  let shared: Promise<SpawnedServer> | undefined;
  const httpServer = (): Promise<SpawnedServer> =>
    (shared ??= spawnListening(['--import', 'tsx', spec.script, '--http']));

  afterAll(async () => {
    if (!shared) return;
    const server = await shared;
    const pid = server.child.pid as number;
    const ended = await stopChild(server.child);
    expect(await waitGone(pid), `HTTP server ${pid} still alive`).toBe(true);
    expect(ended, 'HTTP server exit on SIGTERM').toEqual({ code: 0, signal: null });
  });

  describe.each(spec.cases)(
    `McpClient ↔ ${spec.label} over $transport, client era $era`,
    ({ transport, era, expectEra, expectVersion }) => {
      let client: McpClient;
      let server: SpawnedServer | undefined;
      let stdio: StdioClientTransport | undefined;
      let pid: number | undefined;
      const warnings: ClientWarning[] = [];

      beforeAll(async () => {
        let clientTransport: StdioClientTransport | HttpClientTransport;
        if (transport === 'stdio') {
          stdio = stdioTransport(['--import', 'tsx', spec.script, '--stdio']);
          clientTransport = stdio;
        } else {
          server = await httpServer();
          clientTransport = httpTransport(server.url);
        }
        client = newClient(clientTransport, era, warnings);
        try {
          await client.connect();
        } catch (error) {
          const output = stdio?.stderrText() ?? server?.output.join('') ?? '';
          throw new Error(`connect failed: ${String(error)}; server output: ${output}`, {
            cause: error,
          });
        }
        pid = stdio?.pid;
      });

      afterAll(async () => {
        const failures: unknown[] = [];
        const started = Date.now();
        await client?.close().catch((e: unknown) => failures.push(e));
        const closeMs = Date.now() - started;
        expect(failures, 'errors while closing').toEqual([]);
        if (stdio) {
          const gone = pid === undefined ? false : await waitGone(pid);
          if (!gone && pid !== undefined) process.kill(pid, 'SIGKILL');
          expect(pid, 'the stdio server process was seen').toBeTypeOf('number');
          expect(gone, `stdio server ${pid} still alive after close`).toBe(true);
          // close() ends stdin and waits 2 s before SIGTERM: these servers must exit on EOF.
          expect(closeMs, 'stdio server should exit on stdin EOF').toBeLessThan(1900);
        } else {
          expect(server?.child.exitCode, 'HTTP server outlives a client').toBeNull();
        }
        expect(warnings, 'client warnings').toEqual([]);
      });

      it(`detects the era (${expectEra}, ${expectVersion}) and the server`, () => {
        expect(client.era).toBe(expectEra);
        expect(client.protocolVersion).toBe(expectVersion);
        expect(client.serverInfo).toMatchObject(spec.serverInfo);
        expect(client.serverCapabilities).toMatchObject({ tools: {}, resources: {}, prompts: {} });
      });

      it('pages through every list', async () => {
        const tools = await all(client.tools());
        expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
        expect(tools.find((t) => t.name === 'add')?.inputSchema).toMatchObject({
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
        });
        const resources = await all(client.resources());
        expect(resources.map((r) => [r.uri, r.name, r.mimeType])).toEqual(
          RESOURCES.map((r) => [r.uri, r.name, r.mimeType]),
        );
        const templates = await all(client.resourceTemplates());
        expect(templates).toHaveLength(1);
        expect(templates[0]).toMatchObject({
          uriTemplate: DOC_TEMPLATE,
          name: 'doc',
          mimeType: DOC_MIME,
        });
        const prompts = await all(client.prompts());
        expect(prompts.map((p) => p.name)).toEqual([...PROMPT_NAMES]);
        expect(prompts[0]?.arguments).toEqual([
          expect.objectContaining({ name: 'who', required: true }),
          expect.objectContaining({ name: 'style' }),
        ]);
        expect(prompts[0]?.arguments?.[1]?.required).not.toBe(true);
        // The list methods return the same as the iterators.
        expect((await client.listTools()).map((t) => t.name)).toEqual([...TOOL_NAMES]);
        expect((await client.listResources()).length).toBe(RESOURCES.length);
        expect((await client.listResourceTemplates()).length).toBe(1);
        expect((await client.listPrompts()).length).toBe(PROMPT_NAMES.length);
      });

      it('really got more than one page where the library pages', async () => {
        for (const method of spec.paged) {
          const first = await client.request(method, {}, { cache: false });
          const key = method.split('/')[0] as string;
          expect(first[key], method).toHaveLength(PAGE_SIZE);
          expect(typeof first['nextCursor'], `${method} nextCursor`).toBe('string');
        }
      });

      it('reads every listed resource with the bytes served', async () => {
        const listed = await client.listResources();
        expect(listed).toHaveLength(RESOURCES.length);
        for (const entry of listed) {
          const served = RESOURCES.find((r) => r.uri === entry.uri) as ServedResource;
          expectServed(blocksOf(await client.readResource(entry.uri)), served);
        }
        // All at once, three times over: answers must find their requests.
        const uris = [...listed, ...listed, ...listed].map((r) => r.uri);
        const reads = await Promise.all(uris.map((uri) => client.readResource(uri)));
        reads.forEach((read, i) =>
          expectServed(blocksOf(read), RESOURCES.find((r) => r.uri === uris[i]) as ServedResource),
        );
        // Spot checks that do not go through the table above.
        const text = blocksOf(await client.readResource(TEXT_URI))[0];
        expect(Buffer.from(text?.text ?? '', 'utf8')).toEqual(Buffer.from(TEXT, 'utf8'));
        const blob = blocksOf(await client.readResource(BLOB_URI))[0];
        expect(base64Bytes(blob?.blob)).toEqual(BLOB_BYTES);
        expect(BLOB_BYTES).toHaveLength(512);
      });

      it('reads through the template', async () => {
        const uri = docUri('alpha');
        expect(blocksOf(await client.readResource(uri))).toEqual([
          { uri, mimeType: DOC_MIME, text: docText('alpha') },
        ]);
      });

      it('gets prompts with arguments', async () => {
        const formal = await client.getPrompt('greet', { who: 'Ada', style: 'formal' });
        expect(formal.messages).toEqual([
          { role: 'user', content: { type: 'text', text: greetText('Ada', 'formal') } },
        ]);
        const casual = await client.getPrompt('greet', { who: 'Grace' });
        expect(casual.messages[0]?.content).toEqual({ type: 'text', text: greetText('Grace') });
        const bye = await client.getPrompt('farewell', { who: 'Ünïcode ✓' });
        expect(bye.messages[0]?.content).toEqual({
          type: 'text',
          text: farewellText('Ünïcode ✓'),
        });
        const quote = await client.getPrompt('quote', { topic: 'bytes' });
        expect(quote.messages[0]?.content).toEqual({ type: 'text', text: quoteText('bytes') });
        const recap = await client.getPrompt('recap');
        expect(recap.messages[0]?.content).toEqual({ type: 'text', text: RECAP_TEXT });
      });

      it('calls tools', async () => {
        const sum = await client.callTool('add', { a: 2, b: 40 });
        expect(sum.isError).toBeFalsy();
        expect(sum.content).toEqual([{ type: 'text', text: addText(2, 40) }]);
        const loud = await client.callTool('shout', { text: 'ünïcödé ok' });
        expect(loud.content).toEqual([{ type: 'text', text: 'ÜNÏCÖDÉ OK' }]);
      });

      it('follows a resource_link from a tool result with resources/read', async () => {
        for (const target of ['text', 'blob'] as const) {
          const result = await client.callTool('link', { target });
          const blocks = blocksOf(result);
          const served = RESOURCES[target === 'text' ? 0 : 1] as ServedResource;
          expect(blocks[0]).toEqual({ type: 'text', text: linkIntro(served.uri) });
          const link = blocks.find((b) => b.type === 'resource_link');
          expect(link).toMatchObject({
            uri: served.uri,
            name: served.name,
            mimeType: served.mimeType,
          });
          expectServed(blocksOf(await client.readResource(link?.uri as string)), served);
        }
        const doc = blocksOf(await client.callTool('doc-link', { name: 'beta' }));
        const link = doc.find((b) => b.type === 'resource_link');
        expect(link).toMatchObject({ uri: docUri('beta'), mimeType: DOC_MIME });
        expect(blocksOf(await client.readResource(link?.uri as string))).toEqual([
          { uri: docUri('beta'), mimeType: DOC_MIME, text: docText('beta') },
        ]);
      });

      it('reports an unknown resource as a protocol error and carries on', async () => {
        const missing = 'interop://missing/nothing';
        const error = await client.readResource(missing).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ProtocolError);
        expect((await client.callTool('add', { a: 1, b: 1 })).content).toEqual([
          { type: 'text', text: addText(1, 1) },
        ]);
      });
    },
  );
}
