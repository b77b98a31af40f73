import { describe, expect, it } from 'vitest';
import { McpKitError } from '../errors/index.js';
import type { ContentBlock } from '../protocol/index.js';
import { readLink, wireBytesFor } from './read-link.js';
import { resolve } from './resolver.js';
import type { ResolverClient } from './types.js';

const MiB = 1024 * 1024;

/** A client whose reads all fail as a transport stopped at the request's limit. */
function cutClient() {
  const asked: (number | undefined)[] = [];
  const client: ResolverClient = {
    readResource(_uri, options) {
      asked.push(options?.maxResponseBytes);
      return Promise.reject(new McpKitError('RESPONSE_TOO_LARGE', 'Response too large: cut'));
    },
  };
  return { client, asked };
}

describe('the per-link limit is passed down to the read', () => {
  it('wireBytesFor: base64 room, at most about 1 MiB past the limit', () => {
    expect(wireBytesFor(4096)).toBe(4096 + 1366 + 64 * 1024);
    expect(wireBytesFor(3 * MiB)).toBe(4 * MiB + 64 * 1024);
    expect(wireBytesFor(30 * MiB)).toBe(31 * MiB + 64 * 1024);
    expect(wireBytesFor(Infinity)).toBeUndefined();
  });

  it('the read asks for that limit, and an answer cut at it is a size refusal with its bytes', async () => {
    const { client, asked } = cutClient();
    const answer = await readLink({
      client,
      uri: 'file:///a.txt',
      fetchUrls: undefined,
      maxBytes: 4096,
      signal: undefined,
      timeoutMs: undefined,
    });
    expect(asked).toEqual([wireBytesFor(4096)]);
    expect(answer).toMatchObject({
      kind: 'refused',
      code: 'size',
      by: 'policy',
      bytes: wireBytesFor(4096),
    });
  });

  it('what cut reads brought is charged to the turn: later links are skipped for the budget', async () => {
    const { client, asked } = cutClient();
    const links = Array.from(
      { length: 10 },
      (_, i) =>
        ({ type: 'resource_link', uri: `file:///${i}`, name: `${i}`, size: 10 }) as ContentBlock,
    );
    const wire = wireBytesFor(4096) as number;
    const r = await resolve(links, client, {
      select: 'all',
      maxLinkBytes: 4096,
      budgetBytes: 3 * wire,
      concurrency: 1,
    });
    const statuses = r.blocks.map((b) => (b as { outcome: { status: string } }).outcome.status);
    expect(statuses.slice(0, 3)).toEqual(['refused', 'refused', 'refused']);
    expect(statuses.slice(3).every((s) => s === 'skipped')).toBe(true);
    expect(asked).toHaveLength(3);
  });
});
