/**
 * Harness of the `mcpkit serve --redis` e2e suites: one redis-server per suite, and
 * `instance(dir, extra)` starting `mcpkit serve DIR --http 127.0.0.1:0 --redis URL --quiet` with
 * a client of it, both stopped after each test (with whatever else was pushed on `cleanups`).
 */
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { McpClient } from '../../src/client/index.js';
import { connect } from '../../src/transports/connect.js';
import { RedisProcess } from './redis-harness.js';
import { HttpServe } from './serve-harness.js';

export interface Instance {
  http: HttpServe;
  client: McpClient;
}

export interface RedisServes {
  redis(): RedisProcess;
  /** Undone in reverse order after each test; a failing one does not stop the others. */
  readonly cleanups: Array<() => Promise<unknown>>;
  /** `shared: false` leaves `--redis` out (an instance on its own). */
  instance(dir: string, extra?: string[], shared?: boolean): Promise<Instance>;
}

/** Call inside a describe block: registers the hooks, returns what the tests use. */
export function useRedisServes(): RedisServes {
  let redis: RedisProcess | undefined;
  const cleanups: Array<() => Promise<unknown>> = [];
  beforeAll(async () => {
    redis = await RedisProcess.start();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  });
  afterAll(async () => {
    await redis?.close();
  });
  const current = (): RedisProcess => {
    if (!redis) throw new Error('redis-server is not started (use inside a describe block)');
    return redis;
  };
  return {
    redis: current,
    cleanups,
    async instance(dir, extra = [], shared = true) {
      const args = [dir, ...(shared ? ['--redis', current().url] : []), '--quiet', ...extra];
      const http = await HttpServe.start(args);
      cleanups.push(() => http.stop());
      const client = await connect({ url: http.url, client: { requestTimeoutMs: 20_000 } });
      cleanups.push(() => client.close());
      return { http, client };
    },
  };
}
