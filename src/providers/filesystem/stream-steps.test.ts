import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectBlob, isStreamedBody } from '../../content/streamed-body.js';
import { isMcpKitError } from '../../errors/mcpkit-error.js';
import { createServer } from '../../server/server.js';
import type { McpServer } from '../../server/index.js';
import { modern } from '../../testing/messages.js';
import { createFilesystemProvider } from './filesystem-provider.js';
import { nodeFs, type ProviderFileHandle, type ProviderFs } from './fs-types.js';
import { STREAM_CHUNK_BYTES } from './streamed-file.js';

type Res = {
  result?: { contents: Array<{ blob?: unknown }> };
  error?: { code: number; message: string; data?: Record<string, unknown> };
};

const BYTES = randomBytes(STREAM_CHUNK_BYTES * 4 + 5);
const BASE64 = BYTES.toString('base64');
/** The read time limit of the tests that hang: what waits on a healthy file stays well under it. */
const LIMIT_MS = 1000;
let base: string;
let root: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'mcpkit-stream-steps-'));
  root = await nodeFs.realpath(base);
  for (const name of ['hung.bin', 'other.bin', 'ok.bin']) await writeFile(join(root, name), BYTES);
});

afterAll(async () => {
  await rm(base, { recursive: true, force: true });
});

/**
 * node's fs, except that once `state.hang` is set, the open of `hung.bin` (`'open'`) or a read
 * of it past its first chunk (`'read'`) waits until `release()`: a mount that stopped answering.
 * Handles of `hung.bin` opened and closed are counted.
 */
function hangingFs() {
  const hung: Array<() => void> = [];
  const state = { opened: 0, closed: 0, hang: undefined as 'open' | 'read' | undefined };
  const later = <T>(go: () => Promise<T>): Promise<T> =>
    new Promise<T>((resolve, reject) => hung.push(() => void go().then(resolve, reject)));
  const counted = (handle: ProviderFileHandle): ProviderFileHandle => {
    state.opened++;
    let closed = false;
    return {
      fd: handle.fd,
      stat: () => handle.stat(),
      read: (buffer, offset, length, position) =>
        state.hang === 'read' && position >= STREAM_CHUNK_BYTES
          ? later(() => handle.read(buffer, offset, length, position))
          : handle.read(buffer, offset, length, position),
      close: async () => {
        await handle.close();
        if (!closed) state.closed++;
        closed = true;
      },
    };
  };
  const fs: ProviderFs = {
    ...nodeFs,
    open: (p, flags) => {
      if (basename(p) !== 'hung.bin') return nodeFs.open(p, flags);
      const open = () => nodeFs.open(p, flags).then(counted);
      return state.hang === 'open' ? later(open) : open();
    },
  };
  const release = (): void => hung.splice(0).forEach((go) => go());
  return { fs, state, release, pending: () => hung.length };
}

function serve(fs: ProviderFs, readTimeoutMs: number, maxStalledReads = 4) {
  const server = createServer({ name: 'stream-steps', version: '1' });
  // No cache: every blob larger than a chunk is streamed.
  const provider = createFilesystemProvider({
    root,
    fs,
    settleMs: 0,
    cacheBytes: 0,
    watch: false,
    readTimeoutMs,
    maxStalledReads,
  });
  provider.register(server);
  return { server, provider };
}

/** `resources/read` on a connection that streams bodies (as HTTP does). */
async function read(server: McpServer, name: string): Promise<Res> {
  const peer = server.connect({ transport: 'http', streamsBodies: true, send: () => undefined });
  return (await peer.handle(modern('resources/read', { uri: `file:///${name}` }), {})) as Res;
}

async function streamed(
  server: McpServer,
  name: string,
): Promise<Parameters<typeof collectBlob>[0]> {
  const answer = await read(server, name);
  const blob = answer.result?.contents[0]?.blob;
  if (!isStreamedBody(blob)) throw new Error(`${name} was not streamed: ${JSON.stringify(answer)}`);
  return blob;
}

