import { describe, expect, it } from 'vitest';
import type { ContentBlock, ReadResourceResult } from '../../protocol/index.js';
import type { ResolverClient } from '../../host/index.js';
import { parseProfile } from '../profiles/index.js';
import {
  DECISIONS_META_KEY,
  rewritePromptResult,
  rewriteToolResult,
  type RewriteContext,
} from './index.js';

const b64 = (s: string) => Buffer.from(s).toString('base64');
const PDF = b64('%PDF-1.4 fake');

function upstream(resources: Record<string, ReadResourceResult> = {}): ResolverClient {
  return {
    async readResource(uri) {
      const r = resources[uri];
      if (!r) throw Object.assign(new Error(`no resource ${uri}`), { code: -32002 });
      return r;
    },
  };
}

const ctxFor = (json: object, client: ResolverClient = upstream()): RewriteContext => ({
  profile: parseProfile({ extends: 'generic-text-only', ...json }, 'test', 'test'),
  upstream: client,
  maxLinkBytes: 1 << 16,
  readToolName: 'read_resource',
});

describe('the upstream’s own decisions', () => {
  it('are kept, the bridge’s appended after them and marked by: "bridge"', async () => {
    const own = [{ uri: 'test://x', kind: 'linked', reason: 'over the block budget' }];
    const out = await rewriteToolResult(
      {
        content: [{ type: 'image', data: 'aGk=', mimeType: 'audio/wav' } as ContentBlock],
        _meta: { [DECISIONS_META_KEY]: own, other: 1 },
      },
      ctxFor({}),
    );
    const decisions = out._meta?.[DECISIONS_META_KEY] as Array<Record<string, unknown>>;
    expect(decisions[0]).toEqual(own[0]);
    expect(decisions).toHaveLength(2);
    expect(decisions[1]).toMatchObject({ action: 'text', by: 'bridge' });
    expect(out._meta?.['other']).toBe(1);
  });
});

describe('a text-only prompt side', () => {
  it('does not pass a resource_link even where links are "read": it is read and given as text', async () => {
    const client = upstream({
      'test://a.txt': { contents: [{ uri: 'test://a.txt', mimeType: 'text/plain', text: 'hi a' }] },
    });
    const out = await rewritePromptResult(
      {
        messages: [
          { role: 'user', content: { type: 'resource_link', uri: 'test://a.txt', name: 'a' } },
        ],
      },
      ctxFor({ prompts: { resourceLinks: 'read', nonText: false } }, client),
    );
    expect(out.messages.map((m) => m.content.type)).toEqual(['text']);
    expect((out.messages[0]?.content as { text: string }).text).toContain('hi a');
  });
});

describe('image and audio sizes', () => {
  it('count base64 padding: "aGk=" is 2 bytes', async () => {
    const out = await rewriteToolResult(
      { content: [{ type: 'audio', data: 'aGk=', mimeType: 'audio/wav' }] },
      ctxFor({}),
    );
    expect((out.content[0] as { text: string }).text).toContain('about 2 bytes');
    expect(out._meta?.[DECISIONS_META_KEY]).toMatchObject([{ bytes: 2 }]);
  });
});

describe('a blob the profile allows, read from a link', () => {
  it('is embedded as a blob resource, not named as a type the host does not pass', async () => {
    const client = upstream({
      'test://r.pdf': {
        contents: [{ uri: 'test://r.pdf', mimeType: 'application/pdf', blob: PDF }],
      },
    });
    const out = await rewriteToolResult(
      { content: [{ type: 'resource_link', uri: 'test://r.pdf', name: 'r' }] },
      ctxFor(
        {
          tools: { resourceLinks: 'text', blobs: 'all' },
          read: { mimeTypes: ['application/pdf'] },
        },
        client,
      ),
    );
    expect(out.content).toEqual([
      {
        type: 'resource',
        resource: { uri: 'test://r.pdf', mimeType: 'application/pdf', blob: PDF },
      },
    ]);
    expect(JSON.stringify(out.content)).not.toContain('does not pass');
  });
});
