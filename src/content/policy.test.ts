import { describe, expect, it } from 'vitest';
import { base64Length } from '../protocol/base64.js';
import {
  DEFAULT_BLOCK_BUDGET_BYTES,
  DEFAULT_RESULT_BUDGET_BYTES,
  decide,
  type PolicyContext,
  type PolicyInput,
} from './policy.js';

const MiB = 1024 * 1024;
const ctx: PolicyContext = {
  capBytes: 32 * MiB,
  blockBudgetBytes: DEFAULT_BLOCK_BUDGET_BYTES,
  resultBudgetBytes: DEFAULT_RESULT_BUDGET_BYTES,
  usedBytes: 0,
  clientCanReadResources: true,
};
// A blob block costs its base64 plus ~80 bytes of JSON around it.
const blob = (raw: number, extra: Partial<PolicyInput> = {}): PolicyInput => ({
  uri: 'x:y',
  rawBytes: raw,
  wireBytes: base64Length(raw) + 80,
  ...extra,
});

describe('decide', () => {
  it.each<[string, PolicyInput, Partial<PolicyContext>, string, string]>([
    ['small optional blob', blob(1000), {}, 'embed', 'fits'],
    [
      'seed: 750 KB is ~1 MB as base64, over a 1 MB budget',
      blob(750_000),
      { blockBudgetBytes: 1_000_000 },
      'link',
      'over-block-budget',
    ],
    [
      '750 KiB under a 1 MB budget',
      blob(750 * 1024),
      { blockBudgetBytes: 1_000_000 },
      'link',
      'over-block-budget',
    ],
    [
      'just under the default 1 MiB block budget',
      { uri: 'x:y', rawBytes: 10, wireBytes: MiB },
      {},
      'embed',
      'fits',
    ],
    [
      'one byte over the default block budget',
      { uri: 'x:y', rawBytes: 10, wireBytes: MiB + 1 },
      {},
      'link',
      'over-block-budget',
    ],
    [
      '768 KiB raw under the default 1 MiB budget',
      blob(768 * 1024),
      {},
      'link',
      'over-block-budget',
    ],
    [
      'fits the block but not what is left of the result',
      blob(600_000),
      { usedBytes: 3.5 * MiB },
      'link',
      'over-result-budget',
    ],
    [
      'exactly fills the result budget',
      { uri: 'x:y', rawBytes: 1, wireBytes: MiB },
      { usedBytes: 3 * MiB },
      'embed',
      'fits',
    ],
    [
      'over the transport cap, optional',
      blob(3 * MiB),
      { capBytes: 2 * MiB },
      'link',
      'over-transport-cap',
    ],
    [
      'over the transport cap, required',
      blob(3 * MiB, { required: true }),
      { capBytes: 2 * MiB },
      'fail',
      'over-transport-cap',
    ],
    ['required beats the block budget', blob(2 * MiB, { required: true }), {}, 'embed', 'required'],
    [
      'required over the result budget',
      blob(2 * MiB, { required: true }),
      { usedBytes: 2 * MiB },
      'fail',
      'over-result-budget',
    ],
    [
      'sensitive always links',
      blob(10, { sensitive: true, required: true }),
      {},
      'link',
      'sensitive',
    ],
    ['volatile links', blob(10, { volatile: true }), {}, 'link', 'volatile'],
    [
      'volatile but required embeds a snapshot',
      blob(10, { volatile: true, required: true }),
      {},
      'embed',
      'required',
    ],
    [
      'volatile embeds when the client cannot read links',
      blob(10, { volatile: true }),
      { clientCanReadResources: false },
      'embed',
      'fits',
    ],
    ['mode link', blob(10, { mode: 'link' }), {}, 'link', 'requested-link'],
    [
      'mode embed ignores soft budgets',
      blob(2 * MiB, { mode: 'embed' }),
      {},
      'embed',
      'requested-embed',
    ],
    [
      'mode embed cannot break the cap',
      blob(2 * MiB, { mode: 'embed' }),
      { capBytes: MiB },
      'fail',
      'over-transport-cap',
    ],
  ])('%s', (_name, input, over, kind, reason) => {
    const d = decide(input, { ...ctx, ...over });
    expect(d.kind).toBe(kind);
    expect(d.reason).toBe(reason);
    expect(d.detail.length).toBeGreaterThan(0);
  });

  it('explains sizes in its detail', () => {
    const d = decide(blob(750_000), { ...ctx, blockBudgetBytes: 1_000_000 });
    expect(d.detail).toContain('per-block budget');
    expect(d.detail).toContain('732.4 KiB (750000 B) raw');
  });
});
