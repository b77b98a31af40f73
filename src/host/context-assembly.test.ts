import { describe, expect, it } from 'vitest';
import type { Annotations, ContentBlock } from '../protocol/index.js';
import {
  assembleContext,
  contextBytes,
  type AssembleContextOptions,
  type ContextEntry,
} from './context-assembly.js';
import { estimateTokens } from './token-estimate.js';
import { resolvedEntry } from './resolved-brand.js';
import type { DecodedContents, LinkOutcome, ResolvedBlock, Resolution } from './types.js';

// A text block of `bytes` ASCII bytes, so that its default cost is `bytes`.
const t = (bytes: number, annotations?: Annotations): ContentBlock =>
  annotations === undefined
    ? { type: 'text', text: 'x'.repeat(bytes) }
    : { type: 'text', text: 'x'.repeat(bytes), annotations };
const p = (priority: number): Annotations => ({ priority });

const decoded = (uri: string, text: string): DecodedContents => ({
  uri,
  mimeType: 'text/plain',
  text,
  bytes: new TextEncoder().encode(text),
  size: new TextEncoder().encode(text).length,
  warnings: [],
});

const link = (
  uri: string,
  name: string,
  outcome: LinkOutcome,
  annotations?: Annotations,
): ResolvedBlock => {
  const block: ContentBlock = { type: 'resource_link', uri, name };
  if (annotations !== undefined) block.annotations = annotations;
  return resolvedEntry({
    type: 'resource_link',
    block,
    link: { uri, name, server: { name: 's' } },
    outcome,
  });
};

const readLink = (uri: string, name: string, text: string) =>
  link(uri, name, { status: 'read', contents: [decoded(uri, text)], bytes: text.length });
const skipped: LinkOutcome = { status: 'skipped', code: 'not-requested', reason: 'not-requested' };

/** Indexes of forModel, forUser and leftOut (as `index:reason`). */
function shape(input: ContextEntry[], options?: AssembleContextOptions) {
  const out = assembleContext(input, options);
  return {
    model: out.forModel.map((i) => i.index),
    user: out.forUser.map((i) => i.index),
    left: out.leftOut.map((l) => `${l.index}:${l.reason}`),
    used: out.used,
  };
}

describe('assembleContext: budget and priority', () => {
  it.each<[string, ContextEntry[], number | undefined, number[], string[]]>([
    ['no budget keeps everything', [t(100), t(200, p(0)), t(300)], undefined, [0, 1, 2], []],
    ['budget exactly hit keeps both', [t(3), t(4)], 7, [0, 1], []],
    ['one under: the later of two equals goes', [t(3), t(4)], 6, [0], ['1:budget']],
    [
      'lowest priority goes first',
      [t(5, p(0.9)), t(5, p(0.1)), t(5, p(0.5))],
      10,
      [0, 2],
      ['1:budget'],
    ],
    ['priority 0 goes before the default 0.5', [t(5, p(0)), t(5)], 5, [1], ['0:budget']],
    [
      'the default 0.5 sits between 0.4 and 0.6',
      [t(5, p(0.4)), t(5), t(5, p(0.6))],
      10,
      [1, 2],
      ['0:budget'],
    ],
    [
      'all priority 0: the later ones go',
      [t(4, p(0)), t(4, p(0)), t(4, p(0))],
      9,
      [0, 1],
      ['2:budget'],
    ],
    ['all equal, nothing fits', [t(4), t(4)], 3, [], ['0:budget', '1:budget']],
    // A high block that cannot fit does not stop a smaller, lower one from using the space.
    [
      'a smaller lower block fills what a big one cannot',
      [t(150, p(1)), t(10, p(0))],
      100,
      [1],
      ['0:budget'],
    ],
    ['kept blocks stay in input order', [t(2, p(0.1)), t(2, p(1)), t(2, p(0.5))], 6, [0, 1, 2], []],
    ['budget 0 keeps only free blocks', [t(0), t(1)], 0, [0], ['1:budget']],
    ['budget Infinity is unlimited', [t(1e6)], Infinity, [0], []],
    ['priority out of range counts 0.5', [t(5, p(7)), t(5, p(0.6))], 5, [1], ['0:budget']],
    ['empty input', [], 10, [], []],
  ])('%s', (_name, input, budget, model, left) => {
    const out = shape(input, budget === undefined ? {} : { budget });
    expect(out.model).toEqual(model);
    expect(out.left).toEqual(left);
    expect(out.used).toBe(model.reduce((sum, i) => sum + contextBytes(input[i]!), 0));
  });

  it('reports the budget, and what each left-out block cost', () => {
    const out = assembleContext([t(6, p(0.8)), t(5, p(0.2))], { budget: 10 });
    expect(out.budget).toBe(10);
    expect(out.used).toBe(6);
    expect(out.leftOut).toEqual([
      {
        index: 1,
        block: t(5, p(0.2)),
        reason: 'budget',
        detail: 'costs 5, 4 of the budget of 10 left (priority 0.2)',
        cost: 5,
        priority: 0.2,
      },
    ]);
    expect('budget' in assembleContext([t(1)])).toBe(false);
  });

  it('does not budget forUser', () => {
    expect(shape([t(50), t(50)], { budget: 50 })).toEqual({
      model: [0],
      user: [0, 1],
      left: ['1:budget'],
      used: 50,
    });
  });
});

