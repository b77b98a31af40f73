/**
 * Outbound caps model the receiver: `mcpkit serve` and `serveStdio` against the official SDK v2
 * client, whose stdio read buffer (10 MiB) drops the whole connection when a line passes it.
 * Over stdio the default outbound cap is that buffer, newline included; over HTTP it is 32 MiB,
 * apart from the 4 MiB cap on request bodies.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import {
  HttpServe,
  MiB,
  MODERN,
  ROOT,
  connectHttp,
  connectStdio,
  protocolError,
  type Session,
} from './serve-harness.js';

const INTERNAL_ERROR = -32603;
const SDK_BUFFER = 10 * 1024 * 1024;
const PARTS_TEMPLATE = 'file:///{+path}{?offset,length,version}';

const test = it;

interface Contents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}
interface TooLargeData {
  uri: string;
  size: number;
  wireBytes: number;
  capBytes: number;
  partsTemplate: string;
  firstPart: string;
  reason: string;
}

async function readOne(s: Session | Client, uri: string): Promise<Contents> {
  const client = s instanceof Client ? s : s.client;
  const result = await client.readResource({ uri });
  expect(result.contents).toHaveLength(1);
  return result.contents[0] as Contents;
}

function expectPartsHint(error: { code: number; data?: unknown; message: string }, uri: string) {
  expect(error.code, error.message).toBe(INTERNAL_ERROR);
  const data = error.data as TooLargeData;
  expect(data).toMatchObject({ uri, reason: 'too-large', partsTemplate: PARTS_TEMPLATE });
  expect(data.wireBytes).toBeGreaterThan(data.capBytes);
  expect(data.firstPart).toMatch(
    new RegExp(`^${uri.replace(/[.?]/g, '\\$&')}\\?offset=0&length=\\d+$`),
  );
  expect(error.message).toContain(PARTS_TEMPLATE);
  expect(error.message).toContain('--max-response-bytes');
  return data;
}

let dir: string;
const files: Record<string, Buffer> = {};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-caps-'));
  for (const [name, size] of [
    ['seven.bin', 7 * MiB],
    ['nine.bin', 9 * MiB],
    ['twelve.bin', 12 * MiB],
    ['four.bin', 4 * MiB],
  ] as const) {
    files[name] = randomBytes(size);
    await writeFile(join(dir, name), files[name]);
  }
  await writeFile(join(dir, 'small.txt'), 'small\n');
  await writeFile(join(dir, 'edge.txt'), 'a'.repeat(11 * MiB));
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('mcpkit serve --stdio and the official SDK v2 client: the default outbound cap', () => {
  let s: Session | undefined;
  afterAll(async () => s?.close());

  test('a 7 MiB file (9.3 MB of base64) reads with exact bytes', async () => {
    s = await connectStdio('stdio default', 'modern', [dir, '--quiet', '--no-watch']);
    const contents = await readOne(s, 'file:///seven.bin');
    expect(contents.blob?.length).toBe(Math.ceil((7 * MiB) / 3) * 4);
    expect(Buffer.from(contents.blob ?? '', 'base64').equals(files['seven.bin']!)).toBe(true);
  }, 60_000);

  test('9 and 12 MiB files get -32603 with size, wire size, cap and the parts template; the connection lives', async () => {
    const session = s as Session;
    for (const name of ['nine.bin', 'twelve.bin']) {
      const uri = `file:///${name}`;
      const error = await protocolError(() => readOne(session, uri));
      const data = expectPartsHint(error, uri);
      expect(data.size).toBe(files[name]!.length);
      expect(data.wireBytes).toBe(Math.ceil(data.size / 3) * 4 + 2);
      // The cap for one result keeps one pipe read (64 KiB) and the envelope under the buffer.
      expect(data.capBytes).toBeLessThanOrEqual(SDK_BUFFER - 1 - 64 * 1024 - 1024);
      expect(data.capBytes).toBeGreaterThan(SDK_BUFFER - 1 - 64 * 1024 - 2048);
      expect((await readOne(session, 'file:///small.txt')).text).toBe('small\n');
    }
    expect(session.errors).toEqual([]);
  }, 60_000);

  test('one byte either side of the computed cap', async () => {
    const session = s as Session;
    const uri = 'file:///edge.txt';
    const cap = expectPartsHint(await protocolError(() => readOne(session, uri)), uri).capBytes;
    // ASCII text: its wire size is its length plus the two quotes.
    await writeFile(join(dir, 'edge.txt'), 'a'.repeat(cap - 2));
    const fits = await readOne(session, uri);
    expect(fits.text?.length).toBe(cap - 2);
    // Back to back with other answers: the client's buffer also holds the start of the next
    // line, so a result at the cap must leave room for one pipe read.
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all([
        readOne(session, uri),
        ...Array.from({ length: 4 }, () => readOne(session, 'file:///small.txt')),
        readOne(session, uri),
      ]);
      expect(answers.map((a) => a.text?.length)).toEqual([cap - 2, 6, 6, 6, 6, cap - 2]);
    }
    await writeFile(join(dir, 'edge.txt'), 'a'.repeat(cap - 1));
    const over = expectPartsHint(await protocolError(() => readOne(session, uri)), uri);
    expect(over).toMatchObject({ size: cap - 1, wireBytes: cap + 1, capBytes: cap });
    expect((await readOne(session, 'file:///small.txt')).text).toBe('small\n');
    expect(session.errors).toEqual([]);
  }, 60_000);
});

describe('serveStdio: a line of exactly maxResponseBytes, newline included, reaches the SDK client', () => {
  test('10,485,760 bytes pass the SDK read buffer; one more is a clear -32603 and the next request works', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', 'tsx', 'test/e2e/line-report-server.ts'],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), NODE_OPTIONS: '' },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += String(chunk)));
    const client = new Client(
      { name: 'mcpkit-caps-e2e', version: '0.0.1' },
      { versionNegotiation: { mode: { pin: MODERN } } },
    );
    const errors: unknown[] = [];
    client.onerror = (e) => errors.push(e);
    await client.connect(transport, { timeout: 20_000 });
    const fill = (n: number) => `fill://${String(n).padStart(9, '0')}`;
    const lastLine = async () => {
      // stderr is read asynchronously: wait for the report of the answer just received.
      for (let i = 0; i < 100 && !/\n$/.test(stderr); i++)
        await new Promise((r) => setTimeout(r, 10));
      const reports = [...stderr.matchAll(/^line id=(\d+) bytes=(\d+)$/gm)];
      const last = reports[reports.length - 1];
      return { id: Number(last?.[1]), bytes: Number(last?.[2]) };
    };
    try {
      expect((await readOne(client, fill(1000))).text).toHaveLength(1000);
      const probe = await lastLine();
      // The line is the envelope (with the id's digits) plus the 1000 bytes of text.
      const envelope = probe.bytes - 1000 - String(probe.id).length;
      const exact = SDK_BUFFER - envelope - String(probe.id + 1).length;
      expect((await readOne(client, fill(exact))).text).toHaveLength(exact);
      expect(await lastLine()).toEqual({ id: probe.id + 1, bytes: SDK_BUFFER });

      const error = await protocolError(() => readOne(client, fill(exact + 1)));
      expect(error.code).toBe(INTERNAL_ERROR);
      expect(error.message).toContain('maxResponseBytes');
      expect(error.data).toMatchObject({ limit: SDK_BUFFER - 1, bytes: SDK_BUFFER });
      expect((await readOne(client, fill(10))).text).toBe('a'.repeat(10));
      expect(errors).toEqual([]);
    } finally {
      await client.close();
    }
  }, 60_000);
});

describe('mcpkit serve --http: the outbound cap is apart from the 4 MiB body cap', () => {
  let served: HttpServe | undefined;
  let s: Session | undefined;
  afterAll(async () => {
    await s?.close();
    await served?.stop();
  });

  test('a 4 MiB file reads whole by default', async () => {
    served = await HttpServe.start([dir, '--quiet', '--no-watch']);
    s = await connectHttp('http default', 'modern', served.url);
    const contents = await readOne(s, 'file:///four.bin');
    expect(Buffer.from(contents.blob ?? '', 'base64').equals(files['four.bin']!)).toBe(true);
    const twelve = await readOne(s, 'file:///twelve.bin');
    expect(Buffer.from(twelve.blob ?? '', 'base64').equals(files['twelve.bin']!)).toBe(true);
  }, 60_000);

  test('--max-response-bytes lowers it: the same file then fails clearly, and small ones still read', async () => {
    const small = await HttpServe.start([
      dir,
      '--quiet',
      '--no-watch',
      '--max-response-bytes',
      '2m',
    ]);
    const session = await connectHttp('http 2m', 'modern', small.url);
    try {
      const data = expectPartsHint(
        await protocolError(() => readOne(session, 'file:///four.bin')),
        'file:///four.bin',
      );
      expect(data.capBytes).toBeLessThan(2 * MiB);
      expect((await readOne(session, 'file:///small.txt')).text).toBe('small\n');
    } finally {
      await session.close();
      await small.stop();
    }
  }, 60_000);
});
