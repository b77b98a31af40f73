import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectInMemory, type MemoryConnection } from '../../transports/memory.js';
import { modern } from '../../testing/messages.js';
import { createServer } from '../../server/server.js';
import { MemoryLinkStore } from '../../server/link-store.js';
import { serveFolder, type ServeFolderOptions } from './folder-server.js';
import { asciiJson } from './search-entries.js';
import type { SearchArtifact } from './search-tool.js';

type Block = { type: string; text?: string; uri?: string; [key: string]: unknown };
type Res = {
  result?: { content?: Block[]; contents?: Block[]; isError?: boolean };
  error?: { code: number; message: string };
};

let base: string;
const linkStore = new MemoryLinkStore();

async function serve(
  search?: ServeFolderOptions['search'],
  more: Partial<ServeFolderOptions> = {},
): Promise<MemoryConnection> {
  const server = createServer({ name: 'folder', version: '1', linkStore });
  const provider = serveFolder(server, { root: base, ...(search ? { search } : {}), ...more });
  await provider.ready();
  return connectInMemory(server);
}

async function searchFor(conn: MemoryConnection, args: Record<string, unknown>): Promise<Block[]> {
  const res = (await conn.send(modern('tools/call', { name: 'search', arguments: args }))) as Res;
  return res.result?.content ?? [];
}

