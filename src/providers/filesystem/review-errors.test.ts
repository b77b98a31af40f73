import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectInMemory } from '../../transports/memory.js';
import { modern } from '../../testing/messages.js';
import { createServer } from '../../server/server.js';
import { serveFolder } from './folder-server.js';
import { nodeFs, type ProviderFileHandle, type ProviderFs } from './fs-types.js';

type Res = { error?: { code: number; message: string; data?: Record<string, unknown> } };

let root: string;

beforeAll(async () => {
  root = await nodeFs.realpath(await mkdtemp(join(tmpdir(), 'mcpkit-review-errors-')));
  await writeFile(join(root, 'slow.md'), '# A small note\n');
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('review-file of a file whose read fails for another reason than its size', () => {
  it('says why (a read past its time limit), not that the file is too large', async () => {
    const hung: Array<() => void> = [];
    // An open of slow.md hangs (a hung mount) until released at the end.
    const fs: ProviderFs = {
      ...nodeFs,
      open: (p, flags) =>
        basename(p) !== 'slow.md'
          ? nodeFs.open(p, flags)
          : new Promise<ProviderFileHandle>((resolve, reject) => {
              hung.push(() => void nodeFs.open(p, flags).then(resolve, reject));
            }),
    };
    const server = createServer({ name: 'review-errors', version: '1' });
    const provider = serveFolder(server, { root, fs, settleMs: 0, readTimeoutMs: 50 });
    await provider.ready();
    const conn = connectInMemory(server);
    try {
      const res = (await conn.send(
        modern('prompts/get', { name: 'review-file', arguments: { path: 'slow.md' } }),
      )) as Res;
      expect(res.error).toMatchObject({ code: -32603, data: { reason: 'timeout' } });
      expect(res.error?.message).toMatch(/slow\.md/);
      expect(res.error?.message).toMatch(/50 ms/);
      expect(res.error?.message).not.toMatch(/too large/);
    } finally {
      for (const go of hung.splice(0)) go();
      await provider.close();
    }
  });
});
