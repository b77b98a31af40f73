import { describe, expect, it } from 'vitest';
import { isMcpKitError } from '../errors/index.js';
import { loadIoredis, type RedisConstructor } from './load-ioredis.js';

function notFound(code: string): Error {
  return Object.assign(new Error(`Cannot find package 'ioredis'`), { code });
}

describe('loadIoredis', () => {
  it('gives the installed Redis constructor', async () => {
    const Redis = await loadIoredis();
    expect(typeof Redis).toBe('function');
    expect(Redis.name).toBe('Redis');
  });

  it.each(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND'])(
    'missing (%s): MISSING_DEPENDENCY naming the package and how to install it',
    async (code) => {
      const cause = notFound(code);
      const error: unknown = await loadIoredis(() => Promise.reject(cause)).catch((e) => e);
      expect(isMcpKitError(error) && error.code).toBe('MISSING_DEPENDENCY');
      expect((error as Error).message).toContain('ioredis');
      expect((error as Error).message).toContain('npm install ioredis@6');
      expect((error as Error).cause).toBe(cause);
    },
  );

  it('passes on any other failure as it is', async () => {
    const other = new SyntaxError('broken install');
    await expect(loadIoredis(() => Promise.reject(other))).rejects.toBe(other);
  });

  it('uses what the loader gives', async () => {
    const Fake = function Redis() {} as unknown as RedisConstructor;
    await expect(loadIoredis(() => Promise.resolve({ Redis: Fake }))).resolves.toBe(Fake);
  });
});
