/**
 * Over stdio, a real `mcpkit serve DIR --quiet --stdio` process and the mcpkit client: listen,
 * cancel (the client sends `notifications/cancelled`), listen again. After the cancel the server
 * still answers and sends nothing more under the cancelled subscription id, which the client
 * would see: every notification is recorded before it is routed. Every wait has a deadline.
 */
import { writeFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { McpClient } from '../../src/client/index.js';
import { META } from '../../src/protocol/index.js';
import { connect } from '../../src/transports/connect.js';
import { CLI, ROOT } from './serve-harness.js';
import { folder, Recorded, until } from './watch-harness.js';

/** A notification as the client received it, with the subscription id it carried. */
interface Seen {
  method: string;
  id: unknown;
  uri: unknown;
}

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

async function text(client: McpClient, name: string): Promise<string | undefined> {
  const { contents } = await client.readResource(`file:///${name}`);
  return (contents[0] as { text?: string } | undefined)?.text;
}

describe('mcpkit serve --stdio: listen, cancel, listen again', () => {
  it('the cancelled stream gets nothing more; the server answers and a new listen hears the next change', async () => {
    const f = await folder({ 'a.md': 'one', 'b.md': 'b' });
    cleanups.push(() => f.remove());
    const client = await connect({
      command: process.execPath,
      args: [CLI, 'serve', f.dir, '--quiet', '--stdio'],
      cwd: ROOT,
      env: { ...(process.env as Record<string, string>), NODE_OPTIONS: '' },
      client: { requestTimeoutMs: 20_000 },
    });
    cleanups.push(() => client.close());
    expect(client.era).toBe('modern');
    const seen: Seen[] = [];
    client.addNotificationListener(({ method, params }) => {
      const meta = (params?.['_meta'] ?? {}) as Record<string, unknown>;
      seen.push({ method, id: meta[META.subscriptionId], uri: params?.['uri'] });
    });
    const acks = () => seen.filter((s) => s.method === 'notifications/subscriptions/acknowledged');

    const first = new Recorded(await client.listen({ resourceSubscriptions: ['file:///a.md'] }));
    cleanups.push(() => first.close());
    const firstId = acks()[0]?.id;
    expect(firstId).toBeDefined();
    await writeFile(f.path('a.md'), 'two');
    await until('an update on the first listen', () => first.updates('file:///a.md').length > 0);
    expect(await text(client, 'a.md')).toBe('two');

    // The cancel: the iterator is closed, and the server is told with notifications/cancelled.
    await first.close();
    const atCancel = seen.length;
    const framesAtCancel = first.frames.length;
    expect(await text(client, 'b.md')).toBe('b');

    const second = new Recorded(await client.listen({ resourceSubscriptions: ['file:///a.md'] }));
    cleanups.push(() => second.close());
    const secondId = acks()[1]?.id;
    expect(secondId).toBeDefined();
    expect(secondId).not.toEqual(firstId);
    await writeFile(f.path('a.md'), 'three');
    await until('an update on the second listen', () => second.updates('file:///a.md').length > 0);
    // stdio is ordered: whatever the server sent before this answer has arrived by now.
    expect(await text(client, 'a.md')).toBe('three');

    const afterCancel = seen.slice(atCancel);
    expect(afterCancel.filter((s) => s.id === firstId)).toEqual([]);
    expect(afterCancel).toContainEqual({
      method: 'notifications/resources/updated',
      id: secondId,
      uri: 'file:///a.md',
    });
    expect(first.frames).toHaveLength(framesAtCancel);
    expect(first.ended).toBeUndefined();
    expect(second.ended).toBeUndefined();
  });
});