describe('assembleContext: audience', () => {
  const user: Annotations = { audience: ['user'] };
  const assistant: Annotations = { audience: ['assistant'] };
  const both: Annotations = { audience: ['assistant', 'user'] };
  it.each<[string, Annotations | undefined, AssembleContextOptions, number[], number[], string[]]>([
    ['none goes to both', undefined, {}, [0], [0], []],
    ['user only: shown, not sent', user, {}, [], [0], ['0:audience']],
    ['assistant only: sent, not shown', assistant, {}, [0], [], []],
    ['both named', both, {}, [0], [0], []],
    ['empty audience counts as none', { audience: [] }, {}, [0], [0], []],
    ['unknown roles count as none', { audience: ['system'] } as never, {}, [0], [0], []],
    ['not an array counts as none', { audience: 'user' } as never, {}, [0], [0], []],
    ['budgeted for the user instead', assistant, { audience: 'user' }, [], [], ['0:audience']],
    ['budgeted for the user, user block', user, { audience: 'user' }, [0], [0], []],
  ])('%s', (_name, annotations, options, model, users, left) => {
    const out = shape([t(3, annotations)], options);
    expect(out.model).toEqual(model);
    expect(out.user).toEqual(users);
    expect(out.left).toEqual(left);
  });

  it('says which roles were named', () => {
    const [left] = assembleContext([t(1, user)]).leftOut;
    expect(left?.detail).toBe('audience is ["user"], not "assistant"');
  });

  it('filters by audience before the budget', () => {
    // The user-only block would not fit; it is left out for its audience, and takes no space.
    const out = shape([t(100, user), t(10, p(0))], { budget: 10 });
    expect(out).toEqual({ model: [1], user: [0, 1], left: ['0:audience'], used: 10 });
  });

  it('reads annotations on embedded resources and links at the top level', () => {
    const embedded: ContentBlock = {
      type: 'resource',
      resource: { uri: 'file:///a', text: 'abc' },
      annotations: { audience: ['user'], priority: 1 },
    };
    const out = assembleContext([embedded, link('file:///b', 'b', skipped, { priority: 0.1 })]);
    expect(out.forUser.map((i) => [i.index, i.priority])).toEqual([
      [0, 1],
      [1, 0.1],
    ]);
    expect(out.leftOut.map((l) => l.reason)).toEqual(['audience']);
  });
});

