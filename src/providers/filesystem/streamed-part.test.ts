import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectBlob, isStreamedBody } from '../../content/streamed-body.js';
import { nodeFs } from './fs-types.js';
import { readFilePart, type FilePart } from './read-part.js';
import { STREAM_CHUNK_BYTES } from './streamed-file.js';

const KiB = 1024;
const MiB = 1024 * KiB;
let root: string;

/** Lines of every length, multi-byte characters, JSON escapes and a few controls. */
function mixed(bytes: number, seed: number): string {
  const alphabet = ['a', 'é', '€', '😀', ' ', '\t', '"', '\\', '\u0001', 'z', 'q', 'w'];
  const out: string[] = [];
  let size = 0;
  while (size < bytes) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const n = seed % 9 === 0 ? 40_000 + (seed % 150_000) : seed % 200;
    let line = '';
    for (let j = 0; j < n; j++) line += alphabet[(seed >> (j % 16)) % alphabet.length];
    out.push(line);
    size += Buffer.byteLength(line) + 1;
  }
  return out.join('\n');
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'mcpkit-streamed-part-'));
  await writeFile(join(root, 'mixed.txt'), mixed(3 * MiB, 11));
  await writeFile(join(root, 'one-line.txt'), 'x'.repeat(2 * MiB));
  await writeFile(join(root, 'bom.txt'), `\ufeff${mixed(MiB, 5)}`);
  await writeFile(
    join(root, 'nul.txt'),
    Buffer.concat([Buffer.alloc(400 * KiB), Buffer.from('end\n')]),
  );
  // UTF-8 for its first 600 KiB, then bytes that are not: parts past it are blobs.
  await writeFile(
    join(root, 'late-binary.txt'),
    Buffer.concat([Buffer.from('é\n'.repeat(200 * KiB)), randomBytes(MiB)]),
  );
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const within = () => ({ root, visibility: { hidden: false, ignore: new Set<string>() } });

async function part(name: string, offset: number, length: number, limit: number, streams: boolean) {
  const outcome = await readFilePart(nodeFs, within(), name, { offset, length }, () => limit, {
    streams,
  });
  return outcome;
}

/** A part's body as the JSON string a writer sends, and whether it was streamed. */
async function wire(p: FilePart): Promise<{ json: string; streamed: boolean }> {
  const body = (p.text ?? p.blob) as unknown;
  if (!isStreamedBody(body)) return { json: JSON.stringify(body), streamed: false };
  const json = `"${await collectBlob(body)}"`;
  expect(Buffer.byteLength(json)).toBe(body.wireBytes);
  return { json, streamed: true };
}

describe('a streamed part is the part an in-memory read cuts', () => {
  const cases: Array<[string, number, number, number]> = [
    ['mixed.txt', 0, MiB, 32 * MiB],
    ['mixed.txt', 12_345, 2 * MiB, 32 * MiB],
    ['mixed.txt', 1, 3 * MiB, 32 * MiB],
    ['mixed.txt', 777_777, MiB, 300 * KiB],
    ['mixed.txt', 2 * MiB + 3, 9_007_199_254_740_991, 32 * MiB],
    ['one-line.txt', 5, MiB, 32 * MiB],
    ['one-line.txt', 0, 9_007_199_254_740_991, 1 * MiB],
    ['bom.txt', 0, 500 * KiB, 32 * MiB],
    ['bom.txt', 1, 500 * KiB, 32 * MiB],
    ['nul.txt', 0, MiB, 32 * MiB],
    ['nul.txt', 0, MiB, 600 * KiB],
    ['late-binary.txt', 0, MiB, 32 * MiB],
    ['late-binary.txt', 500 * KiB, MiB, 32 * MiB],
    ['late-binary.txt', 700 * KiB, MiB, 200 * KiB],
  ];
  it.each(cases)('%s at %i, length %i, limit %i', async (name, offset, length, limit) => {
    const streamed = await part(name, offset, length, limit, true);
    const plain = await part(name, offset, length, limit, false);
    expect(streamed.kind).toBe(plain.kind);
    if (streamed.kind !== 'ok' || plain.kind !== 'ok') {
      expect(streamed).toEqual(plain);
      return;
    }
    const { text: _t, blob: _b, ...place } = streamed.part;
    const { text: _pt, blob: _pb, ...plainPlace } = plain.part;
    expect(place).toEqual(plainPlace);
    expect(streamed.part.text === undefined).toBe(plain.part.text === undefined);
    const sent = await wire(streamed.part);
    expect(sent.streamed).toBe(streamed.part.length > STREAM_CHUNK_BYTES);
    expect(sent.json).toBe((await wire(plain.part)).json);
    expect(Buffer.byteLength(sent.json)).toBeLessThanOrEqual(limit);
  });
});
