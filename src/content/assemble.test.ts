import { describe, expect, it } from 'vitest';
import type { ContentBlock } from '../protocol/types.js';
import { assembleBlocks, type AssembleOptions } from './assemble.js';
import { attach } from './attachment.js';
import { contentWireSize } from './wire-size.js';

const KiB = 1024;
const MiB = 1024 * KiB;
const opts = (o: Partial<AssembleOptions> = {}): AssembleOptions => ({
  capBytes: 32 * MiB,
  artifactUri: async (c, keep) => `mcpkit://artifacts/sha256/${keep ? 'kept' : 'addr'}-${c.size}`,
  ...o,
});
const bytes = (n: number) => new Uint8Array(n).fill(7);
const text = (t: string): ContentBlock => ({ type: 'text', text: t });

describe('assembleBlocks', () => {
  it('embeds what fits, links what does not, keeps order, and explains', async () => {
    const seen: string[] = [];
    const { blocks, decisions } = await assembleBlocks(
      [
        text('intro'),
        attach({
          uri: 'file:///small.bin',
          name: 'small.bin',
          bytes: bytes(100),
          mimeType: 'application/x-test',
        }),
        attach({ uri: 'file:///big.bin', name: 'big.bin', bytes: bytes(800 * KiB) }),
      ],
      opts({
        blockBudgetBytes: 1_000_000,
        onDecision: (r) => seen.push(`${r.name}:${r.decision.kind}:${r.decision.reason}`),
      }),
    );
    expect(blocks[0]).toEqual(text('intro'));
    expect(blocks[1]).toEqual({
      type: 'resource',
      resource: {
        uri: 'file:///small.bin',
        mimeType: 'application/x-test',
        blob: Buffer.from(bytes(100)).toString('base64'),
      },
    });
    expect(blocks[2]).toEqual({
      type: 'resource_link',
      uri: 'file:///big.bin',
      name: 'big.bin',
      mimeType: 'application/octet-stream',
      size: 800 * KiB,
    });
    expect(seen).toEqual(['small.bin:embed:fits', 'big.bin:link:over-block-budget']);
    expect(decisions).toHaveLength(2);
  });

  it('never loads a large resource it links', async () => {
    let loads = 0;
    const att = attach({
      uri: 'file:///huge',
      name: 'huge',
      size: 64 * MiB,
      mimeType: 'video/mp4',
      load: async () => (loads++, { bytes: bytes(1) }),
    });
    const { blocks } = await assembleBlocks([att], opts());
    expect(blocks[0]).toMatchObject({
      type: 'resource_link',
      size: 64 * MiB,
      mimeType: 'video/mp4',
    });
    expect(loads).toBe(0);
  });

  it('embeds what it loaded and measured, loading it once', async () => {
    // A file that grows between two reads: the second read used to be what was embedded,
    // unmeasured, past the cap the first one was checked against.
    const sizes = [100, 5000];
    let loads = 0;
    const att = attach({
      uri: 'file:///grows.txt',
      name: 'grows.txt',
      load: async () => ({ text: 'x'.repeat(sizes[loads++] ?? 0) }),
    });
    const { blocks } = await assembleBlocks([att], opts({ capBytes: 1000 }));
    expect(loads).toBe(1);
    expect(blocks[0]).toMatchObject({ type: 'resource', resource: { text: 'x'.repeat(100) } });
  });

  it('demotes optional embeds, lowest priority first, until the result fits its budget', async () => {
    const a = attach({
      uri: 'x:a',
      name: 'a',
      text: 'a'.repeat(300 * KiB),
      annotations: { priority: 0.9 },
    });
    const b = attach({
      uri: 'x:b',
      name: 'b',
      text: 'b'.repeat(300 * KiB),
      annotations: { priority: 0.1 },
    });
    const c = attach({
      uri: 'x:c',
      name: 'c',
      text: 'c'.repeat(300 * KiB),
      annotations: { priority: 0.5 },
    });
    const { blocks } = await assembleBlocks([a, b, c], opts({ resultBudgetBytes: 700 * KiB }));
    expect(blocks.map((x) => x.type)).toEqual(['resource', 'resource_link', 'resource']);
  });

  it('keeps a result under the hard cap and fails clearly for a required block that cannot fit', async () => {
    const req = attach({
      uri: 'file:///r.pdf',
      name: 'r.pdf',
      bytes: bytes(3 * MiB),
      required: true,
    });
    await expect(assembleBlocks([req], opts({ capBytes: 2 * MiB }))).rejects.toMatchObject({
      code: 'RESULT_TOO_LARGE',
      message: expect.stringMatching(
        /required resource "r\.pdf" \(file:\/\/\/r\.pdf\).*transport cap.*Link it instead/,
      ),
    });
    const ok = await assembleBlocks([req], opts({ capBytes: 5 * MiB, resultBudgetBytes: 5 * MiB }));
    expect(ok.blocks[0]?.type).toBe('resource');
  });

  it('gives artifacts without a URI a content-addressed one, kept only when linked', async () => {
    const { blocks } = await assembleBlocks(
      [
        attach({ name: 'out.txt', text: 'tiny' }),
        attach({ name: 'big.txt', text: 'x'.repeat(2 * MiB) }),
      ],
      opts(),
    );
    expect(blocks[0]).toEqual({
      type: 'resource',
      resource: { uri: 'mcpkit://artifacts/sha256/addr-4', mimeType: 'text/plain', text: 'tiny' },
    });
    expect(blocks[1]).toMatchObject({
      type: 'resource_link',
      uri: 'mcpkit://artifacts/sha256/kept-2097152',
      mimeType: 'text/plain',
    });
  });

  it('sniffs a MIME type for bytes with an unknown name', async () => {
    const png = new Uint8Array([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      0,
      0,
      0,
      13,
      0x49,
      0x48,
      0x44,
      0x52,
      ...new Array(32).fill(0),
    ]);
    const { blocks } = await assembleBlocks(
      [attach({ uri: 'x:blob', name: 'blob.unknownext', bytes: png })],
      opts(),
    );
    expect(blocks[0]).toMatchObject({ type: 'resource', resource: { mimeType: 'image/png' } });
  });

  it('flips exactly at the block budget, for a text known only by its size too', async () => {
    const uri = 'file:///a.txt';
    const wire = (t: string) =>
      contentWireSize({ type: 'resource', resource: { uri, mimeType: 'text/plain', text: t } });
    const prefix = 'é "quoted"\n';
    const atBudget = prefix + 'a'.repeat(1000 - wire(prefix));
    for (const sized of [false, true]) {
      for (const body of [atBudget, `${atBudget}a`]) {
        const att = attach({
          uri,
          name: 'a.txt',
          mimeType: 'text/plain',
          ...(sized
            ? { size: Buffer.byteLength(body), load: async () => ({ text: body }) }
            : { text: body }),
        });
        const { blocks } = await assembleBlocks([att], opts({ blockBudgetBytes: 1000 }));
        const fits = body === atBudget;
        expect(blocks[0]?.type, `sized ${sized}`).toBe(fits ? 'resource' : 'resource_link');
        if (fits) expect(Buffer.byteLength(JSON.stringify(blocks[0]))).toBe(1000);
      }
    }
  });

  it('measures an embedded blob exactly', async () => {
    const decisions: number[] = [];
    const { blocks } = await assembleBlocks(
      [attach({ uri: 'x:b', name: 'b', mimeType: 'image/png', bytes: bytes(100) })],
      opts({ onDecision: (r) => decisions.push(r.wireBytes) }),
    );
    expect(decisions).toEqual([Buffer.byteLength(JSON.stringify(blocks[0]))]);
  });

  it('lets one embedded block fill the result budget exactly: `[block]`', async () => {
    const block = (n: number) =>
      attach({ uri: 'x:t', name: 't', mimeType: 'text/plain', text: 'a'.repeat(n) });
    const { blocks } = await assembleBlocks([block(500)], opts());
    const budget = JSON.stringify(blocks).length;
    const at = await assembleBlocks([block(500)], opts({ resultBudgetBytes: budget }));
    expect(at.blocks[0]?.type).toBe('resource');
    const over = await assembleBlocks([block(501)], opts({ resultBudgetBytes: budget }));
    expect(over.blocks[0]?.type).toBe('resource_link');
  });

  it('refuses fixed blocks that alone break the cap', async () => {
    await expect(
      assembleBlocks([text('x'.repeat(2000))], opts({ capBytes: 1000 })),
    ).rejects.toMatchObject({ code: 'RESULT_TOO_LARGE' });
  });
});

