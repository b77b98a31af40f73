/** What both hostile-server suites (stdio and HTTP) assert with. */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect } from 'vitest';
import { until } from '../../../src/testing/sse.js';
import type { McpClient } from '../../../src/client/index.js';
import { McpKitError } from '../../../src/errors/index.js';

/** The error `promise` rejects with (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<McpKitError> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  if (!('error' in outcome))
    throw new Error(`expected a rejection, got ${JSON.stringify(outcome)}`);
  expect(outcome.error).toBeInstanceOf(McpKitError);
  return outcome.error as McpKitError;
}

let keys = 0;

/** A fresh key for a call the hostile server holds until released. */
export function nextKey(prefix: string): string {
  return `${prefix}${++keys}`;
}

/**
 * Starts a healthy call the server holds until released. `settled` proves it was still in flight
 * when the misbehaviour hit; `finish()` releases it and checks its answer.
 */
export function healthy(
  client: McpClient,
  prefix = 'k',
): { settled: () => boolean; finish: () => Promise<void> } {
  const key = nextKey(prefix);
  let settled = false;
  const call = client.callTool('healthy', { key }, { timeoutMs: 20_000 });
  call.then(
    () => (settled = true),
    () => (settled = true),
  );
  return {
    settled: () => settled,
    finish: async () => {
      await client.callTool('release', { key });
      expect(await call).toMatchObject({ content: [{ type: 'text', text: `healthy ${key}` }] });
    },
  };
}

/**
 * The hostile server floods a listen stream with 200k `resources/updated` frames while nothing
 * reads: the queue stays bounded (oldest dropped and counted), so does the heap, the last frame
 * is kept, and a healthy call in flight is unaffected.
 */
export async function expectBoundedFlood(
  client: McpClient,
  prefix: string,
  endWithinMs: number,
): Promise<void> {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const heap = (): number => {
    gc();
    return process.memoryUsage().heapUsed;
  };
  const before = heap();
  const ok = healthy(client, prefix);
  const flood = 200_000;
  const stream = await client.listen(
    { resourceSubscriptions: ['file:///flood/'] },
    { meta: { 'test/flood': flood } },
  );
  await until(() => stream.closed, 'the flood ended', endWithinMs);
  expect(heap() - before).toBeLessThan(100 * 1024 * 1024);
  expect(stream.dropped).toBeGreaterThan(0);
  const kept: string[] = [];
  for await (const note of stream) kept.push(String(note.params['uri']));
  expect(kept.length + stream.dropped).toBe(flood);
  expect(kept.length).toBeLessThanOrEqual(1000);
  expect(kept.at(-1)).toBe(`file:///flood/${flood - 1}`);
  expect(ok.settled()).toBe(false);
  await ok.finish();
}