describe('assembleContext: links', () => {
  const turn: Resolution = {
    blocks: [
      resolvedEntry({ type: 'text', block: t(4) }),
      readLink('file:///read.md', 'read', 'hello, world'),
      link('file:///big.log', 'big', { status: 'skipped', code: 'budget', reason: 'budget: over' }),
      link('https://x.test/', 'x', {
        status: 'refused',
        code: 'guard',
        reason: 'guard: loopback',
        by: 'guard',
      }),
    ],
    bytesRead: 12,
    warnings: [],
  };

  it('sends a read link as its contents, one not read as its pointer', () => {
    const out = assembleContext(turn);
    expect(out.forModel.map((i) => [i.form, i.cost])).toEqual([
      ['content', 4],
      ['content', 12],
      ['pointer', 'file:///big.log'.length + 'big'.length],
      ['pointer', 'https://x.test/'.length + 1],
    ]);
    expect(out.leftOut).toEqual([]);
  });

  it("leaves unread links out as 'not-read' when asked, with the outcome", () => {
    const out = assembleContext(turn, { unreadLinks: 'leave-out' });
    expect(out.forModel.map((i) => i.index)).toEqual([0, 1]);
    expect(out.leftOut.map((l) => [l.index, l.reason, l.detail])).toEqual([
      [2, 'not-read', 'link skipped: budget: over'],
      [3, 'not-read', 'link refused: guard: loopback'],
    ]);
    // The person still sees them, to choose to read them.
    expect(out.forUser.map((i) => i.index)).toEqual([0, 1, 2, 3]);
  });

  it('treats a plain resource_link block as not read', () => {
    const plain: ContentBlock = { type: 'resource_link', uri: 'file:///p', name: 'p' };
    expect(assembleContext([plain]).forModel[0]).toMatchObject({ form: 'pointer', cost: 10 });
    expect(assembleContext([plain], { unreadLinks: 'leave-out' }).leftOut[0]?.detail).toBe(
      'link not resolved',
    );
  });

  it('takes a Resolution or its blocks alike', () => {
    expect(assembleContext(turn)).toEqual(assembleContext(turn.blocks));
  });
});

describe('contextBytes', () => {
  const png = 'iVBORw0KGgo='; // 12 base64 characters, 8 bytes decoded
  it.each<[string, ContextEntry, number]>([
    ['text: UTF-8 bytes', { type: 'text', text: 'héllo' }, 6],
    ['image: base64 as sent', { type: 'image', data: png, mimeType: 'image/png' }, 12],
    ['audio: base64 as sent', { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }, 4],
    ['embedded text', { type: 'resource', resource: { uri: 'a:b', text: 'ünï' } }, 5],
    ['embedded blob: decoded', { type: 'resource', resource: { uri: 'a:b', blob: png } }, 8],
    ['embedded blob, ==', { type: 'resource', resource: { uri: 'a:b', blob: 'AA==' } }, 1],
    [
      'resolved embedded: its decoded size',
      resolvedEntry({
        type: 'resource',
        block: { type: 'resource', resource: { uri: 'a:b', text: 'ignored' } },
        contents: decoded('a:b', 'abc'),
        warnings: [],
      }),
      3,
    ],
    [
      'resolved embedded that failed to decode: from the block',
      resolvedEntry({
        type: 'resource',
        block: { type: 'resource', resource: { uri: 'a:b', blob: 'AAAA' } },
        error: 'bad',
        warnings: [],
      }),
      3,
    ],
    ['resolved text', resolvedEntry({ type: 'text', block: { type: 'text', text: 'abc' } }), 3],
    ['link not read: uri + name', link('file:///é', 'n', skipped), 11],
    ['read link: contents', readLink('a:b', 'n', 'ab'), 2],
    [
      'read link with two contents',
      link('a:b', 'n', { status: 'read', contents: [decoded('a:b', 'ab'), decoded('a:c', 'cde')] }),
      5,
    ],
    [
      'read link without contents: outcome bytes',
      link('a:b', 'n', { status: 'read', bytes: 9 }),
      9,
    ],
    ['unknown block type: its JSON', { type: 'widget', x: 1 } as never, 23],
  ])('%s', (_name, entry, bytes) => {
    expect(contextBytes(entry)).toBe(bytes);
  });
});