async function readJson(conn: MemoryConnection, uri: string): Promise<SearchArtifact> {
  const res = (await conn.send(modern('resources/read', { uri }))) as Res;
  const [contents] = res.result?.contents ?? [];
  expect(contents).toMatchObject({ uri, mimeType: 'application/json' });
  const body = JSON.parse(contents?.text ?? '') as SearchArtifact;
  // Spliced from parts, the text is still exactly what JSON.stringify writes of the whole, with
  // every character past U+007E escaped (ASCII: one byte a character).
  expect(contents?.text).toBe(asciiJson(body));
  expect(contents?.text).toMatch(/^[\x20-\x7e]*$/);
  return body;
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mcpkit-search-artifact-'));
  for (let i = 0; i < 25; i++)
    await writeFile(join(base, `f-${String(i).padStart(2, '0')}.txt`), `item ${i} mentions okapi`);
  await writeFile(join(base, 'okapi-notes.md'), 'about the okapi');
  await writeFile(join(base, 'two.md'), 'a quagga and a second quagga');
  await writeFile(join(base, 'three.md'), 'one quagga');
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

describe('search beyond its limit', () => {
  it('ends with a link to a JSON artifact of the matches, best first, readable on any instance sharing the store', async () => {
    const conn = await serve();
    const [summary, ...links] = await searchFor(conn, { query: 'okapi', limit: 5 });
    expect(summary?.text).toMatch(
      /^26 files match "okapi" \(1 by name, 25 by text only; showing the best 5, the last link is a JSON list of all 26\)\. Ranked by relevance/,
    );
    expect(links).toHaveLength(6);
    // The file named for the word ranks first.
    expect(links[0]).toMatchObject({ uri: 'file:///okapi-notes.md' });
    expect(links[0]?.description).toMatch(/^name matches; line 1: about the okapi/);
    expect(links.slice(0, 5).every((l) => l.uri?.startsWith('file:///'))).toBe(true);
    const artifact = links[5];
    expect(artifact).toMatchObject({
      type: 'resource_link',
      name: 'search-matches.json',
      mimeType: 'application/json',
      uri: expect.stringMatching(/^mcpkit:\/\/artifacts\//),
    });
    for (const reader of [conn, await serve()]) {
      const body = await readJson(reader, artifact?.uri ?? '');
      expect(body).toMatchObject({
        query: 'okapi',
        matched: 26,
        complete: true,
        scanned: 28,
        total: 28,
      });
      expect(body.matches).toHaveLength(26);
      expect(body.matches[0]).toEqual({
        uri: 'file:///okapi-notes.md',
        name: 'okapi-notes.md',
        where: 'name+content',
        snippet: 'about the okapi',
        line: 1,
      });
      // Past the returned links: where and the line, no snippet.
      const names = body.matches.map((m) => m.name);
      expect(new Set(names).size).toBe(26);
      expect(body.matches[25]).toEqual({
        uri: expect.stringMatching(/^file:\/\/\/f-\d\d\.txt$/),
        name: expect.stringMatching(/^f-\d\d\.txt$/),
        where: 'content',
        line: 1,
      });
    }
  });

  it('links no artifact when the matches fit the limit', async () => {
    const conn = await serve();
    const content = await searchFor(conn, { query: 'quagga', limit: 2 });
    expect(content).toHaveLength(3);
    expect(content[0]?.text).toMatch(/^2 files match "quagga" \(0 by name, 2 by text only\)\./);
    expect(
      content
        .slice(1)
        .map((l) => l.uri)
        .sort(),
    ).toEqual(['file:///three.md', 'file:///two.md']);
  });

  it('lists at most listLimit matches and says complete: false', async () => {
    const conn = await serve({ listLimit: 4 });
    const [summary, ...links] = await searchFor(conn, { query: 'okapi', limit: 3 });
    expect(summary?.text).toMatch(
      /^26 files match "okapi" \(of those listed, .* the last link is a JSON list of the best 4\)/,
    );
    expect(links).toHaveLength(4);
    const body = await readJson(conn, links[3]?.uri ?? '');
    expect(body).toMatchObject({
      query: 'okapi',
      matched: 26,
      complete: false,
      scanned: 28,
      total: 28,
    });
    expect(body.matches).toHaveLength(4);
  });

  it("names every listed match by the folder's URIs (the index's worker writes those past the links)", async () => {
    const conn = await serve(undefined, { uriPrefix: 'docs://site/' });
    const [, ...links] = await searchFor(conn, { query: 'okapi', limit: 2 });
    const body = await readJson(conn, links[2]?.uri ?? '');
    expect(body.matches).toHaveLength(26);
    for (const m of body.matches) expect(m.uri).toBe(`docs://site/${m.name}`);
  });

  it('limits matches to a path glob', async () => {
    const conn = await serve();
    const content = await searchFor(conn, { query: 'okapi', path: '*.md' });
    expect(content[0]?.text).toMatch(/^1 file in "\*\.md" match "okapi"/);
    expect(content.slice(1).map((l) => l.uri)).toEqual(['file:///okapi-notes.md']);
  });

  it('writes names, URIs and snippets past ASCII as escapes of the same values', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-search-wide-'));
    try {
      const names = ['caf\u00e9.txt', '\u65e5\u672c-notes.md', 'smile-\u{1f600}.txt', 'plain.txt'];
      for (const name of names)
        await writeFile(
          join(dir, name),
          `first line\nthe okapi \u2026 na\u00efve \u65e5\u672c\u8a9e`,
        );
      const server = createServer({ name: 'folder', version: '1', linkStore });
      await serveFolder(server, { root: dir }).ready();
      const conn = await connectInMemory(server);
      const [summary, ...links] = await searchFor(conn, { query: 'okapi', limit: 2 });
      expect(summary?.text).toMatch(/^4 files match "okapi"/);
      const body = await readJson(conn, links[2]?.uri ?? '');
      expect(body).toMatchObject({ query: 'okapi', matched: 4, complete: true });
      expect(body.matches.map((m) => m.name).sort()).toEqual([...names].sort());
      for (const m of body.matches) {
        expect(m.uri).toBe(`file:///${encodeURIComponent(m.name)}`);
        expect(m.line).toBe(2);
      }
      // The returned links' entries carry their snippet, as the links do.
      for (const [i, link] of links.slice(0, 2).entries()) {
        expect(body.matches[i]?.uri).toBe(link.uri);
        expect(body.matches[i]?.snippet).toContain(
          'the okapi \u2026 na\u00efve \u65e5\u672c\u8a9e',
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