describe('assembleBlocks sizing (review regressions)', () => {
  const wireOf = (blocks: ContentBlock[]) => Buffer.byteLength(JSON.stringify(blocks));

  it('sizes blocks exactly as emitted (_meta, the resolved MIME type) so the cap holds', async () => {
    const cap = 2000;
    const att = attach({
      uri: 'x:a',
      name: 'deck.pptx',
      bytes: bytes(1200),
      _meta: { note: 'x'.repeat(300) },
    });
    const { blocks } = await assembleBlocks([att], opts({ capBytes: cap }));
    expect(wireOf(blocks)).toBeLessThanOrEqual(cap);
    expect(blocks[0]?.type).toBe('resource_link');
    const small = await assembleBlocks(
      [attach({ uri: 'x:b', name: 'deck.pptx', bytes: bytes(900) })],
      opts({ capBytes: cap }),
    );
    expect(small.blocks[0]).toMatchObject({
      type: 'resource',
      resource: { mimeType: expect.stringContaining('presentation') },
    });
    expect(wireOf(small.blocks)).toBeLessThanOrEqual(cap);
  });

  it('counts a per-item wrapper (prompt messages) against the cap', async () => {
    const items = [
      attach({ uri: 'x:a', name: 'a.txt', text: 'a'.repeat(900) }),
      attach({ uri: 'x:b', name: 'b.txt', text: 'b'.repeat(900) }),
    ];
    const without = await assembleBlocks(items, opts({ capBytes: 1960 }));
    expect(without.blocks.map((b) => b.type)).toEqual(['resource', 'resource']);
    const withWrapper = await assembleBlocks(
      items,
      opts({ capBytes: 1960, itemOverheadBytes: 32 }),
    );
    expect(withWrapper.blocks.map((b) => b.type)).toContain('resource_link');
  });

  it('links an optional resource whose reader refuses it as too large, instead of failing', async () => {
    const refuse = async (): Promise<never> => {
      throw Object.assign(new Error('too large to return'), { data: { reason: 'too-large' } });
    };
    const att = attach({
      uri: 'x:big',
      name: 'big.png',
      mimeType: 'image/png',
      size: 700 * KiB,
      load: refuse,
    });
    const { blocks, decisions } = await assembleBlocks([att], opts({ capBytes: MiB }));
    expect(blocks[0]).toMatchObject({ type: 'resource_link', uri: 'x:big', size: 700 * KiB });
    expect(decisions[0]?.decision.reason).toBe('over-transport-cap');
    await expect(
      assembleBlocks([attach({ ...att, required: true })], opts({ capBytes: MiB })),
    ).rejects.toThrow('too large');
  });

  it('fails when several required resources together exceed the result budget', async () => {
    const req = (n: string) =>
      attach({ uri: `x:${n}`, name: n, text: n.repeat(6000), required: true });
    await expect(
      assembleBlocks([req('a'), req('b'), req('c')], opts({ resultBudgetBytes: 10_000 })),
    ).rejects.toMatchObject({
      code: 'RESULT_TOO_LARGE',
      message: expect.stringContaining('result budget'),
    });
  });
});