/** Turns of the event loop until `done()` (no timing: the hung calls are counted). */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise((r) => setImmediate(r));
  expect(done()).toBe(true);
}

describe('a streamed read waits at most readTimeoutMs per step', () => {
  it.each(['read', 'open'] as const)(
    'a hung %s fails the stream with STREAM_FAILED naming the file and the limit; the file is not read again until the call returns',
    async (hang) => {
      const { fs, state, release, pending } = hangingFs();
      const { server, provider } = serve(fs, LIMIT_MS, 2);
      const body = await streamed(server, 'hung.bin');
      const prepared = state.opened;
      state.hang = hang;
      const error = await collectBlob(body).catch((e: unknown) => e);
      expect(isMcpKitError(error, 'STREAM_FAILED')).toBe(true);
      expect((error as Error).message).toBe(
        `hung.bin: reading took longer than ${LIMIT_MS} ms (readTimeoutMs)`,
      );
      expect((error as Error).message).not.toContain(root);
      expect(pending()).toBe(1);
      expect(provider.stalls.refusal('hung.bin', 'hung.bin')).toBeDefined();
      // The hung file is refused unread; another one still streams.
      const again = await read(server, 'hung.bin');
      expect(again.error).toMatchObject({
        code: -32603,
        data: { uri: 'file:///hung.bin', reason: 'stalled', readTimeoutMs: LIMIT_MS },
      });
      expect(await collectBlob(await streamed(server, 'ok.bin'))).toBe(BASE64);
      // The handle the hung call holds is closed once it returns, not before.
      expect(state.opened - state.closed).toBe(hang === 'read' ? 1 : 0);
      expect(state.opened).toBe(hang === 'read' ? prepared + 1 : prepared);
      state.hang = undefined;
      release();
      await until(() => provider.stalls.refusal('hung.bin', 'hung.bin') === undefined);
      expect(state.opened).toBe(prepared + 1);
      expect(state.closed).toBe(state.opened);
      const after = await collectBlob(await streamed(server, 'hung.bin'));
      expect(after).toBe(BASE64);
      expect(state.closed).toBe(state.opened);
      server.close();
      provider.close();
    },
  );

  it('a body prepared before a stall is not opened while the folder is at maxStalledReads', async () => {
    const { fs, state, release } = hangingFs();
    const { server, provider } = serve(fs, LIMIT_MS, 1);
    const waiting = await streamed(server, 'other.bin');
    const body = await streamed(server, 'hung.bin');
    state.hang = 'read';
    expect(isMcpKitError(await collectBlob(body).catch((e: unknown) => e), 'STREAM_FAILED')).toBe(
      true,
    );
    const refused = await collectBlob(waiting).catch((e: unknown) => e);
    expect(isMcpKitError(refused, 'STREAM_FAILED')).toBe(true);
    expect((refused as Error).message).toContain('other.bin: not read:');
    expect((refused as Error).message).toContain('(maxStalledReads)');
    state.hang = undefined;
    release();
    await until(() => provider.stalls.refusal('hung.bin', 'hung.bin') === undefined);
    expect(await collectBlob(waiting)).toBe(BASE64);
    server.close();
    provider.close();
  });

  it('a stream the consumer stops still closes its handle', async () => {
    const { fs, state } = hangingFs();
    const { server, provider } = serve(fs, 60_000);
    const body = await streamed(server, 'hung.bin');
    const prepared = state.opened;
    for await (const chunk of body.chunks()) {
      expect(chunk.length).toBeGreaterThan(0);
      break;
    }
    expect(state.opened).toBe(prepared + 1);
    expect(state.closed).toBe(state.opened);
    expect(provider.stalls.refusal('hung.bin', 'hung.bin')).toBeUndefined();
    server.close();
    provider.close();
  });
});
