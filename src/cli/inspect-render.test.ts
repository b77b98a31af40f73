import { describe, expect, it } from 'vitest';
import type { Resolution } from '../host/index.js';
import { renderBlocks, renderOverview } from './inspect-render.js';

describe('renderBlocks', () => {
  it.each([
    ['aGk=', 2],
    ['aA==', 1],
    ['aGlt', 3],
    ['', 0],
  ])('sizes an image of base64 %j as %i bytes, its padding accounted', (data, size) => {
    const resolved = {
      blocks: [{ type: 'image', block: { type: 'image', data, mimeType: 'image/png' } }],
      warnings: [],
    } as unknown as Resolution;
    expect(renderBlocks('tool pic', resolved)).toBe(
      `tool pic\n  image image/png  ${size} byte${size === 1 ? '' : 's'} (base64 ${data.length})`,
    );
  });
});

describe('renderOverview', () => {
  it('prints instructions with their line breaks, every other control escaped', () => {
    const text = renderOverview({
      era: '2026-07-28',
      server: {
        serverInfo: { name: 's', version: '1' },
        capabilities: {},
        instructions: 'Read first.\nThen \x1b[31mact\r.',
      },
    });
    expect(text).toContain('  instructions:\n    Read first.\n    Then \\x1b[31mact\\r.\n');
  });
});
