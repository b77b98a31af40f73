import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRange } from './read-range.js';
import { QUICK_READ_BYTES, quickFs } from './quick-fs.js';
import { OPEN_FLAGS } from './resolve.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-quick-fs-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('quickFs', () => {
  it('reads small and large files byte for byte (large ones through the thread pool)', async () => {
    for (const size of [0, 10, QUICK_READ_BYTES, QUICK_READ_BYTES + 1, 3 * QUICK_READ_BYTES + 7]) {
      const bytes = randomBytes(size);
      const file = join(dir, `f-${size}`);
      await writeFile(file, bytes);
      const handle = await quickFs.open(file, OPEN_FLAGS);
      expect((await handle.stat()).size).toBe(size);
      const { bytesRead } = await handle.read(Buffer.alloc(size + 1), 0, size + 1, 0);
      expect(bytesRead).toBe(size);
      expect((await readRange(handle, 0, size)).equals(bytes)).toBe(true);
      await handle.close();
      await handle.close(); // twice is a no-op, as for a FileHandle
      await expect(handle.read(Buffer.alloc(1), 0, 1, 0)).rejects.toMatchObject({ code: 'EBADF' });
      await expect(handle.stat()).rejects.toMatchObject({ code: 'EBADF' });
    }
  });

  it('fails as node:fs/promises does, with a rejection and the same codes', async () => {
    await expect(quickFs.stat(join(dir, 'missing'))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(quickFs.realpath(join(dir, 'missing'))).rejects.toMatchObject({
      code: 'ENOENT',
    });
    await writeFile(join(dir, 'target'), 'x');
    await symlink(join(dir, 'target'), join(dir, 'link'));
    // The last component a symlink: O_NOFOLLOW refuses it.
    await expect(quickFs.open(join(dir, 'link'), OPEN_FLAGS)).rejects.toMatchObject({
      code: 'ELOOP',
    });
    expect(await quickFs.realpath(join(dir, 'link'))).toBe(join(dir, 'target'));
  });

  it.runIf(process.platform === 'linux')(
    'never waits on a FIFO (O_NONBLOCK), and names a descriptor as the kernel does',
    async () => {
      const fifo = join(dir, 'fifo');
      execFileSync('mkfifo', [fifo]);
      const handle = await quickFs.open(fifo, OPEN_FLAGS); // would block the process without O_NONBLOCK
      expect((await handle.stat()).isFIFO()).toBe(true);
      expect(await quickFs.fdPath?.(handle.fd)).toBe(fifo);
      await handle.close();
    },
  );
});
