import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeFs, type SyncFs } from './fs-types.js';
import { quickFs } from './quick-fs.js';
import { readRangeSteps } from './read-range.js';
import { OPEN_FLAGS } from './resolve.js';
import {
  closeStep,
  fstatStep,
  openStep,
  readStep,
  runAsync,
  runSync,
  sleepStep,
  statStep,
  WOULD_WAIT,
  type OpenFile,
  type Steps,
} from './steps.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mcpkit-steps-'));
  await writeFile(join(dir, 'a.txt'), 'hello steps');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const sync = quickFs.sync as SyncFs;

/** A sync file system that records the descriptors it opened and closed. */
function countingSync(): SyncFs & { opened: number[]; closed: number[] } {
  const opened: number[] = [];
  const closed: number[] = [];
  return {
    ...sync,
    opened,
    closed,
    open: (p, flags) => {
      const fd = sync.open(p, flags);
      opened.push(fd);
      return fd;
    },
    close: (fd) => {
      closed.push(fd);
      sync.close(fd);
    },
  };
}

/** Opens the file, reads it whole, then `between` runs (it may sleep), and it is closed. */
function* readWhole(path: string, between: () => Steps<void> = function* () {}): Steps<string> {
  const file = yield* openStep(path, OPEN_FLAGS);
  try {
    const stats = yield* fstatStep(file);
    const bytes = yield* readRangeSteps(file, 0, stats.size);
    yield* between();
    return bytes.toString('utf8');
  } finally {
    yield* closeStep(file);
  }
}

describe('steps run synchronously and asynchronously', () => {
  it('give the same answer either way', async () => {
    const path = join(dir, 'a.txt');
    expect(runSync(sync, readWhole(path))).toBe('hello steps');
    expect(await runAsync(nodeFs, readWhole(path))).toBe('hello steps');
  });

  it('a step that waits ends a synchronous run: WOULD_WAIT, and what was opened is closed', () => {
    const fs = countingSync();
    const done = runSync(
      fs,
      readWhole(join(dir, 'a.txt'), () => sleepStep(5)),
    );
    expect(done).toBe(WOULD_WAIT);
    expect(fs.opened).toHaveLength(1);
    expect(fs.closed).toEqual(fs.opened);
  });

  it('a read longer than maxReadBytes waits too', () => {
    const fs = { ...countingSync(), maxReadBytes: 4 };
    expect(runSync(fs, readWhole(join(dir, 'a.txt')))).toBe(WOULD_WAIT);
    expect(fs.closed).toEqual(fs.opened);
  });

  it('a failing call is thrown into the steps, where they catch it, as an await would', async () => {
    function* codeOf(path: string): Steps<unknown> {
      try {
        yield* statStep(path);
        return 'found';
      } catch (error) {
        return (error as { code?: unknown }).code;
      }
    }
    const missing = join(dir, 'missing');
    expect(runSync(sync, codeOf(missing))).toBe('ENOENT');
    expect(await runAsync(nodeFs, codeOf(missing))).toBe('ENOENT');
    // Uncaught, it reaches the caller.
    expect(() => runSync(sync, statStep(missing))).toThrow(/ENOENT/);
    await expect(runAsync(nodeFs, statStep(missing))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a descriptor closed once is not closed again, nor read (EBADF): its number may be reused', () => {
    const fs = countingSync();
    function* twice(): Steps<unknown> {
      const file: OpenFile = yield* openStep(join(dir, 'a.txt'), OPEN_FLAGS);
      yield* closeStep(file);
      yield* closeStep(file);
      try {
        yield* readStep(file, Buffer.alloc(4), 0, 4, 0);
        return 'read';
      } catch (error) {
        return (error as { code?: unknown }).code;
      }
    }
    expect(runSync(fs, twice())).toBe('EBADF');
    expect(fs.closed).toEqual(fs.opened);
  });

  it('a step other than a close while unwinding is a bug, and says so', () => {
    function* stubborn(): Steps<void> {
      try {
        yield* sleepStep(1);
      } finally {
        yield* sleepStep(1);
      }
    }
    expect(() => runSync(sync, stubborn())).toThrow(/while unwinding/);
  });

  it('steps on a handle alone run without a file system; a path step says it needs one', async () => {
    const handle = await nodeFs.open(join(dir, 'a.txt'), OPEN_FLAGS);
    try {
      const bytes = await runAsync(undefined, readRangeSteps(handle, 0, 5));
      expect(bytes.toString()).toBe('hello');
    } finally {
      await handle.close();
    }
    await expect(runAsync(undefined, statStep(dir))).rejects.toThrow(/needs a file system/);
  });
});
