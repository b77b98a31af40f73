import { describe, expect, it } from 'vitest';
import { CHART_CEILING_BYTES, sizeChart } from './audit-html-chart.js';
import { listedWireBytes } from './audit-lists.js';

const budgets = { blockBudgetBytes: 1 << 20, capBytes: 10 << 20 };

describe('sizeChart with sizes a hostile server lists', () => {
  it('ends its axis at the ceiling for a size near Number.MAX_VALUE or Infinity', () => {
    const svg = sizeChart({
      ...budgets,
      resources: [
        {
          uri: 'x://a',
          measured: false,
          read: 'not read',
          wireBytes: 1.5e308,
          sizeClass: 'too-large',
        },
        {
          uri: 'x://b',
          measured: false,
          read: 'not read',
          wireBytes: Infinity,
          sizeClass: 'too-large',
        },
      ],
    });
    const ticks = svg.match(/<line class="tick"/g) ?? [];
    // From 1 B to 2^60 (and a quarter more), a tick every 2^5.
    expect(ticks.length).toBeLessThanOrEqual(Math.log2(CHART_CEILING_BYTES) / 5 + 2);
    expect(svg).toContain('>1 EiB</text>');
    expect(svg).not.toMatch(/x="NaN|x="Infinity/);
    expect(svg.match(/<circle /g)).toHaveLength(2);
  });
});

describe('listedWireBytes', () => {
  it('ignores a size that is not a safe byte count', () => {
    for (const size of [1.5e308, Number.MAX_SAFE_INTEGER + 2, -1, 1.5, Infinity, NaN])
      expect(listedWireBytes({ uri: 'x://a', size })).toBeUndefined();
    expect(listedWireBytes({ uri: 'x://a', size: 10 })).toBe(10 + 2 * 5 + 100);
  });
});
