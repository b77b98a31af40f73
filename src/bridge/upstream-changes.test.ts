import { describe, expect, it } from 'vitest';
import type { ListenStream, McpClient } from '../client/index.js';
import { UpstreamChanges } from './upstream-changes.js';

/** A client whose listens are answered when the test says, counting the streams still open. */
function slowClient() {
  const pending: Array<() => void> = [];
  const open = new Set<object>();
  const client = {
    era: 'modern',
    serverCapabilities: { resources: { subscribe: true } },
    listen: () =>
      new Promise<ListenStream>((resolve) => {
        pending.push(() => {
          const stream = {
            closed: false,
            close: async () => {
              stream.closed = true;
              open.delete(stream);
            },
            [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => undefined) }),
          };
          open.add(stream);
          resolve(stream as unknown as ListenStream);
        });
      }),
  } as unknown as McpClient;
  return { client, pending, open };
}

const sink = {
  listChanged: () => undefined,
  resourceUpdated: () => undefined,
  warn: () => undefined,
};

describe('UpstreamChanges', () => {
  it('a URI detached and attached again while its first listen opens keeps one stream, closed on detach', async () => {
    const { client, pending, open } = slowClient();
    const changes = new UpstreamChanges(() => client, sink);
    const first = changes.attach('m://x');
    changes.detach('m://x');
    const second = changes.attach('m://x');
    for (const answer of pending.splice(0)) answer();
    await Promise.all([first, second]);
    expect(open.size).toBe(1);
    changes.detach('m://x');
    await new Promise((resolve) => setImmediate(resolve));
    expect(open.size).toBe(0);
  });

  it("a restart while a URI's listen opens leaves one stream for it", async () => {
    const { client, pending, open } = slowClient();
    const changes = new UpstreamChanges(() => client, sink);
    const first = changes.attach('m://x');
    const reopened = changes.open();
    await new Promise((resolve) => setImmediate(resolve));
    for (const answer of pending.splice(0)) answer();
    await Promise.all([first, reopened]);
    expect(open.size).toBe(1);
    changes.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(open.size).toBe(0);
  });
});