describe('assembleContext: custom measure', () => {
  it('budgets in the units of the measure', () => {
    const count = () => 1; // a budget of N blocks
    expect(shape([t(100), t(1, p(0)), t(50)], { budget: 2, measure: count })).toEqual({
      model: [0, 2],
      user: [0, 1, 2],
      left: ['1:budget'],
      used: 2,
    });
  });

  it('takes estimateTokens', () => {
    const out = assembleContext([t(8), t(9), t(4, p(0))], { budget: 5, measure: estimateTokens });
    expect(out.forModel.map((i) => i.cost)).toEqual([2, 3]);
    expect(out.leftOut.map((l) => [l.index, l.cost])).toEqual([[2, 1]]);
  });

  it('handles fractional costs', () => {
    const out = assembleContext([t(1), t(1), t(1)], { budget: 0.3, measure: () => 0.1 });
    expect(out.forModel).toHaveLength(3);
  });
});

describe('assembleContext: bad options', () => {
  it.each<[string, AssembleContextOptions, RegExp]>([
    ['negative budget', { budget: -1 }, /budget must be a number >= 0, got -1/],
    ['NaN budget', { budget: NaN }, /got NaN/],
    ['bad audience', { audience: 'system' as never }, /audience must be/],
    ['bad unreadLinks', { unreadLinks: 'drop' as never }, /unreadLinks must be/],
    ['negative cost', { measure: () => -1 }, /measure returned -1 for block 0/],
    ['NaN cost', { measure: () => NaN }, /measure returned NaN/],
  ])('%s', (_name, options, message) => {
    expect(() => assembleContext([t(1)], options)).toThrow(message);
  });
});

describe('assembleContext: what is not a content block', () => {
  it('leaves an invalid entry out of both views, with the resolver’s reason', () => {
    const invalid = resolvedEntry({
      type: 'invalid' as const,
      block: 42,
      error: 'content[0] is not a content block',
    });
    const text = { type: 'text' as const, text: 'ok' };
    const out = assembleContext([invalid, text]);
    expect(out.forModel.map((i) => i.index)).toEqual([1]);
    expect(out.forUser.map((i) => i.index)).toEqual([1]);
    expect(out.leftOut).toEqual([
      expect.objectContaining({
        index: 0,
        reason: 'invalid',
        detail: 'content[0] is not a content block',
      }),
    ]);
  });
});

describe('assembleContext: a server cannot pass for the resolver', () => {
  it('takes a raw block carrying `block`, `link` or `outcome` fields for what it is', () => {
    const big = 'x'.repeat(10_000);
    const fakeText = { type: 'text', text: big, block: { type: 'text', text: '' } } as ContentBlock;
    const fakeLink = {
      type: 'resource_link',
      uri: 'file:///a',
      name: 'a',
      block: {},
      link: {},
      outcome: { status: 'read', contents: [] },
    } as unknown as ContentBlock;
    const out = assembleContext([fakeText, fakeLink], { budget: 100 });
    expect(out.leftOut.map((l) => `${l.index}:${l.reason}`)).toEqual(['0:budget']);
    expect(out.forModel).toEqual([
      expect.objectContaining({ index: 1, form: 'pointer', cost: 'file:///a'.length + 1 }),
    ]);
  });

  it('leaves out what is not a block at all, unbranded', () => {
    const out = assembleContext([null, 7, { no: 'type' }] as unknown as ContentBlock[]);
    expect(out.forModel).toEqual([]);
    expect(out.leftOut.map((l) => l.reason)).toEqual(['invalid', 'invalid', 'invalid']);
  });
});
