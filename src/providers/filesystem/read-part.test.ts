import { randomBytes } from 'node:crypto';
import {
  appendFile,
  mkdir,
  mkdtemp,
  open,
  readFile,
  rm,
  truncate,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectInMemory, type MemoryConnection } from '../../transports/memory.js';
import { modern } from '../../testing/messages.js';
import { createServer } from '../../server/server.js';
import { createFilesystemProvider, type FilesystemProviderOptions } from './filesystem-provider.js';
import { nodeFs, type ProviderFileHandle, type ProviderFs } from './fs-types.js';
import { collectBlob, isStreamedBody } from '../../content/streamed-body.js';
import { readFilePart } from './read-part.js';
import { STREAM_CHUNK_BYTES } from './streamed-file.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const PART = 'dev.mcpkit/part';

type Part = { offset: number; length: number; size: number; version: string; next?: string };
type Contents = {
  uri: string;
  mimeType: string;
  text?: string;
  blob?: string;
  _meta: Record<string, unknown>;
};
type Res = {
  result?: { contents: Contents[] };
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

let root: string;
/** Where markers sit in the sparse 1 GiB file; one spans the boundary of two 8 MiB parts. */
const MARKERS: Array<[number, string]> = [
  [0, 'first bytes'],
  [8 * MiB - 3, 'across a part boundary'],
  [512 * MiB + 12345, 'in the middle'],
  [GiB - 4, 'end!'],
];
let text: string;

/** Text with long and short lines, multi-byte characters (é, €, emoji) and JSON escapes. */
function mixedText(lines: number): string {
  const alphabet = ['a', 'b', 'é', '€', '😀', ' ', '\t', '"', '\\', 'z'];
  let seed = 7;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    const n = random(10) === 0 ? 5000 + random(20_000) : random(120);
    let line = '';
    for (let j = 0; j < n; j++) line += alphabet[random(alphabet.length)];
    out.push(line);
  }
  return out.join('\n');
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcpkit-parts-'));
  const big = await open(join(root, 'big.bin'), 'w');
  await big.truncate(GiB); // sparse: no disk used but the markers' pages
  for (const [at, marker] of MARKERS) await big.write(Buffer.from(marker), 0, marker.length, at);
  await big.close();
  await writeFile(join(root, 'random.zip'), randomBytes(300_000));
  text = mixedText(300);
  await writeFile(join(root, 'mixed.txt'), text);
  await writeFile(join(root, 'small.txt'), 'aé€😀\n'.repeat(20));
  await writeFile(
    join(root, 'nul.txt'),
    Buffer.concat([Buffer.alloc(100_000), Buffer.from('end\n')]),
  );
  await writeFile(join(root, 'empty.txt'), '');
  await writeFile(join(root, 'latin1.txt'), Buffer.from('caf\xe9 au lait\n'.repeat(10), 'latin1'));
  await writeFile(join(root, '.env'), 'SECRET=1');
  await mkdir(join(root, 'notes'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

function serve(capBytes: number, options: Partial<FilesystemProviderOptions> = {}) {
  const server = createServer({ name: 'parts', version: '1', content: { capBytes } });
  const provider = createFilesystemProvider({ root, settleMs: 0, ...options });
  provider.register(server);
  return { server, provider, conn: connectInMemory(server) };
}

async function read(conn: MemoryConnection, uri: string): Promise<Res> {
  return (await conn.send(modern('resources/read', { uri }))) as Res;
}

async function readPart(conn: MemoryConnection, uri: string): Promise<{ c: Contents; part: Part }> {
  const res = await read(conn, uri);
  expect(res.error, uri).toBeUndefined();
  const contents = res.result?.contents ?? [];
  expect(contents).toHaveLength(1);
  const c = contents[0] as Contents;
  expect(c.uri).toBe(uri);
  return { c, part: c._meta[PART] as Part };
}

/** Follows `next` from `first`; checks that the parts are contiguous; returns them. */
async function walk(conn: MemoryConnection, first: string, each?: (c: Contents, p: Part) => void) {
  const parts: Array<{ c: Contents; part: Part }> = [];
  let uri: string | undefined = first;
  let end = 0;
  while (uri !== undefined) {
    const got = await readPart(conn, uri);
    expect(got.part.offset).toBe(end);
    expect(got.part.length).toBeGreaterThan(0);
    end = got.part.offset + got.part.length;
    each?.(got.c, got.part);
    if (each === undefined) parts.push(got);
    uri = got.part.next;
    if (uri !== undefined) expect(end).toBeLessThan(got.part.size);
  }
  return { parts, end };
}

const bytesOf = (c: Contents): Buffer =>
  c.text !== undefined ? Buffer.from(c.text, 'utf8') : Buffer.from(c.blob ?? '', 'base64');

describe('parts: walking a file', () => {
  it('walks a 1 GiB sparse file in 8 MiB blob parts: every byte once, the last part has no next', async () => {
    const { conn } = serve(64 * MiB, { partBytes: 8 * MiB });
    const seen: Part[] = [];
    const { end } = await walk(conn, 'file:///big.bin?offset=0', (c, part) => {
      seen.push(part);
      expect(c.mimeType).toBe('application/octet-stream');
      expect(c.blob?.length).toBe(4 * Math.ceil(part.length / 3));
      // Spot checks: the markers, where they fall in this part, and zeros elsewhere.
      const hits = MARKERS.filter(
        ([at, m]) => at < part.offset + part.length && at + m.length > part.offset,
      );
      if (hits.length === 0) return;
      const bytes = Buffer.from(c.blob ?? '', 'base64');
      for (const [at, marker] of hits) {
        const from = Math.max(at, part.offset);
        const to = Math.min(at + marker.length, part.offset + part.length);
        expect(bytes.subarray(from - part.offset, to - part.offset).toString()).toBe(
          marker.slice(from - at, to - at),
        );
      }
      // No marker lies 1 MiB into a part: zeros there, as the sparse file has.
      expect(bytes.subarray(MiB, MiB + 4096).every((b) => b === 0)).toBe(true);
    });
    expect(end).toBe(GiB);
    expect(seen).toHaveLength(128);
    expect(seen.every((p) => p.size === GiB && p.version === seen[0]?.version)).toBe(true);
    expect(seen.at(-1)?.next).toBeUndefined();
    expect(seen[1]?.next).toBe(
      `file:///big.bin?offset=${16 * MiB}&length=${8 * MiB}&version=${seen[0]?.version}`,
    );
  });

  it('blob parts are exact byte ranges: random bytes concatenate to the file', async () => {
    const { conn } = serve(64 * MiB);
    const { parts } = await walk(conn, 'file:///random.zip?length=9999');
    expect(parts).toHaveLength(Math.ceil(300_000 / 9999));
    expect(
      parts.every(({ c, part }) => c.mimeType === 'application/zip' && part.length <= 9999),
    ).toBe(true);
    const whole = Buffer.concat(parts.map(({ c }) => bytesOf(c)));
    expect(whole.equals(await readFile(join(root, 'random.zip')))).toBe(true);
  });

  it.each([4096, 1000, 65_536])(
    'text parts of %i bytes never split a character, prefer newlines, and concatenate to the file',
    async (length) => {
      const { conn } = serve(64 * MiB);
      const file = Buffer.from(text, 'utf8');
      const { parts } = await walk(conn, `file:///mixed.txt?length=${length}`);
      expect(parts.map(({ c }) => c.text).join('')).toBe(text);
      for (const { c, part } of parts) {
        expect(c.mimeType).toBe('text/plain');
        expect(Buffer.byteLength(c.text ?? '')).toBe(part.length);
        expect(file.subarray(part.offset, part.offset + part.length).toString()).toBe(c.text);
        if (part.next === undefined) continue;
        const window = file.subarray(part.offset, part.offset + length);
        const newlineLate = window.subarray(Math.floor(length / 2)).includes(0x0a);
        // After the last newline of the second half, else at most 3 bytes short (a character).
        if (newlineLate) expect(c.text?.endsWith('\n')).toBe(true);
        else expect(part.length).toBeGreaterThan(length - 4);
      }
    },
  );

  it('a part of one byte still holds one whole character', async () => {
    const { conn } = serve(MiB);
    const { parts } = await walk(conn, 'file:///small.txt?length=1');
    expect(parts.map(({ c }) => c.text)).toEqual(
      Array.from({ length: 20 }, () => ['a', 'é', '€', '😀', '\n']).flat(),
    );
  });

  it('an offset inside a character starts at the character, and says so', async () => {
    const { conn } = serve(MiB);
    // "aé€😀\n": the emoji takes bytes 6-9.
    const { c, part } = await readPart(conn, 'file:///small.txt?offset=8&length=6');
    expect(part.offset).toBe(6);
    expect(c.text).toBe('😀\n');
  });

  it('a U+FEFF inside the file is kept by the part that starts with it (only the first is a BOM)', async () => {
    // Two files joined, each with its byte order mark: the second one is a character of the text.
    const joined = '\ufeffone\n\ufefftwo\n';
    await writeFile(join(root, 'boms.txt'), joined);
    const { conn } = serve(MiB);
    const whole = (await read(conn, 'file:///boms.txt')).result?.contents[0]?.text;
    expect(whole).toBe(joined.slice(1));
    const { parts } = await walk(conn, 'file:///boms.txt?length=10');
    expect(parts.map(({ part }) => part.offset)).toEqual([0, 7]);
    expect(parts.map(({ c }) => c.text).join('')).toBe(whole);
    expect((await readPart(conn, 'file:///boms.txt?offset=7')).c.text).toBe('\ufefftwo\n');
  });

  it('text that is not UTF-8 goes as a blob of the same type', async () => {
    const { conn } = serve(MiB);
    const { c, part } = await readPart(conn, 'file:///latin1.txt?length=100');
    expect(c.mimeType).toBe('text/plain');
    expect(c.text).toBeUndefined();
    expect(
      bytesOf(c).equals((await readFile(join(root, 'latin1.txt'))).subarray(0, part.length)),
    ).toBe(true);
  });

  it('a part of NUL-heavy text is shrunk until its escaped JSON fits the cap', async () => {
    const cap = 50_000;
    const { conn } = serve(cap);
    const { parts } = await walk(conn, 'file:///nul.txt?length=100000');
    expect(parts.length).toBeGreaterThan(10); // 6 bytes per NUL on the wire
    for (const { c } of parts)
      expect(Buffer.byteLength(JSON.stringify([c]))).toBeLessThanOrEqual(cap);
    expect(
      Buffer.concat(parts.map(({ c }) => bytesOf(c))).equals(await readFile(join(root, 'nul.txt'))),
    ).toBe(true);
  });

  it('a length past the end is clamped to the last part; an empty file has one empty part', async () => {
    const { conn } = serve(MiB);
    const size = Buffer.byteLength(text);
    const { c, part } = await readPart(conn, `file:///mixed.txt?offset=${size - 10}&length=1000`);
    expect(part).toMatchObject({ offset: size - 10, length: 10, size });
    expect(part.next).toBeUndefined();
    expect(c.text).toBe(
      Buffer.from(text)
        .subarray(size - 10)
        .toString(),
    );
    const empty = await readPart(conn, 'file:///empty.txt?offset=0');
    expect(empty.c.text).toBe('');
    expect(empty.part).toMatchObject({ offset: 0, length: 0, size: 0 });
    expect(empty.part.next).toBeUndefined();
  });

  it('a length larger than the connection takes is clamped to what fits, and the meta says so', async () => {
    const cap = 20_000;
    const { conn } = serve(cap);
    const { c, part } = await readPart(conn, 'file:///random.zip?length=1000000');
    expect(part.length).toBeLessThan(15_000);
    expect(Buffer.byteLength(JSON.stringify([c]))).toBeLessThanOrEqual(cap);
    expect(part.next).toBe(
      `file:///random.zip?offset=${part.length}&length=1000000&version=${part.version}`,
    );
  });
});

describe('parts: bad ranges and refusals', () => {
  const size = () => Buffer.byteLength(text);
  it.each([
    ['offset=-1', 'offset', 'not-an-integer'],
    ['offset=abc', 'offset', 'not-an-integer'],
    ['offset=1e3', 'offset', 'not-an-integer'],
    ['offset=0x10', 'offset', 'not-an-integer'],
    ['offset=', 'offset', 'not-an-integer'],
    ['offset=99999999999999999999', 'offset', 'unsafe-integer'],
    ['length=0', 'length', 'zero'],
    ['length=-4', 'length', 'not-an-integer'],
    ['length=99999999999999999999', 'length', 'unsafe-integer'],
    ['version=not-ours', 'version', 'malformed'],
    ['offset=SIZE', 'offset', 'beyond-end'],
    ['offset=SIZE1', 'offset', 'beyond-end'],
  ])('?%s is -32602 naming "%s" (%s)', async (query, parameter, reason) => {
    const { conn } = serve(MiB);
    const q = query.replace('SIZE1', String(size() + 1)).replace('SIZE', String(size()));
    const uri = `file:///mixed.txt?${q}`;
    const res = await read(conn, uri);
    expect(res.error?.code).toBe(-32602);
    expect(res.error?.message).toContain(`"${parameter}"`);
    expect(res.error?.data).toEqual({
      uri,
      parameter,
      reason,
      ...(reason === 'beyond-end' ? { size: size() } : {}),
    });
  });

  it('refuses what a whole read refuses: missing, hidden, directories, traversal', async () => {
    const { conn } = serve(MiB);
    for (const uri of [
      'file:///missing.txt?offset=0',
      'file:///.env?offset=0',
      'file:///notes?offset=0',
    ]) {
      const res = await read(conn, uri);
      expect(res.error, uri).toMatchObject({ code: -32602, data: { uri } });
      expect(res.error?.message, uri).toMatch(/^Resource not found/);
    }
    const escape = await read(conn, 'file:///%2e%2e/etc/passwd?offset=0');
    expect(escape.error).toMatchObject({ code: -32602, message: expect.stringMatching(/Refused/) });
  });

  it('a URI without a query is still the whole file', async () => {
    const { conn } = serve(MiB);
    const res = await read(conn, 'file:///small.txt');
    const c = res.result?.contents[0] as Contents;
    expect(c.text).toBe('aé€😀\n'.repeat(20));
    expect(c._meta[PART]).toBeUndefined();
  });
});

describe('parts: a file that changes during a walk', () => {
  let n = 0;
  async function fresh(contents: string): Promise<{ name: string; path: string }> {
    const name = `walk-${++n}.log`;
    await writeFile(join(root, name), contents);
    return { name, path: join(root, name) };
  }

  it.each([
    ['appended to', (p: string) => appendFile(p, 'more\n')],
    ['rewritten in place', (p: string) => writeFile(p, 'y'.repeat(50_000))],
  ])(
    '%s: the next part is -32602 "changed" with the new first part, never a splice',
    async (_, change) => {
      const { conn } = serve(MiB);
      const { name, path } = await fresh('x'.repeat(50_000));
      const first = await readPart(conn, `file:///${name}?length=10000`);
      await change(path);
      const res = await read(conn, first.part.next as string);
      expect(res.error?.code).toBe(-32602);
      expect(res.error?.message).toMatch(/changed since that version/);
      const data = res.error?.data as Record<string, string>;
      expect(data).toMatchObject({ uri: first.part.next, parameter: 'version', reason: 'changed' });
      expect(data['version']).not.toBe(first.part.version);
      expect(data['firstPart']).toBe(
        `file:///${name}?offset=0&length=10000&version=${data['version']}`,
      );
      const again = await readPart(conn, data['firstPart'] as string);
      expect(again.part.version).toBe(data['version']);
    },
  );

  it('shrank below the offset: "changed" with a version, past the end (with the size) without', async () => {
    const { conn } = serve(MiB);
    const { name, path } = await fresh('x'.repeat(50_000));
    const first = await readPart(conn, `file:///${name}?length=10000`);
    await truncate(path, 5000);
    const res = await read(conn, first.part.next as string);
    expect(res.error?.data).toMatchObject({ parameter: 'version', reason: 'changed' });
    const plain = await read(conn, `file:///${name}?offset=10000&length=10000`);
    expect(plain.error?.data).toMatchObject({
      parameter: 'offset',
      reason: 'beyond-end',
      size: 5000,
    });
  });

  /** node:fs whose first `read` of the file runs `during` (a writer between the two fstats). */
  function racingFs(during: () => Promise<void>): ProviderFs {
    let raced = false;
    return {
      ...nodeFs,
      open: async (path, flags) => {
        const handle = await nodeFs.open(path, flags);
        return new Proxy(handle, {
          get(target, prop) {
            if (prop === 'read')
              return async (...args: Parameters<ProviderFileHandle['read']>) => {
                const result = await target.read(...args);
                if (!raced) {
                  raced = true;
                  await during();
                }
                return result;
              };
            const value = Reflect.get(target, prop, target) as unknown;
            return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
          },
        }) as ProviderFileHandle;
      },
    };
  }

  it('changed while the range was read: a walk answers "changed"; a first read reads again', async () => {
    const { name, path } = await fresh('x'.repeat(50_000));
    const start = await readPart(serve(MiB).conn, `file:///${name}?length=10000`);
    const walking = serve(MiB, { fs: racingFs(() => appendFile(path, 'z')) });
    await walking.provider.ready(); // the folder is walked in the background: walked first, as before
    const res = await read(walking.conn, start.part.next as string);
    expect(res.error?.data).toMatchObject({ parameter: 'version', reason: 'changed' });
    const starting = serve(MiB, { fs: racingFs(() => appendFile(path, 'z')) });
    await starting.provider.ready();
    const { part } = await readPart(starting.conn, `file:///${name}?length=10000`);
    expect(part.size).toBe(50_002);
  });
});

describe('parts for a writer that streams bodies (HTTP)', () => {
  const within = () => ({ root, visibility: { hidden: false, ignore: new Set<string>() } });
  const bytes = randomBytes(MiB + 5);
  const take = async (name: string, offset: number, length: number, streams: boolean) => {
    const outcome = await readFilePart(nodeFs, within(), name, { offset, length }, () => 64 * MiB, {
      streams,
    });
    if (outcome.kind !== 'ok') throw new Error(`not read: ${JSON.stringify(outcome)}`);
    return outcome.part;
  };

  beforeAll(async () => {
    await writeFile(join(root, 'streamed.bin'), bytes);
    await writeFile(join(root, 'streamed.txt'), 'line\n'.repeat(40_000));
    // Text by its name, not UTF-8 by its bytes: its parts are blobs.
    await writeFile(join(root, 'not-utf8.txt'), bytes);
  });

  it.each([
    ['the default 1 MiB', 0, MiB],
    ['one byte over a chunk', 3, STREAM_CHUNK_BYTES + 1],
    ['not a multiple of 3, to the end of the file', 100_001, MiB],
  ])('a blob part of %s is a streamed body of exactly its bytes', async (_, offset, length) => {
    const part = await take('streamed.bin', offset, length, true);
    const end = Math.min(offset + length, bytes.length);
    expect(part.length).toBe(end - offset);
    expect(isStreamedBody(part.blob)).toBe(true);
    const blob = await collectBlob(part.blob as never);
    expect(blob).toBe(bytes.subarray(offset, end).toString('base64'));
    // Each iteration gives the same bytes again (a writer may start over).
    expect(await collectBlob(part.blob as never)).toBe(blob);
  });

  it('a text file whose bytes are not UTF-8 gives streamed blob parts too, exact', async () => {
    const part = await take('not-utf8.txt', 10, MiB, true);
    expect(part.text).toBeUndefined();
    expect(isStreamedBody(part.blob)).toBe(true);
    const blob = await collectBlob(part.blob as never);
    // It starts at the character byte 10 falls in (random bytes: maybe a few bytes before).
    expect(part.offset).toBeGreaterThanOrEqual(7);
    expect(part.offset).toBeLessThanOrEqual(10);
    expect(blob).toBe(bytes.subarray(part.offset, part.offset + part.length).toString('base64'));
    const plain = await take('not-utf8.txt', 10, MiB, false);
    expect(plain.blob).toBe(blob);
  });

  it('resources/read of a part: streamed on a connection that streams bodies, a string on others', async () => {
    const server = createServer({ name: 's', version: '1' });
    createFilesystemProvider({ root }).register(server);
    const request = modern('resources/read', { uri: 'file:///streamed.bin?offset=0' });
    const blobOf = async (streamsBodies: boolean) => {
      const peer = server.connect({ transport: 'http', streamsBodies, send: () => undefined });
      const answer = (await peer.handle(request, {})) as Res;
      return answer.result?.contents[0]?.blob as unknown;
    };
    const streamed = await blobOf(true);
    expect(isStreamedBody(streamed)).toBe(true);
    const whole = bytes.subarray(0, MiB).toString('base64');
    expect(await collectBlob(streamed as never)).toBe(whole);
    expect(await blobOf(false)).toBe(whole);
    server.close();
  });

  it('a streamed part is cut to fit its limit, exactly', async () => {
    const outcome = await readFilePart(
      nodeFs,
      within(),
      'streamed.bin',
      { offset: 1, length: MiB },
      () => 100_000,
      {
        streams: true,
      },
    );
    if (outcome.kind !== 'ok') throw new Error(outcome.kind);
    const { blob, length } = outcome.part;
    expect(length).toBe(Math.floor((100_000 - 2) / 4) * 3);
    expect(isStreamedBody(blob)).toBe(true);
    expect((blob as unknown as { wireBytes: number }).wireBytes).toBeLessThanOrEqual(100_000);
    expect(await collectBlob(blob as never)).toBe(bytes.subarray(1, 1 + length).toString('base64'));
  });

  it('a file that shrinks under a streamed part read is answered "changed", never its bytes', async () => {
    const path = join(root, 'shrinking.bin');
    await writeFile(path, bytes);
    const first = await take('shrinking.bin', 0, MiB, true);
    let cut = false;
    // Truncated after the open and its fstat, just before the range is read: a short read.
    const shrinking: ProviderFs = {
      ...nodeFs,
      open: async (p, flags) => {
        const handle = await nodeFs.open(p, flags);
        const read = handle.read.bind(handle);
        handle.read = async (...args: Parameters<ProviderFileHandle['read']>) => {
          if (!cut) {
            cut = true;
            await truncate(path, 1000);
          }
          return read(...args);
        };
        return handle;
      },
    };
    const request = { offset: 0, length: MiB, version: first.version };
    const outcome = await readFilePart(
      shrinking,
      within(),
      'shrinking.bin',
      request,
      () => 64 * MiB,
      {
        streams: true,
      },
    );
    expect(cut).toBe(true);
    expect(outcome.kind).toBe('changed');
  });

  it('a streamed text part that starts at a U+FEFF inside the file keeps it', async () => {
    const body = 'line\n'.repeat(20_000);
    await writeFile(join(root, 'streamed-boms.txt'), `\ufeff${body}\ufeff${body}`);
    const offset = 3 + body.length;
    const part = await take('streamed-boms.txt', offset, MiB, true);
    expect(isStreamedBody(part.text)).toBe(true);
    const sent = `"${await collectBlob(part.text as never)}"`;
    expect(Buffer.byteLength(sent)).toBe((part.text as unknown as { wireBytes: number }).wireBytes);
    expect(JSON.parse(sent)).toBe(`\ufeff${body}`);
    expect(part.length).toBe(3 + body.length);
  });

  it('a part of at most a chunk, and any part for other writers, stay strings', async () => {
    const small = await take('streamed.bin', 7, STREAM_CHUNK_BYTES, true);
    expect(small.blob).toBe(bytes.subarray(7, 7 + STREAM_CHUNK_BYTES).toString('base64'));
    const smallText = await take('streamed.txt', 0, STREAM_CHUNK_BYTES, true);
    expect(typeof smallText.text).toBe('string');
    const text = await take('streamed.txt', 0, MiB, false);
    expect(typeof text.text).toBe('string');
    const plain = await take('streamed.bin', 0, MiB, false);
    expect(plain.blob).toBe(bytes.subarray(0, MiB).toString('base64'));
  });
});
