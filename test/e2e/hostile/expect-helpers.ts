/** What both hostile-server suites (stdio and HTTP) assert with. */
import { expect } from 'vitest';
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
